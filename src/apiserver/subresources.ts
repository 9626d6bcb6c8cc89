// Subresources that speak another kind: scale (autoscaling/v1 Scale), binding and eviction.
// Upstream: pkg/registry/apps/deployment/storage/storage.go (ScaleREST),
// pkg/registry/core/pod/storage/{storage.go (BindingREST), eviction.go}.
import type { PodDisruptionBudget, ResourceDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { ApiError, FieldPath, badRequest, conflict, copyJson, formatLabelSelector, formatTime, goQuote, internalError, invalid, invalidValue, labelSelectorFromObject, notFound, selectorFromSet, successStatus, tooManyRequests } from '../core/index.ts';
import type { LabelSelector } from '../core/index.ts';
import type { ApiServer, ObjectResult } from './server.ts';
import type { WriteContext } from './resource-storage.ts';
import { storedObject } from './stored-object.ts';
import { customResourceInfo, readPath, writePath } from './crd/custom-resource.ts';
import type { CustomResourceSubresourceScale } from './crd/types.ts';

interface ScalableSpec {
  replicas?: number;
  selector?: LabelSelector | Record<string, string>;
}

/**
 * A GET of the scale: a custom resource without the field specReplicasPath names has none (upstream
 * ScaleREST.Get answers 500; the scale's writers set the field).
 */
export function getScale(def: ResourceDefinition, obj: KubeObject): KubeObject {
  const path = customResourceInfo(def)?.scale?.specReplicasPath;
  if (path !== undefined && readPath(obj, path) === undefined) throw internalError(`the spec replicas field ${goQuote(path)} does not exist`);
  return readScale(def, obj);
}

export function readScale(def: ResourceDefinition, obj: KubeObject): KubeObject {
  const meta = obj.metadata;
  const paths = customResourceInfo(def)?.scale;
  if (paths) return customScale(obj, paths);
  const spec = (obj.spec ?? {}) as ScalableSpec;
  const status = (obj.status ?? {}) as { replicas?: number };
  const metadata: KubeObject['metadata'] = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (meta[k] !== undefined) metadata[k] = meta[k];
  }
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: scaleSelector(def, spec.selector) },
  };
}

/** A ReplicationController's selector is a label set (labels.SelectorFromSet); the others' a LabelSelector. */
function scaleSelector(def: ResourceDefinition, selector: LabelSelector | Record<string, string> | undefined): string {
  if (!selector) return '';
  if (def.group === '' && def.resource === 'replicationcontrollers') return selectorFromSet(selector as Record<string, string>).toString();
  return formatLabelSelector(selector as LabelSelector);
}

// Upstream: apiextensions-apiserver/pkg/registry/customresource/etcd.go (scaleFromCustomResource).
function customScale(obj: KubeObject, paths: CustomResourceSubresourceScale): KubeObject {
  const metadata: KubeObject['metadata'] = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (obj.metadata[k] !== undefined) metadata[k] = obj.metadata[k];
  }
  const replicas = readPath(obj, paths.specReplicasPath);
  const current = readPath(obj, paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? readPath(obj, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
    status: { replicas: typeof current === 'number' ? current : 0, ...(typeof selector === 'string' && selector ? { selector } : {}) },
  };
}

export async function writeScale(
  server: ApiServer,
  def: ResourceDefinition,
  namespace: string,
  name: string,
  change: (scale: KubeObject) => KubeObject,
  ctx: WriteContext,
): Promise<ObjectResult> {
  const result = await server.storage.update(def, namespace, name, (_live, mutable) => {
    const current = mutable();
    const paths = customResourceInfo(def)?.scale;
    const scale = change(withUnsetReplicas(readScale(def, current), paths && readPath(current, paths.specReplicasPath) === undefined));
    const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
    if (paths && replicas === unsetReplicas) throw badRequest(`the spec replicas field ${goQuote(paths.specReplicasPath)} cannot be empty`);
    // ValidateScale, before the scaled object's own validation; a custom resource's scale goes unchecked
    // into the object, whose validator refuses a negative count (scale-validation.ts).
    if (!paths && typeof replicas === 'number' && replicas < 0) {
      throw invalid({ group: 'autoscaling', kind: 'Scale' }, name, [invalidValue(FieldPath.root('spec').child('replicas'), replicas, 'must be greater than or equal to 0')]);
    }
    let next: KubeObject;
    if (paths) {
      next = structuredClone(current);
      writePath(next as unknown as Record<string, unknown>, paths.specReplicasPath, typeof replicas === 'number' ? replicas : 0);
    } else {
      next = { ...current, spec: { ...(current.spec as object), replicas: typeof replicas === 'number' ? replicas : 0 } };
    }
    const rv = scale.metadata?.resourceVersion;
    next.metadata = { ...current.metadata, ...(rv ? { resourceVersion: rv } : {}) };
    return next;
  }, { ...ctx, subresource: '', requestSubresource: 'scale' });
  const obj = result.kind === 'stored' ? storedObject(result.kv) : result.object;
  return { kind: 'dry-run', object: readScale(def, obj) };
}

// scaleUpdatedObjectInfo's invalidSpecReplicas: a custom resource's scale read without the field carries
// it, so a write that does not set replicas is refused rather than storing it.
const unsetReplicas = -2147483648;

function withUnsetReplicas(scale: KubeObject, unset: boolean | undefined): KubeObject {
  return unset ? { ...scale, spec: { ...(scale.spec as object), replicas: unsetReplicas } } : scale;
}

interface PodLike extends KubeObject {
  spec?: { nodeName?: string; schedulingGates?: readonly unknown[] };
  status?: { nominatedNodeName?: string; conditions?: { type: string; status: string; lastProbeTime?: null; lastTransitionTime?: string }[] };
}

/**
 * The create handler's EnsureObjectNamespaceMatchesRequestNamespace for a subresource's object: a body
 * without a namespace takes the request's (its admission sees it there), one that differs was refused.
 */
function inRequestNamespace(obj: KubeObject, namespace: string): KubeObject {
  obj.metadata ??= {};
  if (namespace && !obj.metadata.namespace) obj.metadata.namespace = namespace;
  return obj;
}

/**
 * BindingREST.Create behind the create handler: the Binding is admitted as a CREATE of pods/binding
 * (or of the legacy `bindings`, which `admitAs` names), mutating admission first, validating after the
 * Binding's own checks; the pod's write is BindingREST's, which no admission sees.
 */
export async function bindPod(server: ApiServer, def: ResourceDefinition, namespace: string, name: string, binding: KubeObject, ctx: WriteContext, admitAs: ResourceDefinition = def): Promise<ObjectResult> {
  if (def.resource !== 'pods' || def.group !== '') throw notFound({ group: def.group, resource: `${def.resource}/binding` }, name);
  await server.storage.admitCreate('mutate', admitAs, name, inRequestNamespace(binding, namespace), ctx);
  if (binding.metadata?.name !== name) throw badRequest('name in URL does not match name in Binding object');
  const target = (binding as { target?: { name?: string; kind?: string } }).target;
  const nodeName = target?.name ?? '';
  if (!nodeName) {
    throw new ApiError('Invalid', `Binding.meta.k8s.io "${name}" is invalid: target.name: Required value`, { name, kind: 'Binding', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'target.name' }] });
  }
  await server.storage.admitCreate('validate', admitAs, name, binding, ctx);
  // PodTopologyLabelsAdmission: the Binding's labels (what the plugin copied from the node) go onto the pod.
  const labels = server.storage.featureGates.PodTopologyLabelsAdmission ? binding.metadata.labels : undefined;
  const now = formatTime(server.clock.now());
  await server.storage.update(def, namespace, name, (stored) => {
    const live = stored as Readonly<PodLike>;
    if (live.metadata.deletionTimestamp) throw conflict({ group: '', resource: 'pods/binding' }, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (live.spec?.nodeName) throw conflict({ group: '', resource: 'pods/binding' }, name, `pod ${name} is already assigned to node "${live.spec.nodeName}"`);
    if (live.spec?.schedulingGates?.length) throw conflict({ group: '', resource: 'pods/binding' }, name, `pod ${name} has non-empty .spec.schedulingGates`);
    // Built over the live object rather than a decoded copy: the parts a bind leaves alone stay the
    // live object's own, so the field manager's compare and the encoder skip them (a full copy made
    // them walk and write the whole pod again). The write path sets fields only on the new object
    // and its new metadata.
    const metadata = { ...live.metadata };
    const annotations = binding.metadata?.annotations;
    if (annotations) metadata.annotations = { ...live.metadata.annotations, ...annotations };
    if (labels && Object.keys(labels).length > 0) metadata.labels = { ...live.metadata.labels, ...labels };
    const conditions = (live.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    const previous = live.status?.conditions?.find((c) => c.type === 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: previous?.status === 'True' ? (previous.lastTransitionTime ?? now) : now });
    const status: NonNullable<PodLike['status']> = { ...live.status, conditions };
    // ClearingNominatedNodeNameAfterBinding (beta, on in 1.35): a bound pod's nomination is stale. Deleted
    // only when there is one: a rest pattern on every bind costs more than the spread.
    if (status.nominatedNodeName !== undefined) delete status.nominatedNodeName;
    const pod: PodLike = { ...live, metadata, spec: { ...live.spec, nodeName }, status };
    return pod;
  }, { ...ctx, subresource: 'binding', unadmitted: true });
  return { kind: 'dry-run', object: { ...successStatus(), code: 201 } as unknown as KubeObject };
}

/**
 * addConditionAndDeletePod's first half: the pod, as stored and checked against the eviction's
 * preconditions, gets the DisruptionTarget condition through the status store before it is deleted.
 */
async function markEvicted(server: ApiServer, def: ResourceDefinition, namespace: string, name: string, preconditions: { uid?: string; resourceVersion?: string }, ctx: WriteContext): Promise<void> {
  await server.storage.update(def, namespace, name, (_live, mutable) => {
    const pod = mutable() as PodLike;
    const uid = pod.metadata.uid ?? '';
    const rv = pod.metadata.resourceVersion ?? '';
    if (preconditions.uid && preconditions.uid !== uid) throw conflict({ group: '', resource: 'Pod' }, name, `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
    if (preconditions.resourceVersion && preconditions.resourceVersion !== rv) throw conflict({ group: '', resource: 'Pod' }, name, `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`);
    const now = formatTime(server.clock.now());
    const conditions = pod.status?.conditions ?? [];
    const previous = conditions.find((c) => c.type === 'DisruptionTarget');
    const condition = {
      type: 'DisruptionTarget',
      // PodObservedGenerationTracking: the generation the condition was written against.
      ...(pod.metadata.generation !== undefined ? { observedGeneration: pod.metadata.generation } : {}),
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: previous?.status === 'True' ? (previous.lastTransitionTime ?? now) : now,
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    };
    pod.status = { ...pod.status, conditions: previous ? conditions.map((c) => (c === previous ? condition : c)) : [...conditions, condition] };
    return pod;
  }, { ...ctx, subresource: 'status' });
}

const budgetViolation = (message: string): ApiError => tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", [{ reason: 'DisruptionBudget', message }]);

/** createTooManyRequestsError: a budget not yet processed at its generation; worth a retry in 10 s. */
const budgetUnprocessed = (name: string): ApiError =>
  new ApiError('TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", { causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }], retryAfterSeconds: 10 });

/** An eviction's pod is unhealthy (not Ready) and its budget lets such pods go without a count. */
function evictsWithoutCount(pdb: PodDisruptionBudget, pod: KubeObject): boolean {
  const ready = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  if (ready) return false;
  if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const desired = pdb.status?.desiredHealthy ?? 0;
  return desired > 0 && (pdb.status?.currentHealthy ?? 0) >= desired;
}

/**
 * checkAndDecrement, on the budget as stored when the write lands: it must have been processed at
 * its generation and allow a disruption; it is spent at once (disruptionsAllowed - 1, the pod
 * recorded in disruptedPods until the disruption controller sees it go), so parallel evictions
 * (kubectl drain) cannot overrun it.
 */
async function spendDisruption(server: ApiServer, pdbDef: ResourceDefinition, namespace: string, name: string, podName: string, ctx: WriteContext): Promise<void> {
  const now = formatTime(server.clock.now());
  await server.storage.update(pdbDef, namespace, name, (current) => {
    const pdb = copyJson(current) as PodDisruptionBudget;
    // Created with all four counts (prepareForCreate), so a stored budget always has a status.
    const status = (pdb.status ??= { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetUnprocessed(name);
    if ((status.disruptionsAllowed ?? 0) <= 0) throw budgetViolation(`The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
    status.disruptionsAllowed = (status.disruptionsAllowed ?? 0) - 1;
    status.disruptedPods = { ...status.disruptedPods, [podName]: now };
    if (status.disruptionsAllowed === 0) {
      const previous = status.conditions?.find((c) => c.type === 'DisruptionAllowed');
      const conditions = (status.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed');
      conditions.push({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: pdb.metadata.generation ?? 0, lastTransitionTime: previous?.status === 'False' && previous.lastTransitionTime ? previous.lastTransitionTime : now });
      status.conditions = conditions;
    }
    return pdb;
  }, { dryRun: ctx.dryRun, fieldManager: '', subresource: 'status' });
}

export async function evictPod(server: ApiServer, def: ResourceDefinition, namespace: string, name: string, eviction: KubeObject, ctx: WriteContext): Promise<ObjectResult> {
  if (def.resource !== 'pods' || def.group !== '') throw notFound({ group: def.group, resource: `${def.resource}/eviction` }, name);
  await server.storage.admitCreate('mutate', def, name, inRequestNamespace(eviction, namespace), ctx);
  if (eviction.metadata?.name !== name) throw badRequest('name in URL does not match name in Eviction object');
  await server.storage.admitCreate('validate', def, name, eviction, ctx);
  const podKv = await server.storage.get(def, namespace, name);
  const pod = storedObject(podKv);
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  const terminal = phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
  const pdbDef = server.index.find('policy', 'v1', 'poddisruptionbudgets');
  if (pdbDef && !terminal && !pod.metadata.deletionTimestamp) {
    const page = await server.list({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' }, namespace, {});
    // policy/v1: no selector selects nothing, an empty one every pod.
    const matching = page.page.items.filter((kv) => {
      const pdb = storedObject(kv) as PodDisruptionBudget;
      if (!pdb.spec?.selector) return false;
      const selector = labelSelectorFromObject(pdb.spec.selector);
      return !('error' in selector) && selector.matches(pod.metadata.labels);
    });
    if (matching.length > 1) throw new ApiError('InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', undefined);
    const only = matching[0];
    const budget = only ? (storedObject(only) as PodDisruptionBudget) : undefined;
    if (budget && !evictsWithoutCount(budget, pod)) await spendDisruption(server, pdbDef, namespace, budget.metadata.name ?? '', pod.metadata.name ?? '', ctx);
  }
  const options = ((eviction as { deleteOptions?: { gracePeriodSeconds?: number; preconditions?: { uid?: string; resourceVersion?: string } } }).deleteOptions) ?? {};
  // The pod's condition and deletion are EvictionREST's own writes (ValidateAllObjectFunc): no admission.
  const own = { ...ctx, unadmitted: true };
  if (!ctx.dryRun) await markEvicted(server, def, namespace, name, options.preconditions ?? {}, own);
  await server.storage.delete(def, namespace, name, {
    gracePeriodSeconds: options.gracePeriodSeconds,
    preconditions: options.preconditions,
    dryRun: ctx.dryRun,
  }, own);
  return { kind: 'dry-run', object: { ...successStatus(), code: 201 } as unknown as KubeObject };
}
