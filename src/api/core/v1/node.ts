// Node (core/v1): wire types, defaults, strategy (spec/status split), validation and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go (SetDefaults_NodeStatus),
// pkg/registry/core/node/strategy.go, pkg/apis/core/validation/validation.go (ValidateNode),
// pkg/printers/internalversion/printers.go (printNode).
import { nodeProxyConnect, proxyVerbs } from './connect-options.ts';
import { FieldPath, forbiddenField } from '../../../core/index.ts';
import type { FieldError, Condition, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { ResourceList, TaintEffect } from './pod/types.ts';
import { keepField } from './keep-field.ts';
import { validateTaints } from './taints.ts';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
}

export type NodeConditionType = 'Ready' | 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'NetworkUnavailable';
export type NodeAddressType = 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';

export interface NodeCondition extends Condition {
  type: string;
}
export interface NodeAddress {
  type: NodeAddressType;
  address: string;
}
export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  /** Deprecated: no longer reported by the kubelet (1.31+); the API server writes "" (defaultNode). */
  kubeProxyVersion?: string;
  operatingSystem: string;
  architecture: string;
  swap?: { capacity?: number };
}
export interface NodeDaemonEndpoints {
  kubeletEndpoint?: { Port: number };
}
export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}
export interface AttachedVolume {
  name: string;
  devicePath: string;
}
export interface NodeRuntimeHandler {
  name?: string;
  features?: { recursiveReadOnlyMounts?: boolean; userNamespaces?: boolean };
}
export interface NodeFeatures {
  supplementalGroupsPolicy?: boolean;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: 'Pending' | 'Running' | 'Terminated';
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  nodeInfo?: NodeSystemInfo;
  images?: ContainerImage[];
  volumesInUse?: string[];
  volumesAttached?: AttachedVolume[];
  runtimeHandlers?: NodeRuntimeHandler[];
  features?: NodeFeatures;
  /** NodeDeclaredFeatures (alpha in 1.35): feature names the node advertises. */
  declaredFeatures?: string[];
}

export interface Node extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Node';
  metadata: ObjectMeta;
  spec?: NodeSpec;
  status?: NodeStatus;
}

export const labelNodeRolePrefix = 'node-role.kubernetes.io/';
export const nodeLabelRole = 'kubernetes.io/role';

export function defaultNode(node: Node): void {
  const status = node.status;
  if (status && status.allocatable === undefined && status.capacity !== undefined) status.allocatable = { ...status.capacity };
  // Spec, status, daemonEndpoints and nodeInfo are structs and nodeInfo's strings are not omitempty, so
  // upstream's encoding writes them all, "" when unset: kubeProxyVersion, which kubelets stopped
  // reporting, reads "". Clients that check the schema's required fields (the Python client) fail without it.
  fillZeroFields(node as unknown as Record<string, unknown>, zeroFields('', 'v1', 'Node'));
}

export function findNodeRoles(node: Pick<Node, 'metadata'>): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(labelNodeRolePrefix)) {
      const role = k.slice(labelNodeRolePrefix.length);
      if (role) roles.add(role);
    } else if (k === nodeLabelRole && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** printNode's Status cell: Ready / NotReady / Unknown, then SchedulingDisabled when cordoned. */
export function nodeStatusText(node: Node): string {
  const status: string[] = [];
  // Only Ready is consulted (NodeAllConditions upstream); the last entry of a type wins.
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeAddress(node: Node, type: NodeAddressType): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

const orUnknown = (s: string | undefined): string => (s ? s : '<unknown>');

const addressesDescription =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const nodeTable: TablePrinter<Node> = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'string', addressesDescription, 1),
    column('External-IP', 'string', addressesDescription, 1),
    column('OS-Image', 'string', "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1),
    column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  cells(node, now) {
    const roles = findNodeRoles(node).join(',');
    const info = node.status?.nodeInfo;
    return [
      node.metadata.name ?? '',
      nodeStatusText(node),
      roles || '<none>',
      translateTimestampSince(node.metadata.creationTimestamp, now),
      info?.kubeletVersion ?? '',
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      orUnknown(info?.osImage),
      orUnknown(info?.kernelVersion),
      orUnknown(info?.containerRuntimeVersion),
    ];
  },
};

function validateNodeSpec(node: Node): FieldError[] {
  return validateTaints(node.spec?.taints, FieldPath.root('spec').child('taints'));
}

function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = [...validateObjectMetaUpdate(node.metadata, old.metadata), ...validateNodeSpec(node)];
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const newCIDRs = node.spec?.podCIDRs ?? [];
  // podCIDRs may go from unset to set, never change after.
  if (oldCIDRs.length > 0 && (oldCIDRs.length !== newCIDRs.length || oldCIDRs.some((c, i) => c !== newCIDRs[i]))) {
    errs.push(forbiddenField(FieldPath.root('spec').child('podCIDRs'), 'node updates may not change podCIDR except from "" to valid'));
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(forbiddenField(FieldPath.root('spec').child('providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

export const nodeDefinition: ResourceDefinition<Node> = {
  group: '',
  version: 'v1',
  kind: 'Node',
  resource: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  subresources: [
    { name: 'proxy', kind: 'NodeProxyOptions', verbs: proxyVerbs, connect: nodeProxyConnect },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  tracksGeneration: false,
  defaults: defaultNode,
  // Upstream keeps the status a kubelet registers with (nodeStrategy.PrepareForCreate only drops
  // disabled fields), so there is nothing to clear here.
  prepareForUpdate(node, old, ctx) {
    keepField(node, old, ctx.subresource === 'status' ? 'spec' : 'status');
  },
  validateCreate: (node) => [...validateObjectMeta(node.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain }), ...validateNodeSpec(node)],
  validateUpdate: validateNodeUpdate,
  validateStatusUpdate: validateNodeUpdate,
  table: nodeTable,
  fieldLabels: { 'spec.unschedulable': (node) => String(node.spec?.unschedulable ?? false) },
};
