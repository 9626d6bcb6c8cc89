// A ReplicaSet's status from its pods: counts, the ReplicaFailure condition, and when the
// next pod turns available (minReadySeconds on the injected clock).
// Upstream: pkg/controller/replicaset/replica_set_utils.go (calculateStatus, updateReplicaSetStatus).
import type { Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime, jsonEqual, selectorFromSet } from '../../core/index.ts';
import { isPodAvailable, isPodReady, podReadySince } from '../pod-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;

export const ReplicaFailure = 'ReplicaFailure';

export function calculateReplicaSetStatus(
  rs: DeepReadonly<ReplicaSet>,
  activePods: readonly ReadonlyPod[],
  terminatingPods: readonly ReadonlyPod[],
  manageError: Error | undefined,
  now: number,
): ReplicaSetStatus {
  const templateLabels = selectorFromSet(rs.spec.template?.metadata?.labels);
  const minReady = rs.spec.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    if (templateLabels.matches(pod.metadata.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
  }
  let conditions = (rs.status?.conditions ?? []).map((c) => ({ ...c }) as ReplicaSetCondition);
  const failure = conditions.find((c) => c.type === ReplicaFailure);
  if (manageError && !failure) {
    const diff = activePods.length - (rs.spec.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions.push({ type: ReplicaFailure, status: 'True', lastTransitionTime: formatTime(now), reason, message: manageError.message });
  } else if (!manageError && failure) {
    conditions = conditions.filter((c) => c.type !== ReplicaFailure);
  }
  // Zero counts are omitted on the wire (Go omitempty) but for replicas, so compare and store them that way.
  const status: ReplicaSetStatus = { replicas: activePods.length };
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
  if (ready) status.readyReplicas = ready;
  if (available) status.availableReplicas = available;
  status.terminatingReplicas = terminatingPods.length;
  if (conditions.length) status.conditions = conditions;
  return status;
}

/** Whether writing `next` (with observedGeneration) would change the stored status. */
export function isReplicaSetStatusChanged(rs: DeepReadonly<ReplicaSet>, next: ReplicaSetStatus): boolean {
  const cur = rs.status ?? {};
  const n = (v: number | undefined): number => v ?? 0;
  return (
    n(cur.replicas) !== n(next.replicas) ||
    n(cur.fullyLabeledReplicas) !== n(next.fullyLabeledReplicas) ||
    n(cur.readyReplicas) !== n(next.readyReplicas) ||
    n(cur.availableReplicas) !== n(next.availableReplicas) ||
    cur.terminatingReplicas !== next.terminatingReplicas ||
    n(cur.observedGeneration) !== n(rs.metadata.generation) ||
    !jsonEqual(cur.conditions ?? [], next.conditions ?? [])
  );
}

/** Milliseconds until the next ready-but-not-yet-available pod becomes available, if any. */
export function nextAvailableIn(pods: readonly ReadonlyPod[], minReadySeconds: number, now: number): number | undefined {
  if (minReadySeconds <= 0) return undefined;
  let soonest: number | undefined;
  for (const pod of pods) {
    const since = podReadySince(pod);
    if (since === undefined) continue;
    const at = since + minReadySeconds * 1000;
    if (at > now && (soonest === undefined || at - now < soonest)) soonest = at - now;
  }
  return soonest;
}
