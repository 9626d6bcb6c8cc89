// Pod predicates the workload controllers share: active, terminating, ready, available.
// Upstream: pkg/api/v1/pod/util.go (IsPodReady, IsPodAvailable), pkg/controller/controller_utils.go
// (IsPodActive, IsPodTerminating).
import type { Pod } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Not finished and not being deleted: the pods a ReplicaSet counts. */
export function isPodActive(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** Being deleted but not yet finished (status.terminatingReplicas). */
export function isPodTerminating(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !!pod.metadata.deletionTimestamp;
}

function readyCondition(pod: ReadonlyPod): DeepReadonly<NonNullable<NonNullable<Pod['status']>['conditions']>[number]> | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

export function isPodReady(pod: ReadonlyPod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** When the Ready condition last turned True, in ms; undefined when not ready or unknown. */
export function podReadySince(pod: ReadonlyPod): number | undefined {
  const c = readyCondition(pod);
  if (c?.status !== 'True' || !c.lastTransitionTime) return undefined;
  return Date.parse(c.lastTransitionTime);
}

/** Ready for at least minReadySeconds at `now`. */
export function isPodAvailable(pod: ReadonlyPod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podReadySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}
