// NetworkPolicy (networking.k8s.io/v1): stored, defaulted and validated as upstream's, so charts and
// install manifests that carry one apply. Simulated pods have no network to police, so nothing
// enforces it, as on a cluster whose network plugin does not implement policies.
// Upstream: staging/src/k8s.io/api/networking/v1/types.go, pkg/apis/networking/v1/defaults.go,
// pkg/apis/networking/validation/validation.go, printers.go (printNetworkPolicy).
import { isIP } from 'node:net';
import { FieldPath, formatLabelSelector, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isValidPortName, isValidPortNum, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { validateLabelSelectorStrict } from '../../workload-template.ts';

export interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicy extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    podSelector?: LabelSelector;
    ingress?: { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }[];
    egress?: { ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }[];
    policyTypes?: string[];
  };
}

/** SetDefaults_NetworkPolicy(Port): TCP ports; policyTypes Ingress, and Egress when egress rules exist. */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = (np.spec ??= {});
  spec.podSelector ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
}

function validatePort(port: NetworkPolicyPort, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !['TCP', 'UDP', 'SCTP'].includes(port.protocol)) errs.push(notSupported(path.child('protocol'), port.protocol, ['TCP', 'UDP', 'SCTP']));
  if (port.port === undefined) {
    if (port.endPort !== undefined) errs.push(invalidValue(path.child('endPort'), port.endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalidValue(path.child('port'), port.port, msg));
    if (port.endPort !== undefined) {
      if (port.endPort < port.port) errs.push(invalidValue(path.child('endPort'), port.endPort, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(port.endPort)) errs.push(invalidValue(path.child('endPort'), port.endPort, msg));
    }
  } else {
    if (port.endPort !== undefined) errs.push(invalidValue(path.child('endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(port.port)) errs.push(invalidValue(path.child('port'), port.port, msg));
  }
  return errs;
}

/** ParseCIDRSloppy: an address (leading zeros allowed) and a prefix length within its family. */
function parseCidr(value: string): { family: 4 | 6; bits: bigint; prefix: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = value.slice(0, slash).replace(/(^|\.)0+(\d)/g, '$1$2');
  const prefixText = value.slice(slash + 1);
  const family = isIP(address);
  if ((family !== 4 && family !== 6) || !/^\d+$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (family === 4 ? 32 : 128)) return undefined;
  let bits = 0n;
  if (family === 4) for (const octet of address.split('.')) bits = (bits << 8n) | BigInt(octet);
  else {
    const [head = '', tail = ''] = address.includes('::') ? address.split('::') : [address, ''];
    const groups = (s: string): string[] => (s ? s.split(':') : []);
    const all = [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
    for (const g of all) bits = (bits << 16n) | BigInt(`0x${g}`);
  }
  return { family, bits, prefix };
}

const cidrMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function validateIPBlock(block: NonNullable<NetworkPolicyPeer['ipBlock']>, path: FieldPath): FieldError[] {
  if (!block.cidr) return [required(path.child('cidr'), '')];
  const cidr = parseCidr(block.cidr);
  if (!cidr) return [invalidValue(path.child('cidr'), block.cidr, cidrMessage)];
  const errs: FieldError[] = [];
  const width = cidr.family === 4 ? 32n : 128n;
  const network = (bits: bigint, prefix: number): bigint => (prefix === 0 ? 0n : bits >> (width - BigInt(prefix)));
  (block.except ?? []).forEach((text, i) => {
    const p = path.child('except').index(i);
    const except = parseCidr(text);
    if (!except) {
      errs.push(invalidValue(p, text, cidrMessage));
      return;
    }
    const inside = except.family === cidr.family && network(except.bits, cidr.prefix) === network(cidr.bits, cidr.prefix);
    if (!inside || cidr.prefix >= except.prefix) errs.push(invalidValue(p, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: NetworkPolicyPeer, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (peer.podSelector) {
    peers++;
    errs.push(...validateLabelSelectorStrict(peer.podSelector, path.child('podSelector')));
  }
  if (peer.namespaceSelector) {
    peers++;
    errs.push(...validateLabelSelectorStrict(peer.namespaceSelector, path.child('namespaceSelector')));
  }
  if (peer.ipBlock) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock) errs.push(forbiddenField(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateSpec(spec: NonNullable<NetworkPolicy['spec']>, path: FieldPath): FieldError[] {
  const errs = validateLabelSelectorStrict(spec.podSelector, path.child('podSelector'));
  for (const [direction, peersField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    (spec[direction] ?? []).forEach((rule, i) => {
      const rulePath = path.child(direction).index(i);
      (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, rulePath.child('ports').index(j))));
      const peers = (rule as Record<string, NetworkPolicyPeer[] | undefined>)[peersField] ?? [];
      peers.forEach((peer, j) => errs.push(...validatePeer(peer, rulePath.child(peersField).index(j))));
    });
  }
  const types = spec.policyTypes ?? [];
  if (types.length > 2) return [...errs, invalidValue(path.child('policyTypes'), types, 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(path.child('policyTypes').index(i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

const networkPolicyTable: TablePrinter<NetworkPolicy> = {
  columns: [nameColumn, column('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy\'s namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.'), ageColumn],
  cells: (np, now) => [np.metadata.name ?? '', formatLabelSelector(np.spec?.podSelector), translateTimestampSince(np.metadata.creationTimestamp, now)],
};

export const networkPolicyDefinition: ResourceDefinition<NetworkPolicy> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  resource: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  namespaced: true,
  hasStatus: false,
  defaults: defaultNetworkPolicy,
  validateCreate: (np) => [...validateObjectMeta(np.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateSpec(np.spec ?? {}, FieldPath.root('spec'))],
  validateUpdate: (np, old) => [...validateObjectMetaUpdate(np.metadata, old.metadata), ...validateSpec(np.spec ?? {}, FieldPath.root('spec'))],
  table: networkPolicyTable,
};
