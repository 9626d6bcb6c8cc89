// Per-index accounting of Indexed Jobs: succeeded and failed indexes from the pods, and
// which failed pod of an index must outlive its replacement (backoffLimitPerIndex carries
// the failure count forward on the replacement's annotation).
// Upstream: pkg/controller/job/indexed_job_utils.go.
import type { Job } from '../../api/index.ts';
import { finishedTime, indexAbsoluteFailureCount, indexFailureCount, indexIgnoredFailureCount } from './backoff.ts';
import type { SyncJobCtx } from './context.ts';
import { newlyFinishedPods } from './context.ts';
import type { OrderedIntervals } from './indexes.ts';
import { getCompletionIndex, hasIndex, mergeIntervals, parseIndexesFromString, unknownCompletionIndex, withIndexes } from './indexes.ts';
import { countsAsFailure, matchPodFailurePolicy } from './pod-failure-policy.ts';
import type { ReadonlyJob, ReadonlyPod } from './pods.ts';
import { hasJobTrackingFinalizer, isPodFailed, isPodTerminating } from './pods.ts';

function validIndex(p: ReadonlyPod, completions: number): number {
  const ix = getCompletionIndex(p.metadata.annotations);
  return ix !== unknownCompletionIndex && ix < completions ? ix : unknownCompletionIndex;
}

/** [previously recorded, previously recorded plus succeeded pods not yet counted]. */
export function calculateSucceededIndexes(job: Job, pods: readonly ReadonlyPod[]): [OrderedIntervals, OrderedIntervals] {
  const completions = job.spec.completions ?? 0;
  const prev = parseIndexesFromString(job.status?.completedIndexes, completions);
  const fresh: number[] = [];
  for (const p of pods) {
    const ix = validIndex(p, completions);
    if (p.status?.phase === 'Succeeded' && ix !== unknownCompletionIndex && hasJobTrackingFinalizer(p)) fresh.push(ix);
  }
  return [prev, withIndexes(prev, fresh)];
}

export function calculateFailedIndexes(job: Job, pods: readonly ReadonlyPod[]): OrderedIntervals {
  const completions = job.spec.completions ?? 0;
  const prev = job.status?.failedIndexes !== undefined ? parseIndexesFromString(job.status.failedIndexes, completions) : [];
  const fresh: number[] = [];
  for (const p of pods) {
    const ix = validIndex(p, completions);
    if (ix !== unknownCompletionIndex && hasJobTrackingFinalizer(p) && isIndexFailed(job, p)) fresh.push(ix);
  }
  return withIndexes(prev, fresh);
}

/** A FailIndex rule fails the index at once; else a counted failure past backoffLimitPerIndex. */
function isIndexFailed(job: ReadonlyJob, p: ReadonlyPod): boolean {
  if (!isPodFailed(p, job)) return false;
  let counted = true;
  if (job.spec.podFailurePolicy) {
    const match = matchPodFailurePolicy(job.spec.podFailurePolicy, p);
    if (match.action === 'FailIndex') return true;
    counted = countsAsFailure(match);
  }
  return counted && indexFailureCount(p) >= (job.spec.backoffLimitPerIndex ?? 0);
}

/** The failure counts the replacement of `replaced` carries. */
export function newIndexFailureCounts(job: ReadonlyJob, replaced: ReadonlyPod | undefined): { failures: number; ignored: number } {
  if (!replaced) return { failures: 0, ignored: 0 };
  let failures = indexFailureCount(replaced);
  let ignored = indexIgnoredFailureCount(replaced);
  if (countsAsFailure(matchPodFailurePolicy(job.spec.podFailurePolicy, replaced))) failures++;
  else ignored++;
  return { failures, ignored };
}

/**
 * Per pending index, its latest failed pod: its finalizer stays until the replacement exists,
 * so the replacement can copy the failure count.
 */
export function podsWithDelayedDeletionPerIndex(ctx: SyncJobCtx): Map<number, ReadonlyPod> {
  const completions = ctx.job.spec.completions ?? 0;
  const activeIndexes = new Set(ctx.activePods.map((p) => getCompletionIndex(p.metadata.annotations)));
  const result = new Map<number, ReadonlyPod>();
  for (const p of newlyFinishedPods(ctx, new Set(), (x) => isPodFailed(x, ctx.job))) {
    const ix = validIndex(p, completions);
    if (ix === unknownCompletionIndex) continue;
    if (hasIndex(ctx.succeededIndexes, ix) || hasIndex(ctx.failedIndexes, ix) || activeIndexes.has(ix)) continue;
    const last = result.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && finishedTime(p) >= finishedTime(last))) result.set(ix, p);
  }
  return result;
}

/** Indexes that need no new pod: succeeded, failed, active and (policy Failed) terminating. */
export function nonPendingIndexes(ctx: SyncJobCtx, onlyFailed: boolean): OrderedIntervals {
  let nonPending = withIndexes(ctx.succeededIndexes, ctx.activePods.map((p) => getCompletionIndex(p.metadata.annotations)).filter((ix) => ix >= 0));
  if (ctx.failedIndexes) nonPending = mergeIntervals(nonPending, ctx.failedIndexes);
  if (onlyFailed) {
    nonPending = withIndexes(nonPending, ctx.pods.filter(isPodTerminating).map((p) => getCompletionIndex(p.metadata.annotations)).filter((ix) => ix >= 0));
  }
  return nonPending;
}
