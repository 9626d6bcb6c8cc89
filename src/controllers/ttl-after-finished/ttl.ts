// When a finished Job with spec.ttlSecondsAfterFinished is due for deletion.
// Upstream: pkg/controller/ttlafterfinished/ttlafterfinished_controller.go (needsCleanup,
// timeLeft, jobFinishTime).
import type { DeepReadonly } from '../../core/index.ts';
import type { Job } from '../../api/index.ts';

export function needsCleanup(job: DeepReadonly<Job>): boolean {
  return job.spec.ttlSecondsAfterFinished !== undefined && finishTime(job) !== undefined;
}

/** The Complete or Failed condition's lastTransitionTime, when True. */
export function finishTime(job: DeepReadonly<Job>): number | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      return c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
    }
  }
  return undefined;
}

/**
 * How long until the Job expires, in ms: <= 0 means delete now; undefined means it never
 * expires (no TTL, or not finished).
 */
export function timeLeftMs(job: DeepReadonly<Job>, now: number): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  const finishedAt = finishTime(job);
  if (ttl === undefined || finishedAt === undefined) return undefined;
  return finishedAt + ttl * 1000 - now;
}
