// syncStatefulSet: one level-triggered pass for one StatefulSet key: its revisions, pods created in
// ordinal order (each waiting for its predecessors to be Running and Available under OrderedReady,
// all at once under Parallel) with their claims, surplus ordinals removed from the highest down,
// then the rolling update from the highest ordinal to the partition within maxUnavailable.
// Upstream: pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet, processReplica,
// processCondemned, updateStatefulSetAfterInvariantEstablished, completeRollingUpdate),
// stateful_pod_control.go (CreateStatefulPod, DeleteStatefulPod, events), stateful_set_utils.go.
import { refs, scaledValue } from '../../api/index.ts';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet, StatefulSetStatus } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { copyJson, isApiError, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import { claimPods } from '../owned-pods.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { isPodAvailable, isPodReady } from '../pod-state.ts';
import { statefulSetRevisions, truncateHistory } from './history.ts';
import { patchedTemplate } from '../template-revision.ts';
import type { Revisions } from './history.ts';
import { claimsFor, newStatefulSetPod, ordinalOf, podRevision, startOrdinal } from './identity.ts';
import { claimOwnersFor, hasStaleClaim } from './retention.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySet = DeepReadonly<StatefulSet>;

export const byController = 'controller';

export interface StatefulSetSyncContext {
  client: Client;
  clock: Clock;
  pods: Informer<Pod>;
  sets: Informer<StatefulSet>;
  revisions: Informer<ControllerRevision>;
  claims: Informer<PersistentVolumeClaim>;
  recorder: EventRecorder;
  requeueAfter(key: string, ms: number): void;
  log(line: string): void;
}

const isTerminating = (p: ReadonlyPod): boolean => !!p.metadata.deletionTimestamp;
const isRunningAndReady = (p: ReadonlyPod): boolean => p.status?.phase === 'Running' && isPodReady(p);
const isCreated = (p: ReadonlyPod): boolean => !!p.status?.phase;

export async function syncStatefulSet(ctx: StatefulSetSyncContext, key: string): Promise<void> {
  const set = ctx.sets.get(key);
  if (!set) return;
  const selector = labelSelectorFromObject(set.spec.selector);
  if ('error' in selector) {
    ctx.log(`statefulset ${key}: invalid selector: ${selector.error}`);
    return;
  }
  // getPodsForStatefulSet: only pods named after the set are adopted.
  const pods = await claimPods({ client: ctx.client, pods: ctx.pods, owner: set as DeepReadonly<KubeObject>, kind: 'StatefulSet', ownerRef: refs.statefulSets, selector, candidate: (p) => ordinalOf(set, p) !== undefined });
  const revisions = await statefulSetRevisions(ctx.client, set, ctx.revisions.byIndex(byController, set.metadata.uid ?? ''));
  let failure: unknown;
  try {
    await updatePods(ctx, set, pods, revisions);
  } catch (error) {
    failure = error;
  }
  await storeStatus(ctx, set, computeStatus(set, pods, revisions, ctx.clock.now()));
  await truncateHistory(ctx.client, set, revisions, pods.map(podRevision));
  const minReady = set.spec.minReadySeconds ?? 0;
  if (minReady > 0 && pods.some((p) => isRunningAndReady(p) && !isPodAvailable(p, minReady, ctx.clock.now()))) ctx.requeueAfter(key, minReady * 1000);
  if (failure !== undefined) throw failure;
}

/** The template of the revision an ordinal's new pod is made from (newVersionedStatefulSetPod). */
function newPodFor(set: ReadonlySet, revisions: Revisions, ordinal: number): Pod {
  const rolling = set.spec.updateStrategy?.type === 'RollingUpdate';
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition;
  const useCurrent = rolling && (partition === undefined ? ordinal < startOrdinal(set) + (set.status?.currentReplicas ?? 0) : ordinal < startOrdinal(set) + partition);
  const revision = useCurrent ? revisions.current : revisions.update;
  return newStatefulSetPod(set, patchedTemplate(revision.data), ordinal, revision.metadata.name ?? '');
}

async function updatePods(ctx: StatefulSetSyncContext, set: ReadonlySet, pods: readonly ReadonlyPod[], revisions: Revisions): Promise<void> {
  const start = startOrdinal(set);
  const count = set.spec.replicas ?? 1;
  const placed: [number, ReadonlyPod][] = [];
  const condemned: ReadonlyPod[] = [];
  let highest = -1;
  for (const pod of pods) {
    const ordinal = ordinalOf(set, pod) ?? -1;
    if (ordinal < start || ordinal >= start + count) {
      condemned.push(pod);
      continue;
    }
    placed.push([ordinal - start, pod]);
    highest = Math.max(highest, ordinal - start);
  }
  const replicas: (ReadonlyPod | undefined)[] = new Array<ReadonlyPod | undefined>(Math.min(count, highest + 1 + replicaWindow)).fill(undefined);
  for (const [index, pod] of placed) replicas[index] = pod;
  condemned.sort((a, b) => (ordinalOf(set, b) ?? 0) - (ordinalOf(set, a) ?? 0));
  const monotonic = set.spec.podManagementPolicy !== 'Parallel';
  const minReady = set.spec.minReadySeconds ?? 0;
  const now = ctx.clock.now();
  const available = (p: ReadonlyPod): boolean => isRunningAndReady(p) && isPodAvailable(p, minReady, now);

  const work = replicas.map((pod, i) => async (): Promise<boolean> => {
    if (pod && (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded')) {
      // Recreated on a later sync, once the old one is gone.
      if (!isTerminating(pod)) await deletePod(ctx, set, pod);
      return true;
    }
    if (!pod) {
      const next = newPodFor(set, revisions, start + i);
      if (hasStaleClaim(set, next, claimsOf(ctx, set, start + i))) {
        // No event of ours follows the garbage collector's delete of that claim: look again.
        ctx.requeueAfter(keyOf(set), staleClaimRecheckMs);
        return true;
      }
      await createPod(ctx, set, next);
      return monotonic;
    }
    if (monotonic && (isTerminating(pod) || !available(pod))) return true;
    await updateClaimOwners(ctx, set, pod);
    return false;
  });
  if (monotonic) {
    for (const step of work) if (await step()) return;
  } else {
    const results = await Promise.allSettled(work.map((step) => step()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  if (set.metadata.deletionTimestamp) return;

  for (const pod of condemned) await updateClaimOwners(ctx, set, pod);
  const firstUnhealthy = [...replicas, ...condemned].find((p) => p && (!available(p) || isTerminating(p)));
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return;
      continue;
    }
    if (monotonic && !available(pod) && pod !== firstUnhealthy) return;
    await condemn(ctx, set, pod);
    if (monotonic) return;
  }
  if (set.spec.updateStrategy?.type !== 'RollingUpdate') return;
  await rollingUpdate(ctx, set, replicas, count, revisions, available);
}

/**
 * Ordinals a sync tracks past the highest pod there is: its creations at most, as a ReplicaSet's burst.
 * Upstream makes a slice of `replicas` entries; at 2,147,483,647 that is 16 GB, which takes
 * kube-controller-manager down but here would take the whole cluster with it. Past the pods there are,
 * every ordinal is a pod still to create, so the window only spreads those creations over syncs.
 */
const replicaWindow = 500;

const staleClaimRecheckMs = 1_000;

/** getStatefulSetMaxUnavailable: a count or a percentage of the replicas, rounded up, at least 1. */
function maxUnavailableOf(set: ReadonlySet, count: number): number {
  return Math.max(1, scaledValue(set.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, count, true));
}

/** The rolling update: delete out-of-date pods from the highest ordinal down to the partition. */
async function rollingUpdate(ctx: StatefulSetSyncContext, set: ReadonlySet, replicas: readonly (ReadonlyPod | undefined)[], count: number, revisions: Revisions, available: (p: ReadonlyPod) => boolean): Promise<void> {
  const maxUnavailable = maxUnavailableOf(set, count);
  const unavailable = replicas.filter((p) => !p || !available(p) || isTerminating(p)).length;
  let budget = maxUnavailable - unavailable;
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  for (let i = replicas.length - 1; i >= partition && budget > 0; i--) {
    const pod = replicas[i];
    if (!pod || isTerminating(pod) || podRevision(pod) === revisions.update.metadata.name) continue;
    await deletePod(ctx, set, pod);
    budget--;
  }
}

async function createPod(ctx: StatefulSetSyncContext, set: ReadonlySet, pod: Pod): Promise<void> {
  const ordinal = ordinalOf(set, pod) ?? 0;
  const setName = set.metadata.name ?? '';
  for (const claim of claimsFor(set, ordinal)) {
    if (ctx.claims.getByName(claim.metadata.namespace, claim.metadata.name ?? '')) continue;
    if (set.spec.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete') claim.metadata.ownerReferences = [newControllerRef(set, 'apps/v1', 'StatefulSet')];
    try {
      await ctx.client.create(refs.persistentVolumeClaims, claim, { namespace: claim.metadata.namespace ?? '' });
      ctx.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim.metadata.name ?? ''} Pod ${pod.metadata.name ?? ''} in StatefulSet ${setName} success`);
    } catch (error) {
      if (isApiError(error) && error.reason === 'AlreadyExists') continue;
      ctx.recorder.event(set, 'Warning', 'FailedCreate', `create Claim ${claim.metadata.name ?? ''} for Pod ${pod.metadata.name ?? ''} in StatefulSet ${setName} failed error: ${errorText(error)}`);
      throw error;
    }
  }
  try {
    await ctx.client.create(refs.pods, pod, { namespace: pod.metadata.namespace ?? '' });
    ctx.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata.name ?? ''} in StatefulSet ${setName} successful`);
  } catch (error) {
    if (isApiError(error) && error.reason === 'AlreadyExists') return;
    ctx.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${pod.metadata.name ?? ''} in StatefulSet ${setName} failed error: ${errorText(error)}`);
    throw error;
  }
}

/** A surplus ordinal goes; its claims already carry the owners that decide whether they go with it. */
async function condemn(ctx: StatefulSetSyncContext, set: ReadonlySet, pod: ReadonlyPod): Promise<void> {
  await deletePod(ctx, set, pod);
}

const claimsOf = (ctx: StatefulSetSyncContext, set: ReadonlySet, ordinal: number): (DeepReadonly<PersistentVolumeClaim> | undefined)[] =>
  claimsFor(set, ordinal).map((c) => ctx.claims.getByName(c.metadata.namespace, c.metadata.name ?? ''));

/** UpdatePodClaimForRetentionPolicy: each claim of the pod gets the owners its retention policy asks for. */
async function updateClaimOwners(ctx: StatefulSetSyncContext, set: ReadonlySet, pod: ReadonlyPod): Promise<void> {
  for (const claim of claimsOf(ctx, set, ordinalOf(set, pod) ?? -1)) {
    const owners = claim && claimOwnersFor(claim, set, pod);
    if (!claim || !owners) continue;
    try {
      await ctx.client.update(refs.persistentVolumeClaims, { ...(copyJson(claim) as PersistentVolumeClaim), metadata: { ...(copyJson(claim.metadata) as PersistentVolumeClaim['metadata']), ownerReferences: owners } });
    } catch (error) {
      // A claim changed or gone since the informer saw it is looked at again on the next sync.
      if (!(isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound'))) throw error;
    }
  }
}

async function deletePod(ctx: StatefulSetSyncContext, set: ReadonlySet, pod: ReadonlyPod): Promise<void> {
  try {
    await ctx.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {});
    ctx.recorder.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''} successful`);
  } catch (error) {
    if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Conflict')) return;
    ctx.recorder.event(set, 'Warning', 'FailedDelete', `delete Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''} failed error: ${errorText(error)}`);
    throw error;
  }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** computeReplicaStatus plus the revisions, and completeRollingUpdate once every pod runs the update. */
export function computeStatus(set: ReadonlySet, pods: readonly ReadonlyPod[], revisions: Revisions, now: number): StatefulSetStatus {
  const minReady = set.spec.minReadySeconds ?? 0;
  const current = revisions.current.metadata.name ?? '';
  const update = revisions.update.metadata.name ?? '';
  const status: StatefulSetStatus = { replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0, availableReplicas: 0, currentRevision: current, updateRevision: update };
  const count = (k: 'replicas' | 'readyReplicas' | 'currentReplicas' | 'updatedReplicas' | 'availableReplicas'): void => {
    status[k] = (status[k] ?? 0) + 1;
  };
  for (const pod of pods) {
    if (isCreated(pod)) count('replicas');
    if (isRunningAndReady(pod)) {
      count('readyReplicas');
      if (isPodAvailable(pod, minReady, now)) count('availableReplicas');
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      if (podRevision(pod) === current) count('currentReplicas');
      if (podRevision(pod) === update) count('updatedReplicas');
    }
  }
  if (set.spec.updateStrategy?.type === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentReplicas = status.updatedReplicas ?? 0;
    status.currentRevision = update;
  }
  return status;
}

/** Written only when it changed (inconsistentStatus); zero counts that are omitempty are left out. */
async function storeStatus(ctx: StatefulSetSyncContext, set: ReadonlySet, computed: StatefulSetStatus): Promise<void> {
  const write = async (base: ReadonlySet): Promise<void> => {
    const status: StatefulSetStatus = { ...(copyJson(base.status ?? { replicas: 0, availableReplicas: 0 }) as StatefulSetStatus), ...computed, observedGeneration: base.metadata.generation ?? 0 };
    for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) if (!status[k]) delete status[k];
    // Upstream's status always carries the count it hashed revisions with (updateStatefulSet).
    status.collisionCount = base.status?.collisionCount ?? 0;
    const cur = base.status ?? { replicas: 0, availableReplicas: 0 };
    const fields = ['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'currentRevision', 'updateRevision'] as const;
    if (fields.every((f) => (cur[f] ?? 0) === (status[f] ?? 0)) && cur.collisionCount !== undefined) return;
    await ctx.client.updateStatus<StatefulSet>(refs.statefulSets, { ...(base as StatefulSet), status });
  };
  try {
    await write(set);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    if (!(isApiError(error) && error.reason === 'Conflict')) throw error;
    await write(await ctx.client.get<StatefulSet>(refs.statefulSets, set.metadata.namespace, set.metadata.name ?? ''));
  }
}
