// manageJob: brings the number of active pods to what the Job wants, respecting the
// replacement backoff; deletes all active pods of a suspended Job.
// Upstream: pkg/controller/job/job_controller.go (manageJob, deleteJobPods).
import type { Job } from '../../api/index.ts';
import { remainingBackoffForIndexMs, remainingBackoffMs } from './backoff.ts';
import type { JobSyncDeps, SyncJobCtx } from './context.ts';
import { hasBackoffLimitPerIndex, isIndexedJob } from './context.ts';
import { firstPendingIndexes } from './indexes.ts';
import { newIndexFailureCounts, nonPendingIndexes } from './indexed.ts';
import type { ReadonlyPod } from './pods.ts';
import { activePodsForRemoval, isPodReady, onlyReplaceFailedPods } from './pods.ts';
import { basePodTemplate, createPod, deletePod, indexedPodTemplate, isNotFound, removeTrackingFinalizer } from './pod-control.ts';

/** MaxPodCreateDeletePerSync. */
const maxPodCreateDeletePerSync = 500;
/** controller.SlowStartInitialBatchSize. */
const slowStartInitialBatchSize = 1;
/** syncJobBatchPeriod: the shortest requeue delay. */
export const syncJobBatchPeriodMs = 1000;

export interface ManageResult {
  active: number;
  error: unknown;
}

export async function manageJob(deps: JobSyncDeps, ctx: SyncJobCtx): Promise<ManageResult> {
  const job = ctx.job;
  let active = ctx.activePods.length;
  const parallelism = job.spec.parallelism ?? 1;
  if (job.spec.suspend === true) {
    const victims = activePodsForRemoval(job, ctx.activePods, active);
    deps.expectations.expectDeletions(ctx.key, victims.length);
    const r = await deleteJobPods(deps, ctx, victims);
    return { active: active - r.removed, error: r.error };
  }

  let wantActive: number;
  if (job.spec.completions === undefined) {
    // Work-queue Jobs: after the first success, leave running what runs.
    wantActive = ctx.succeeded > 0 ? active : parallelism;
  } else {
    wantActive = Math.max(0, Math.min(job.spec.completions - ctx.succeeded, parallelism));
  }

  const victims = activePodsForRemoval(job, ctx.activePods, Math.max(0, active - wantActive)).slice(0, maxPodCreateDeletePerSync);
  if (victims.length > 0) {
    // A sync that must both delete and create only deletes.
    deps.expectations.expectDeletions(ctx.key, victims.length);
    const r = await deleteJobPods(deps, ctx, victims);
    return { active: active - r.removed, error: r.error };
  }

  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  let diff = wantActive - terminating - active;
  if (diff <= 0) return { active, error: undefined };
  const now = deps.clock.now();
  if (!hasBackoffLimitPerIndex(job)) {
    const wait = remainingBackoffMs(now, ctx.newBackoffRecord.failuresAfterLastSuccess, ctx.newBackoffRecord.lastFailureTime);
    if (wait > 0) {
      deps.enqueueAfter(ctx.key, Math.max(wait, syncJobBatchPeriodMs));
      return { active, error: undefined };
    }
  }
  diff = Math.min(diff, maxPodCreateDeletePerSync);
  let indexes: number[] = [];
  if (isIndexedJob(job)) {
    indexes = firstPendingIndexes(nonPendingIndexes(ctx, onlyReplaceFailedPods(job)), diff, job.spec.completions ?? 0);
    if (hasBackoffLimitPerIndex(job)) {
      const delayed = ctx.podsWithDelayedDeletionPerIndex ?? new Map<number, ReadonlyPod>();
      const ready = indexes.filter((ix) => remainingBackoffForIndexMs(now, delayed.get(ix)) === 0);
      if (ready.length === 0 && indexes.length > 0) {
        const wait = Math.min(...indexes.map((ix) => remainingBackoffForIndexMs(now, delayed.get(ix))));
        deps.enqueueAfter(ctx.key, Math.max(wait, syncJobBatchPeriodMs));
        return { active, error: undefined };
      }
      indexes = ready;
    }
    diff = indexes.length;
  }
  if (diff === 0) return { active, error: undefined };

  deps.expectations.expectCreations(ctx.key, diff);
  const base = basePodTemplate(job);
  active += diff;
  let firstError: unknown;
  // Slow start: batches of 1, 2, 4, ...; a failing batch stops the rest, which wait for the next sync.
  for (let batch = Math.min(diff, slowStartInitialBatchSize); diff > 0; batch = Math.min(2 * batch, diff)) {
    let batchErrors = 0;
    await Promise.all(
      Array.from({ length: batch }, async () => {
        const ix = indexes.shift();
        const { template, generateName } =
          ix === undefined ? { template: base, generateName: '' } : indexedPodTemplate(job, base, ix, hasBackoffLimitPerIndex(job) ? newIndexFailureCounts(job, ctx.podsWithDelayedDeletionPerIndex?.get(ix)) : undefined);
        try {
          await createPod(deps, job, template, generateName);
        } catch (error) {
          // Every later create would fail the same way while the namespace is going away.
          if (isNamespaceTerminating(error)) return;
          // The informer will never show this pod.
          deps.expectations.creationObserved(ctx.key);
          active--;
          batchErrors++;
          firstError ??= error;
        }
      }),
    );
    const skipped = diff - batch;
    if (batchErrors > 0 && skipped > 0) {
      active -= skipped;
      for (let i = 0; i < skipped; i++) deps.expectations.creationObserved(ctx.key);
      break;
    }
    diff -= batch;
  }
  return { active, error: firstError };
}

function isNamespaceTerminating(error: unknown): boolean {
  const causes = (error as { details?: { causes?: { reason?: string }[] } } | undefined)?.details?.causes ?? [];
  return causes.some((c) => c.reason === 'NamespaceTerminating');
}

/** deleteJobPods: drops the tracking finalizer first, since these pods are not counted. */
async function deleteJobPods(deps: JobSyncDeps, ctx: SyncJobCtx, pods: readonly ReadonlyPod[]): Promise<{ removed: number; error: unknown }> {
  let removed = 0;
  let firstError: unknown;
  const job: Job = ctx.job;
  await Promise.all(
    pods.map(async (p) => {
      try {
        await removeTrackingFinalizer(deps, p);
        await deletePod(deps, job, p);
      } catch (error) {
        deps.expectations.deletionObserved(ctx.key);
        if (!isNotFound(error)) {
          firstError ??= error;
          return;
        }
      }
      removed++;
      if (isPodReady(p)) ctx.ready--;
    }),
  );
  ctx.terminating += removed;
  return { removed, error: firstError };
}
