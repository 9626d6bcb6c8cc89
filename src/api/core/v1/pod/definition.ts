// The Pod ResourceDefinition: names, subresources as upstream discovery lists them, the main / status /
// resize / ephemeralcontainers strategies, table, field selectors and patch metadata.
// Upstream: pkg/registry/core/pod/strategy.go, pkg/registry/core/pod/storage/storage.go.
import type { FieldError } from '../../../../core/index.ts';
import type { PatchMeta, ResourceDefinition, StrategyContext } from '../../../resource.ts';
import { keepField } from '../keep-field.ts';
import { podAttachConnect, podExecConnect, podPortForwardConnect, podProxyConnect, proxyVerbs } from '../connect-options.ts';
import { defaultFeatureGates } from '../../../features.ts';
import type { Container, Pod } from './types.ts';
import { defaultPod } from './defaults.ts';
import { computePodQOS } from './qos.ts';
import { mergeMatchLabelKeys } from './match-label-keys.ts';
import { validatePodCreate } from './validation.ts';
import type { SimAnnotationValidator } from './validation.ts';
import { isSemanticEqual, validatePodResize, validatePodStatusUpdate, validatePodUpdate } from './update-validation.ts';
import { validateEphemeralContainersUpdate } from './ephemeral-validation.ts';
import { podTable } from './table.ts';
import { validateSimBehaviourAnnotations } from '../../../sim/behaviour.ts';

export const schedulingGatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';

// Hook for `sim.drydock.dev/<container>` annotations: src/api/sim/behaviour.ts was not there when this was
// written; set it from the registry once it exists (setSimAnnotationValidator(validateSimBehaviourAnnotations)).
let simValidator: SimAnnotationValidator | undefined = validateSimBehaviourAnnotations;
export function setSimAnnotationValidator(v: SimAnnotationValidator | undefined): void {
  simValidator = v;
}

function prepareForCreate(pod: Pod): void {
  const status: NonNullable<Pod['status']> = { phase: 'Pending', qosClass: computePodQOS(pod) };
  if (pod.spec?.schedulingGates?.length) {
    status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: schedulingGatedMessage }];
  }
  pod.status = status;
  withConditionTimes(pod);
  pod.metadata.generation = 1;
  mergeMatchLabelKeys(pod);
}

/**
 * A PodCondition's times are metav1.Time structs, which Go's encoder never omits: a condition written
 * without them (a strategic patch's null, a controller's bare readiness-gate condition) reads back
 * `lastProbeTime: null` / `lastTransitionTime: null`, as upstream's does.
 */
function withConditionTimes(pod: Pod): void {
  const conditions = pod.status?.conditions;
  if (!conditions?.some((c) => c.lastProbeTime === undefined || c.lastTransitionTime === undefined)) return;
  const timed = conditions.map((c) => (c.lastProbeTime !== undefined && c.lastTransitionTime !== undefined ? c : { ...c, lastProbeTime: c.lastProbeTime ?? null, lastTransitionTime: c.lastTransitionTime ?? null }));
  pod.status = { ...pod.status, conditions: timed as typeof conditions };
}

function bumpGeneration(pod: Pod, old: Pod): void {
  const gen = old.metadata.generation ?? 1;
  pod.metadata.generation = isSemanticEqual(pod.spec, old.spec) ? gen : gen + 1;
}

// resize (dropNonResizeUpdates): the stored pod with, position by position, containers' and init containers'
// resources and resizePolicy from the request. Added, removed, renamed or reordered containers pass through
// unchanged so that validation rejects them; metadata is reset as for a status write.
function mergeResizeFields(news: readonly Container[] | undefined, olds: readonly Container[] | undefined): Container[] | undefined {
  if (!news || news.length === 0) return news as Container[] | undefined;
  const out: Container[] = [];
  for (let i = 0; i < news.length; i++) {
    const n = news[i] as Container;
    const o = olds?.[i];
    if (!o || o.name !== n.name) return news as Container[];
    const c: Container = structuredClone(o);
    setOrDeleteField(c, 'resources', n.resources);
    setOrDeleteField(c, 'resizePolicy', n.resizePolicy);
    out.push(c);
  }
  return out;
}

function setOrDeleteField<K extends 'resources' | 'resizePolicy'>(c: Container, key: K, value: Container[K] | undefined): void {
  if (value === undefined) delete c[key];
  else c[key] = structuredClone(value);
}

function keepOnlyResize(pod: Pod, old: Pod): void {
  const next = pod.spec;
  if ((next?.containers?.length ?? 0) !== old.spec.containers.length || (next?.initContainers?.length ?? 0) !== (old.spec.initContainers?.length ?? 0)) return;
  const containers = mergeResizeFields(next?.containers, old.spec.containers) ?? [];
  const inits = mergeResizeFields(next?.initContainers, old.spec.initContainers);
  pod.spec = { ...old.spec, containers };
  if (inits) pod.spec.initContainers = inits;
  keepField(pod, old, 'status');
  // metav1.ResetObjectMetaForStatus
  for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences', 'deletionTimestamp', 'generation'] as const) keepField(pod.metadata, old.metadata, k);
}

function prepareForUpdate(pod: Pod, old: Pod, ctx: StrategyContext): void {
  // A patch that nulls spec or its containers (`{"spec":null}` to pods/resize) leaves Go a zero PodSpec,
  // which validation then refuses; decoding drops the null, so the zero value is put back here.
  pod.spec ??= { containers: [] };
  pod.spec.containers ??= [];
  withConditionTimes(pod);
  switch (ctx.subresource) {
    case 'status':
      keepField(pod, old, 'spec');
      if (old.metadata.deletionTimestamp) pod.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
      else delete pod.metadata.deletionTimestamp;
      // Upstream: old kubelets corrupt ownerReferences through pods/status, so they are kept.
      keepField(pod.metadata, old.metadata, 'ownerReferences');
      // dropDisabledPodStatusFields
      if (!(ctx.featureGates ?? defaultFeatureGates).DRAExtendedResource && !old.status?.extendedResourceClaimStatus) delete pod.status?.extendedResourceClaimStatus;
      return;
    case 'resize':
      keepOnlyResize(pod, old);
      bumpGeneration(pod, old);
      return;
    case 'ephemeralcontainers': {
      const ecs = pod.spec?.ephemeralContainers;
      pod.spec = structuredClone(old.spec);
      if (ecs) pod.spec.ephemeralContainers = ecs;
      keepField(pod, old, 'status');
      bumpGeneration(pod, old);
      return;
    }
    case 'binding':
      // BindingREST sets nodeName and the PodScheduled condition itself; nothing to keep.
      return;
    default:
      keepField(pod, old, 'status');
      bumpGeneration(pod, old);
  }
}

function validateUpdate(pod: Pod, old: Pod, ctx: StrategyContext): FieldError[] {
  if (ctx.subresource === 'resize') return validatePodResize(pod, old);
  if (ctx.subresource === 'ephemeralcontainers') return validateEphemeralContainersUpdate(pod, old);
  return validatePodUpdate(pod, old);
}

const byName: PatchMeta = { mergeKey: 'name', strategy: 'merge', listType: 'map', listMapKeys: ['name'] };
const containerMeta: PatchMeta = {
  ...byName,
  items: {
    fields: {
      ports: { mergeKey: 'containerPort', strategy: 'merge', listType: 'map', listMapKeys: ['containerPort', 'protocol'] },
      env: byName,
      volumeMounts: { mergeKey: 'mountPath', strategy: 'merge', listType: 'map', listMapKeys: ['mountPath'] },
      volumeDevices: { mergeKey: 'devicePath', strategy: 'merge', listType: 'map', listMapKeys: ['devicePath'] },
      command: { listType: 'atomic' },
      args: { listType: 'atomic' },
      envFrom: { listType: 'atomic' },
      resizePolicy: { listType: 'atomic' },
      resources: { fields: { claims: { listType: 'map', listMapKeys: ['name'] } } },
    },
  },
};

export const podPatchMeta: PatchMeta = {
  fields: {
    spec: {
      fields: {
        containers: containerMeta,
        initContainers: containerMeta,
        ephemeralContainers: containerMeta,
        volumes: { mergeKey: 'name', strategy: 'merge,retainKeys', listType: 'map', listMapKeys: ['name'] },
        resourceClaims: { mergeKey: 'name', strategy: 'merge,retainKeys', listType: 'map', listMapKeys: ['name'] },
        imagePullSecrets: { mergeKey: 'name', strategy: 'merge', listType: 'map', listMapKeys: ['name'] },
        schedulingGates: byName,
        hostAliases: { mergeKey: 'ip', strategy: 'merge', listType: 'map', listMapKeys: ['ip'] },
        topologySpreadConstraints: { mergeKey: 'topologyKey', strategy: 'merge', listType: 'map', listMapKeys: ['topologyKey', 'whenUnsatisfiable'] },
        tolerations: { listType: 'atomic' },
        readinessGates: { listType: 'atomic' },
      },
    },
    status: {
      fields: {
        conditions: { mergeKey: 'type', strategy: 'merge', listType: 'map', listMapKeys: ['type'] },
        podIPs: { mergeKey: 'ip', strategy: 'merge', listType: 'map', listMapKeys: ['ip'] },
        hostIPs: { mergeKey: 'ip', strategy: 'merge', listType: 'atomic' },
      },
    },
  },
};

export const podDefinition: ResourceDefinition<Pod> = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  subresources: [
    { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'], connect: podAttachConnect },
    { name: 'binding', kind: 'Binding', verbs: ['create'] },
    { name: 'ephemeralcontainers', verbs: ['get', 'patch', 'update'] },
    { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
    { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'], connect: podExecConnect },
    { name: 'log', verbs: ['get'] },
    { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'], connect: podPortForwardConnect },
    { name: 'proxy', kind: 'PodProxyOptions', verbs: proxyVerbs, connect: podProxyConnect },
    { name: 'resize', verbs: ['get', 'patch', 'update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultPod,
  prepareForCreate,
  prepareForUpdate,
  validateCreate: (pod) => validatePodCreate(pod, simValidator),
  // ValidatePodCreate's ValidatePodMetadataAndSpec opens with ValidateObjectMeta (namespaced, DNS subdomain names).
  validateCreateChecksMeta: true,
  validateUpdate,
  validateStatusUpdate: validatePodStatusUpdate,
  table: podTable,
  fieldLabels: {
    'spec.nodeName': (p) => p.spec?.nodeName ?? '',
    // Field label conversion maps the old `spec.host` onto nodeName.
    'spec.host': (p) => p.spec?.nodeName ?? '',
    'spec.restartPolicy': (p) => p.spec?.restartPolicy ?? '',
    'spec.schedulerName': (p) => p.spec?.schedulerName ?? '',
    'spec.serviceAccountName': (p) => p.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': (p) => String(p.spec?.hostNetwork ?? false),
    'status.phase': (p) => p.status?.phase ?? '',
    'status.podIP': (p) => p.status?.podIP ?? '',
    'status.podIPs': (p) => (p.status?.podIPs ?? []).map((ip) => ip.ip).join(','),
    'status.nominatedNodeName': (p) => p.status?.nominatedNodeName ?? '',
  },
  patchMeta: podPatchMeta,
};
