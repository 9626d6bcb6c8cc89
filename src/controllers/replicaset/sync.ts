// syncReplicaSet: one level-triggered pass for one ReplicaSet key: claim pods, create or
// delete the difference (guarded by expectations), then write status.
// Upstream: pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas, slowStartBatch),
// pkg/controller/controller_utils.go (GetPodFromTemplate, RealPodControl).
import { refs } from '../../api/index.ts';
import type { Pod, ReplicaSet } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { copyJson, isApiError, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { claimObjects, getControllerOf, isControlledBy, newControllerRef, recheckDeletionTimestamp } from '../controller-ref.ts';
import type { EventRecorder } from '../event-recorder.ts';
import type { Expectations } from '../expectations.ts';
import { isPodActive, isPodTerminating } from '../pod-state.ts';
import { podsToDelete } from './pod-ranking.ts';
import { slowStartBatch, slowStartInitialBatchSize } from '../slow-start.ts';
import { calculateReplicaSetStatus, isReplicaSetStatusChanged, nextAvailableIn } from './replica-status.ts';
import type { ReplicatedKind } from './replicated-kind.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyRS = DeepReadonly<ReplicaSet>;

/** At most this many creations or deletions per sync (upstream BurstReplicas). */
export const burstReplicas = 500;

/** The cached objects of the kind, seen as ReplicaSets. */
export interface ReplicaSetLister {
  get(key: string): ReplicaSet | undefined;
  list(): readonly ReplicaSet[];
}

export interface ReplicaSetSyncContext {
  client: Client;
  clock: Clock;
  pods: Informer<Pod>;
  kind: ReplicatedKind;
  replicaSets: ReplicaSetLister;
  expectations: Expectations;
  recorder: EventRecorder;
  requeueAfter(key: string, ms: number): void;
  log(line: string): void;
}

export const podsByNamespace = 'namespace';
export const podsByController = 'controller';
/** Pods without a controller, by namespace: the only ones a ReplicaSet may adopt. */
export const orphansByNamespace = 'orphans';

export async function syncReplicaSet(ctx: ReplicaSetSyncContext, key: string): Promise<void> {
  const rs = ctx.replicaSets.get(key);
  if (!rs) {
    ctx.expectations.delete(key);
    return;
  }
  const needsSync = ctx.expectations.isSatisfied(key);
  const selector = labelSelectorFromObject(rs.spec.selector);
  if ('error' in selector) {
    ctx.log(`replicaset ${key}: invalid selector: ${selector.error}`);
    return;
  }
  // Upstream lists the namespace; only our own pods and orphans can be claimed, so look at those.
  const namespacePods = [...ctx.pods.byIndex(podsByController, rs.metadata.uid ?? ''), ...ctx.pods.byIndex(orphansByNamespace, rs.metadata.namespace ?? '')];
  const active = await claimObjects<ReadonlyPod>({
    client: ctx.client,
    ref: refs.pods,
    owner: rs as DeepReadonly<KubeObject>,
    controllerRef: newControllerRef(rs, ctx.kind.apiVersion, ctx.kind.kind),
    selector,
    candidates: namespacePods.filter(isPodActive),
    canAdopt: recheckDeletionTimestamp(ctx.client, ctx.kind.ref, rs as DeepReadonly<KubeObject>),
  });
  const terminating = namespacePods.filter((p) => isPodTerminating(p) && isControlledBy(p, rs) && selector.matches(p.metadata.labels));

  let manageError: Error | undefined;
  if (needsSync && !rs.metadata.deletionTimestamp) {
    try {
      await manageReplicas(ctx, key, active, rs);
    } catch (error) {
      manageError = error instanceof Error ? error : new Error(String(error));
    }
  }
  const now = ctx.clock.now();
  const status = ctx.kind.storedStatus(calculateReplicaSetStatus(rs, active, terminating, manageError, now));
  await updateReplicaSetStatus(ctx, rs, status);
  const wait = nextAvailableIn(active, rs.spec.minReadySeconds ?? 0, now);
  if (!manageError && wait !== undefined) ctx.requeueAfter(key, wait);
  if (manageError) throw manageError;
}

async function manageReplicas(ctx: ReplicaSetSyncContext, key: string, active: readonly ReadonlyPod[], rs: ReadonlyRS): Promise<void> {
  const diff = active.length - (rs.spec.replicas ?? 1);
  if (diff < 0) {
    const count = Math.min(-diff, burstReplicas);
    ctx.expectations.expectCreations(key, count);
    const { successes, error } = await slowStartBatch(count, slowStartInitialBatchSize, () => createPod(ctx, rs));
    for (let i = successes; i < count; i++) ctx.expectations.creationObserved(key);
    if (error) throw error;
    return;
  }
  if (diff > 0) {
    const count = Math.min(diff, burstReplicas);
    const victims = podsToDelete(active, relatedPods(ctx, rs), count, ctx.clock.now());
    ctx.expectations.expectDeletions(key, victims.map((p) => keyOf(p)));
    const results = await Promise.allSettled(victims.map((pod) => deletePod(ctx, rs, pod)));
    let first: unknown;
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') return;
      const pod = victims[i];
      if (pod) ctx.expectations.deletionObserved(key, keyOf(pod));
      first ??= r.reason;
    });
    if (first !== undefined) throw first;
  }
}

/** Pods of every ReplicaSet that shares this one's controller (for the same-node rank). */
function relatedPods(ctx: ReplicaSetSyncContext, rs: ReadonlyRS): ReadonlyPod[] {
  const owner = getControllerOf(rs);
  if (!owner) return ctx.pods.byIndex(podsByController, rs.metadata.uid ?? '');
  const siblings = ctx.replicaSets.list().filter((other) => other.metadata.namespace === rs.metadata.namespace && getControllerOf(other)?.uid === owner.uid);
  return siblings.flatMap((s) => ctx.pods.byIndex(podsByController, s.metadata.uid ?? ''));
}

/** GetPodFromTemplate: labels, annotations and finalizers from the template, `<rs>-` as generateName. */
export function podFromTemplate(rs: ReadonlyRS, kind: Pick<ReplicatedKind, 'apiVersion' | 'kind'>): Pod {
  const template = copyJson(rs.spec.template) as NonNullable<ReplicaSet['spec']['template']>;
  const meta = template.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: `${rs.metadata.name ?? ''}-`, namespace: rs.metadata.namespace ?? '', ownerReferences: [newControllerRef(rs, kind.apiVersion, kind.kind)] },
    spec: template.spec,
  };
  if (meta.labels) pod.metadata.labels = meta.labels;
  if (meta.annotations) pod.metadata.annotations = meta.annotations;
  if (meta.finalizers) pod.metadata.finalizers = meta.finalizers;
  return pod;
}

async function createPod(ctx: ReplicaSetSyncContext, rs: ReadonlyRS): Promise<void> {
  try {
    const created = await ctx.client.create<Pod>(refs.pods, podFromTemplate(rs, ctx.kind), { namespace: rs.metadata.namespace ?? '' });
    ctx.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name ?? ''}`);
  } catch (error) {
    // A terminating namespace refuses every create; that is not a failure of this ReplicaSet.
    if (isApiError(error) && error.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return;
    ctx.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

async function deletePod(ctx: ReplicaSetSyncContext, rs: ReadonlyRS, pod: ReadonlyPod): Promise<void> {
  try {
    await ctx.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '');
    ctx.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    ctx.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

async function updateReplicaSetStatus(ctx: ReplicaSetSyncContext, rs: ReadonlyRS, status: ReplicaSet['status'] & object): Promise<void> {
  if (!isReplicaSetStatusChanged(rs, status)) return;
  const write = (base: ReadonlyRS): Promise<KubeObject> =>
    ctx.client.updateStatus(ctx.kind.ref, ctx.kind.withStatus(base, { ...status, observedGeneration: base.metadata.generation ?? 0 }));
  try {
    await write(rs);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    if (!(isApiError(error) && error.reason === 'Conflict')) throw error;
    // One retry on a fresh copy, as upstream's statusUpdateRetries.
    const fresh = await ctx.client.get(ctx.kind.ref, rs.metadata.namespace, rs.metadata.name ?? '');
    await write(ctx.kind.view(fresh));
  }
}
