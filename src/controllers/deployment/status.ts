// Deployment status from its ReplicaSets, and the Available / Progressing conditions with
// upstream reasons and messages, including the progress deadline on the injected clock.
// Upstream: pkg/controller/deployment/sync.go (calculateStatus), progress.go (syncRolloutStatus,
// requeueStuckDeployment), util/deployment_util.go (SetDeploymentCondition, DeploymentComplete,
// DeploymentProgressing, DeploymentTimedOut).
import type { DeploymentCondition, DeploymentStatus } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime, jsonEqual } from '../../core/index.ts';
import type { DeploymentView, RS } from './rollout.ts';
import { deploymentReplicas, maxUnavailable, sumReplicas, sumStatus } from './rollout.ts';

export const Reason = {
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  FailedRSCreate: 'ReplicaSetCreateError',
  NewReplicaSet: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  PausedDeploy: 'DeploymentPaused',
  ResumedDeploy: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

const maxInt32 = 2147483647;

export function hasProgressDeadline(d: DeploymentView): boolean {
  return d.spec.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== maxInt32;
}

export function newCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, now: number): DeploymentCondition {
  const t = formatTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(status: DeepReadonly<DeploymentStatus> | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type) as DeploymentCondition | undefined;
}

/** SetDeploymentCondition: no-op for the same status and reason; keeps lastTransitionTime when the status holds. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status && current.lastTransitionTime) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  if (rest.length) status.conditions = rest;
  else delete status.conditions;
}

/**
 * GetTerminatingReplicaCountForReplicaSets (DeploymentReplicaSetTerminatingReplicas, beta in 1.35): the sum
 * over the ReplicaSets, where one the controller has not synced yet counts for nothing, and one it synced
 * without reporting the field leaves the sum unknown.
 */
export function terminatingReplicas(allRSs: readonly RS[]): number | undefined {
  let sum = 0;
  for (const rs of allRSs) {
    const reported = rs.status?.terminatingReplicas;
    if (reported === undefined && !rs.status?.observedGeneration) continue;
    if (reported === undefined) return undefined;
    sum += reported;
  }
  return sum;
}

/** calculateStatus: counts from the ReplicaSets plus the Available condition. */
export function calculateStatus(allRSs: readonly RS[], newRS: RS | undefined, d: DeploymentView, now: number): DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas');
  const unavailable = Math.max(0, sumReplicas(allRSs) - available);
  const status: DeploymentStatus = {};
  const set = (k: 'observedGeneration' | 'replicas' | 'updatedReplicas' | 'readyReplicas' | 'availableReplicas' | 'unavailableReplicas', v: number): void => {
    if (v) status[k] = v;
  };
  set('observedGeneration', d.metadata.generation ?? 0);
  set('replicas', sumStatus(allRSs, 'replicas'));
  set('updatedReplicas', newRS ? (newRS.status?.replicas ?? 0) : 0);
  set('readyReplicas', sumStatus(allRSs, 'readyReplicas'));
  set('availableReplicas', available);
  set('unavailableReplicas', unavailable);
  const terminating = terminatingReplicas(allRSs);
  if (terminating !== undefined) status.terminatingReplicas = terminating;
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }) as DeploymentCondition);
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', Reason.MinimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', Reason.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

const n = (v: number | undefined): number => v ?? 0;

/** DeploymentComplete: every desired replica updated and available, and the spec observed. */
export function isDeploymentComplete(d: DeploymentView, s: DeepReadonly<DeploymentStatus>): boolean {
  const desired = deploymentReplicas(d);
  return n(s.updatedReplicas) === desired && n(s.replicas) === desired && n(s.availableReplicas) === desired && n(s.observedGeneration) >= n(d.metadata.generation);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available than last seen. */
export function isDeploymentProgressing(d: DeploymentView, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  return (
    n(s.updatedReplicas) > n(old.updatedReplicas) ||
    n(s.replicas) - n(s.updatedReplicas) < n(old.replicas) - n(old.updatedReplicas) ||
    n(s.readyReplicas) > n(old.readyReplicas) ||
    n(s.availableReplicas) > n(old.availableReplicas)
  );
}

/** DeploymentTimedOut: no progress reported for progressDeadlineSeconds (strictly after). */
export function isDeploymentTimedOut(d: DeploymentView, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const cond = getCondition(s, 'Progressing');
  if (!cond) return false;
  if (cond.reason === Reason.NewRSAvailable) return false;
  if (cond.reason === Reason.TimedOut) return true;
  const from = Date.parse(cond.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return false;
  return from + n(d.spec.progressDeadlineSeconds) * 1000 < now;
}

/** The conditions half of syncRolloutStatus: returns the status to write. */
export function rolloutStatus(allRSs: readonly RS[], newRS: RS | undefined, d: DeploymentView, now: number): DeploymentStatus {
  const status = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = getCondition(d.status, 'Progressing');
  const isComplete = n(status.replicas) === n(status.updatedReplicas) && current?.reason === Reason.NewRSAvailable;
  if (hasProgressDeadline(d) && !isComplete) {
    const subject = newRS ? `ReplicaSet "${newRS.metadata.name ?? ''}"` : `Deployment "${d.metadata.name ?? ''}"`;
    if (isDeploymentComplete(d, status)) {
      setCondition(status, newCondition('Progressing', 'True', Reason.NewRSAvailable, `${subject} has successfully progressed.`, now));
    } else if (isDeploymentProgressing(d, status)) {
      // Progress refreshes lastUpdateTime even when the reason is unchanged.
      const condition = newCondition('Progressing', 'True', Reason.ReplicaSetUpdated, `${subject} is progressing.`, now);
      if (current?.status === 'True' && current.lastTransitionTime) condition.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, 'Progressing');
      setCondition(status, condition);
    } else if (isDeploymentTimedOut(d, status, now)) {
      setCondition(status, newCondition('Progressing', 'False', Reason.TimedOut, `${subject} has timed out progressing.`, now));
    }
  }
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(status, failure);
  else removeCondition(status, 'ReplicaFailure');
  return status;
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure first, else any old one's. */
function replicaFailure(allRSs: readonly RS[], newRS: RS | undefined): DeploymentCondition | undefined {
  const from = (rs: RS | undefined): DeploymentCondition | undefined => {
    const c = rs?.status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    if (!c) return undefined;
    const cond: DeploymentCondition = { type: c.type as string, status: c.status };
    if (c.lastTransitionTime) {
      cond.lastUpdateTime = c.lastTransitionTime;
      cond.lastTransitionTime = c.lastTransitionTime;
    }
    if (c.reason) cond.reason = c.reason;
    if (c.message) cond.message = c.message;
    return cond;
  };
  return from(newRS) ?? allRSs.map(from).find((c) => c !== undefined);
}

/** requeueStuckDeployment: ms until the deadline check is due, or undefined when none is. */
export function stuckRequeueIn(d: DeploymentView, s: DeploymentStatus, now: number): number | undefined {
  const current = getCondition(d.status, 'Progressing');
  if (!hasProgressDeadline(d) || !current) return undefined;
  if (isDeploymentComplete(d, s) || current.reason === Reason.TimedOut) return undefined;
  // Upstream keeps polling here too, though a NewReplicaSetAvailable condition never times out.
  if (current.reason === Reason.NewRSAvailable) return undefined;
  const from = Date.parse(current.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return undefined;
  const after = from + n(d.spec.progressDeadlineSeconds) * 1000 - now;
  // The deadline check is strict (Before), so look again just past it.
  return Math.max(after + 1, 1);
}

/** Deep comparison of two statuses as the wire would carry them. */
export function isStatusEqual(a: DeepReadonly<DeploymentStatus> | undefined, b: DeploymentStatus): boolean {
  return jsonEqual(a ?? {}, b);
}
