// Job conditions as the controller writes them: every change stamps lastProbeTime and
// lastTransitionTime with now, and a False condition is never added where none existed.
// Upstream: pkg/controller/job/job_controller.go (newCondition, ensureJobConditionStatus).
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';
import type { JobCondition, JobConditionType, JobStatus } from '../../api/index.ts';

export const JobReason = {
  PodFailurePolicy: 'PodFailurePolicy',
  BackoffLimitExceeded: 'BackoffLimitExceeded',
  DeadlineExceeded: 'DeadlineExceeded',
  MaxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  FailedIndexes: 'FailedIndexes',
  SuccessPolicy: 'SuccessPolicy',
  CompletionsReached: 'CompletionsReached',
} as const;

export const JobMessage = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
  CompletionsReached: 'Reached expected number of succeeded pods',
} as const;

export function newCondition(type: JobConditionType, status: JobCondition['status'], reason: string, message: string, now: number): JobCondition {
  const t = formatTime(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

export function findCondition<C extends DeepReadonly<JobCondition>>(conditions: readonly C[] | undefined, type: JobConditionType): C | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

/** Sets the condition (type, status, reason, message); returns whether the list changed. */
export function ensureJobConditionStatus(conditions: JobCondition[], type: JobConditionType, status: JobCondition['status'], reason: string, message: string, now: number): boolean {
  const i = conditions.findIndex((c) => c.type === type);
  const existing = conditions[i];
  if (existing) {
    if (existing.status === status && existing.reason === reason && existing.message === message) return false;
    conditions[i] = newCondition(type, status, reason, message, now);
    return true;
  }
  if (status === 'False') return false;
  conditions.push(newCondition(type, status, reason, message, now));
  return true;
}

export function isJobFinished(job: { readonly status?: DeepReadonly<JobStatus> | undefined }): boolean {
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}
