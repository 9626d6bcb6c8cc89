// The job-tracking finalizer protocol: a finished pod's uid goes into
// status.uncountedTerminatedPods (write 1), its finalizer is removed, and then the uid moves
// into the succeeded/failed counter (write 2). A Job gets Complete/Failed only once nothing
// is uncounted or terminating, after the interim SuccessCriteriaMet/FailureTarget.
// Upstream: pkg/controller/job/job_controller.go (trackJobStatusAndRemoveFinalizers,
// flushUncountedAndRemoveFinalizers, enactJobFinished, recordJobFinished).
import type { Job, JobCondition, JobStatus } from '../../api/index.ts';
import { JobConditionType, refs } from '../../api/index.ts';
import { ensureJobConditionStatus, newCondition } from './conditions.ts';
import type { JobSyncDeps, SyncJobCtx } from './context.ts';
import { isIndexedJob, jobGvk } from './context.ts';
import { formatIntervals, getCompletionIndex, hasIndex, totalIndexes, unknownCompletionIndex, withIndexes } from './indexes.ts';
import { countsAsFailure, matchPodFailurePolicy } from './pod-failure-policy.ts';
import type { ReadonlyPod } from './pods.ts';
import { hasJobTrackingFinalizer, isPodFailed } from './pods.ts';
import { isNotFound, removeTrackingFinalizer } from './pod-control.ts';

/** MaxUncountedPods: keeps uncountedTerminatedPods around 20 KB and big Jobs from starving others. */
const maxUncountedPods = 500;

export async function trackJobStatusAndRemoveFinalizers(deps: JobSyncDeps, ctx: SyncJobCtx, needsFlush: boolean): Promise<void> {
  const job = ctx.job;
  const indexed = isIndexedJob(job);
  const completions = job.spec.completions ?? 0;
  const status = (job.status ??= {});
  const uncounted = (status.uncountedTerminatedPods ??= {});
  const pods = indexed ? [...ctx.pods].sort((a, b) => getCompletionIndex(a.metadata.annotations) - getCompletionIndex(b.metadata.annotations)) : ctx.pods;
  const withFinalizer = new Set(pods.filter((p) => hasJobTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(p.metadata.uid ?? '')).map((p) => p.metadata.uid ?? ''));
  if (cleanUncountedPodsWithoutFinalizers(status, withFinalizer)) needsFlush = true;

  const toRemove: ReadonlyPod[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMaxUncounted = false;
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? '';
    // Without a finalizer the pod was accounted for in an earlier sync.
    if (!hasJobTrackingFinalizer(pod) || ctx.expectedRmFinalizers.has(uid)) continue;
    const failed = isPodFailed(pod, job);
    if (!canRemoveFinalizer(ctx, pod, failed)) continue;
    toRemove.push(pod);
    if (pod.status?.phase === 'Succeeded' && !ctx.uncountedFailed.has(uid)) {
      if (indexed) {
        // The index is enough to avoid counting a success twice.
        const ix = getCompletionIndex(pod.metadata.annotations);
        if (ix !== unknownCompletionIndex && ix < completions && !hasIndex(ctx.prevSucceededIndexes, ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncountedSucceeded.has(uid)) {
        (uncounted.succeeded ??= []).push(uid);
        needsFlush = true;
      }
    } else if (failed || (ctx.finishedCondition && ctx.finishedCondition.type !== JobConditionType.SuccessCriteriaMet)) {
      // Once the Job fails, every pod that did not succeed counts as failed.
      const ix = getCompletionIndex(pod.metadata.annotations);
      if (!ctx.uncountedFailed.has(uid) && (!indexed || (ix !== unknownCompletionIndex && ix < completions))) {
        if (countsAsFailure(matchPodFailurePolicy(job.spec.podFailurePolicy, pod))) {
          (uncounted.failed ??= []).push(uid);
          needsFlush = true;
        }
      }
    }
    if (newSucceededIndexes.length + (uncounted.succeeded?.length ?? 0) + (uncounted.failed?.length ?? 0) >= maxUncountedPods) {
      reachedMaxUncounted = true;
      break;
    }
  }
  if (indexed) {
    ctx.succeededIndexes = withIndexes(ctx.succeededIndexes, newSucceededIndexes);
    const completed = formatIntervals(ctx.succeededIndexes);
    if (completed !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = totalIndexes(ctx.succeededIndexes);
    status.completedIndexes = completed;
    const failedIndexes = ctx.failedIndexes ? formatIntervals(ctx.failedIndexes) : undefined;
    if (failedIndexes !== status.failedIndexes) {
      if (failedIndexes === undefined) delete status.failedIndexes;
      else status.failedIndexes = failedIndexes;
      needsFlush = true;
    }
  }
  const conditions = (status.conditions ??= []);
  if (ctx.finishedCondition?.type === JobConditionType.FailureTarget) {
    // The interim condition records why before any finalizer (and so any pod) goes away.
    conditions.push(ctx.finishedCondition);
    needsFlush = true;
    ctx.finishedCondition = newCondition(JobConditionType.Failed, 'True', ctx.finishedCondition.reason ?? '', ctx.finishedCondition.message ?? '', deps.clock.now());
  }
  if (ctx.finishedCondition?.type === JobConditionType.SuccessCriteriaMet) {
    if (!conditions.some((c) => c.type === JobConditionType.SuccessCriteriaMet && c.status === 'True')) {
      conditions.push(ctx.finishedCondition);
      needsFlush = true;
    }
    ctx.finishedCondition = newCondition(JobConditionType.Complete, 'True', ctx.finishedCondition.reason ?? '', ctx.finishedCondition.message ?? '', deps.clock.now());
  }

  needsFlush = await flushUncountedAndRemoveFinalizers(deps, ctx, toRemove, withFinalizer, needsFlush);
  const finished = !reachedMaxUncounted && enactJobFinished(deps, ctx);
  if (finished || needsFlush) {
    await updateJobStatus(deps, ctx);
    if (finished && ctx.finishedCondition) recordJobFinished(deps, ctx.job, ctx.finishedCondition);
  }
}

/** canRemoveFinalizer: the Job is going or done, the pod succeeded, or it failed and is not held for its index. */
function canRemoveFinalizer(ctx: SyncJobCtx, pod: ReadonlyPod, failed: boolean): boolean {
  if (ctx.job.metadata.deletionTimestamp || ctx.finishedCondition || pod.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  const held = ctx.podsWithDelayedDeletionPerIndex?.get(getCompletionIndex(pod.metadata.annotations));
  return !(held && held.metadata.uid === pod.metadata.uid);
}

/** Write 1 (uncounted uids and interim conditions), finalizer removal, counters. Returns whether a write is pending. */
async function flushUncountedAndRemoveFinalizers(deps: JobSyncDeps, ctx: SyncJobCtx, toRemove: readonly ReadonlyPod[], withFinalizer: Set<string>, needsFlush: boolean): Promise<boolean> {
  if (needsFlush) {
    await updateJobStatus(deps, ctx);
    deps.backoff.set(ctx.key, ctx.newBackoffRecord);
    needsFlush = false;
  }
  let firstError: unknown;
  if (toRemove.length > 0) {
    deps.finalizerExpectations.expectFinalizersRemoved(ctx.key, toRemove.map((p) => p.metadata.uid ?? ''));
    await Promise.all(
      toRemove.map(async (pod) => {
        const uid = pod.metadata.uid ?? '';
        try {
          await removeTrackingFinalizer(deps, pod);
        } catch (error) {
          // No update will show the finalizer gone; stop waiting for one.
          deps.finalizerExpectations.finalizerRemovalObserved(ctx.key, uid);
          if (!isNotFound(error)) {
            firstError ??= error;
            return;
          }
        }
        withFinalizer.delete(uid);
      }),
    );
  }
  if (cleanUncountedPodsWithoutFinalizers(ctx.job.status ?? {}, withFinalizer)) needsFlush = true;
  if (firstError) {
    // Keep the partial progress before reporting the failure.
    if (needsFlush) await updateJobStatus(deps, ctx);
    throw firstError;
  }
  return needsFlush;
}

/** Moves uids whose finalizer is gone from uncountedTerminatedPods into the counters. */
function cleanUncountedPodsWithoutFinalizers(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const uncounted = (status.uncountedTerminatedPods ??= {});
  let changed = false;
  const succeeded = (uncounted.succeeded ?? []).filter((uid) => withFinalizer.has(uid));
  if (succeeded.length !== (uncounted.succeeded ?? []).length) {
    status.succeeded = (status.succeeded ?? 0) + (uncounted.succeeded ?? []).length - succeeded.length;
    uncounted.succeeded = succeeded;
    changed = true;
  }
  const failed = (uncounted.failed ?? []).filter((uid) => withFinalizer.has(uid));
  if (failed.length !== (uncounted.failed ?? []).length) {
    status.failed = (status.failed ?? 0) + (uncounted.failed ?? []).length - failed.length;
    uncounted.failed = failed;
    changed = true;
  }
  return changed;
}

/** Adds Complete/Failed once nothing is uncounted or terminating. */
function enactJobFinished(deps: JobSyncDeps, ctx: SyncJobCtx): boolean {
  const cond = ctx.finishedCondition;
  if (!cond) return false;
  const status = (ctx.job.status ??= {});
  const uncounted = status.uncountedTerminatedPods;
  if ((uncounted?.succeeded?.length ?? 0) + (uncounted?.failed?.length ?? 0) > 0) return false;
  if (ctx.terminating > 0) return false;
  ensureJobConditionStatus((status.conditions ??= []), cond.type as JobConditionType, cond.status, cond.reason ?? '', cond.message ?? '', deps.clock.now());
  if (cond.type === JobConditionType.Complete) status.completionTime = cond.lastTransitionTime ?? '';
  return true;
}

function recordJobFinished(deps: JobSyncDeps, job: Job, cond: JobCondition): void {
  const event = { ...jobGvk, metadata: job.metadata };
  if (cond.type === JobConditionType.Complete) {
    if (job.spec.completions !== undefined && (job.status?.succeeded ?? 0) > job.spec.completions) {
      deps.recorder.event(event, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
    }
    deps.recorder.event(event, 'Normal', 'Completed', 'Job completed');
  } else {
    deps.recorder.event(event, 'Warning', cond.reason ?? '', cond.message ?? '');
  }
}

/** UpdateStatus with the wire shape Go's omitempty gives; continues with the stored Job. */
async function updateJobStatus(deps: JobSyncDeps, ctx: SyncJobCtx): Promise<void> {
  const status = ctx.job.status ?? {};
  const wire: JobStatus = { ...status };
  const uncounted: NonNullable<JobStatus['uncountedTerminatedPods']> = {};
  if (status.uncountedTerminatedPods?.succeeded?.length) uncounted.succeeded = [...status.uncountedTerminatedPods.succeeded];
  if (status.uncountedTerminatedPods?.failed?.length) uncounted.failed = [...status.uncountedTerminatedPods.failed];
  wire.uncountedTerminatedPods = uncounted;
  if (!wire.conditions?.length) delete wire.conditions;
  for (const k of ['active', 'succeeded', 'failed'] as const) if (!wire[k]) delete wire[k];
  if (!wire.completedIndexes) delete wire.completedIndexes;
  const stored = await deps.client.updateStatus<Job>(refs.jobs, { ...ctx.job, status: wire });
  ctx.job = structuredClone(stored);
  const s = (ctx.job.status ??= {});
  s.uncountedTerminatedPods ??= {};
}
