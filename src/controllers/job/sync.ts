// syncJob: one level-triggered pass over a Job. Counts its pods, decides whether it has
// met its success criteria or a failure condition, creates or deletes pods, and writes
// the status through the finalizer protocol (tracking.ts).
// Upstream: pkg/controller/job/job_controller.go (syncJob, getPodsForJob).
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime, labelSelectorFromObject, splitObjectKey } from '../../core/index.ts';
import type { Job, JobCondition } from '../../api/index.ts';
import { JobControllerName, JobConditionType, JobTrackingFinalizer, refs } from '../../api/index.ts';
import { nextBackoffRecord } from './backoff.ts';
import { JobMessage, JobReason, ensureJobConditionStatus, findCondition, isJobFinished, newCondition } from './conditions.ts';
import type { JobSyncDeps, SyncJobCtx } from './context.ts';
import { controllerUidIndex, hasBackoffLimitPerIndex, isIndexedJob, jobGvk, newlyFinishedPods, orphansByNamespaceIndex } from './context.ts';
import { claimObjects, newControllerRef, recheckDeletionTimestamp } from '../controller-ref.ts';
import { totalIndexes } from './indexes.ts';
import { calculateFailedIndexes, calculateSucceededIndexes, podsWithDelayedDeletionPerIndex } from './indexed.ts';
import { manageJob } from './manage.ts';
import { countsAsFailure, matchPodFailurePolicy } from './pod-failure-policy.ts';
import type { ReadonlyPod } from './pods.ts';
import { isPodActive, isPodFailed, isPodReady, isPodTerminating, pastBackoffLimitOnFailure } from './pods.ts';
import { deletePod, isNotFound } from './pod-control.ts';
import { matchSuccessPolicy } from './success-policy.ts';
import { trackJobStatusAndRemoveFinalizers } from './tracking.ts';

/** A Job whose spec.managedBy names another controller is left alone. */
export function isManagedByOthers(job: DeepReadonly<Job>): boolean {
  const managedBy = job.spec.managedBy;
  return managedBy !== undefined && managedBy !== JobControllerName;
}

export async function syncJob(deps: JobSyncDeps, key: string): Promise<void> {
  const { namespace, name } = splitObjectKey(key);
  const shared = deps.jobs.getByName(namespace, name);
  if (!shared) {
    deps.expectations.delete(key);
    deps.finalizerExpectations.delete(key);
    deps.backoff.delete(key);
    return;
  }
  if (isManagedByOthers(shared)) return;
  if (isJobFinished(shared)) {
    deps.backoff.delete(key);
    return;
  }
  const now = deps.clock.now();
  const job = structuredClone(shared) as Job;
  const status = (job.status ??= {});
  status.uncountedTerminatedPods ??= {};
  // Checked before listing pods: a pod created after the check defers this sync to the next one.
  const satisfiedExpectations = deps.expectations.satisfied(key);
  const pods = await podsForJob(deps, job);
  const activePods = pods.filter(isPodActive);
  const ctx: SyncJobCtx = {
    key,
    job,
    pods,
    activePods,
    finishedCondition: undefined,
    succeeded: 0,
    failed: 0,
    prevSucceededIndexes: [],
    succeededIndexes: [],
    failedIndexes: undefined,
    newBackoffRecord: { failuresAfterLastSuccess: 0 },
    expectedRmFinalizers: deps.finalizerExpectations.expectedUids(key),
    uncountedSucceeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
    uncountedFailed: new Set(status.uncountedTerminatedPods.failed ?? []),
    podsWithDelayedDeletionPerIndex: undefined,
    terminating: pods.filter(isPodTerminating).length,
    ready: activePods.filter(isPodReady).length,
  };
  let active = activePods.length;
  const newSucceeded = newlyFinishedPods(ctx, ctx.uncountedSucceeded, (p) => p.status?.phase === 'Succeeded');
  const newFailed = newlyFinishedPods(ctx, ctx.uncountedFailed, (p) => isPodFailed(p, job));
  const nonIgnoredFailed = newFailed.filter((p) => countsAsFailure(matchPodFailurePolicy(job.spec.podFailurePolicy, p))).length;
  ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncountedSucceeded.size;
  ctx.failed = (status.failed ?? 0) + nonIgnoredFailed + ctx.uncountedFailed.size;

  const suspended = job.spec.suspend === true;
  if (!status.startTime && !suspended) status.startTime = formatTime(now);
  ctx.newBackoffRecord = nextBackoffRecord(deps.backoff.get(key), newSucceeded, newFailed);

  ctx.finishedCondition = findSuccessCriteriaMet(job);
  if (!ctx.finishedCondition) {
    const target = findCondition(status.conditions, JobConditionType.FailureTarget);
    if (target?.status === 'True') {
      ctx.finishedCondition = newCondition(JobConditionType.Failed, 'True', target.reason ?? '', target.message ?? '', now);
    } else {
      const message = failJobMessage(job, pods);
      if (message !== undefined) ctx.finishedCondition = newCondition(JobConditionType.FailureTarget, 'True', JobReason.PodFailurePolicy, message, now);
    }
  }
  if (!ctx.finishedCondition) {
    const deadline = job.spec.activeDeadlineSeconds;
    if (ctx.failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) {
      ctx.finishedCondition = failureTarget(JobReason.BackoffLimitExceeded, JobMessage.BackoffLimitExceeded, now);
    } else if (deadline !== undefined && status.startTime && !suspended) {
      const left = deadline * 1000 - (now - Date.parse(status.startTime));
      if (left <= 0) ctx.finishedCondition = failureTarget(JobReason.DeadlineExceeded, JobMessage.DeadlineExceeded, now);
      else deps.enqueueAfter(key, left);
    }
  }

  if (isIndexedJob(job)) {
    [ctx.prevSucceededIndexes, ctx.succeededIndexes] = calculateSucceededIndexes(job, pods);
    ctx.succeeded = totalIndexes(ctx.succeededIndexes);
    if (hasBackoffLimitPerIndex(job)) {
      ctx.failedIndexes = calculateFailedIndexes(job, pods);
      const failedCount = totalIndexes(ctx.failedIndexes);
      if (!ctx.finishedCondition) {
        if (job.spec.maxFailedIndexes !== undefined && failedCount > job.spec.maxFailedIndexes) {
          ctx.finishedCondition = failureTarget(JobReason.MaxFailedIndexesExceeded, JobMessage.MaxFailedIndexesExceeded, now);
        } else if (failedCount > 0 && failedCount + ctx.succeeded >= (job.spec.completions ?? 0)) {
          ctx.finishedCondition = failureTarget(JobReason.FailedIndexes, JobMessage.FailedIndexes, now);
        }
      }
      ctx.podsWithDelayedDeletionPerIndex = podsWithDelayedDeletionPerIndex(ctx);
    }
    if (!ctx.finishedCondition) {
      const message = matchSuccessPolicy(job.spec.successPolicy, job.spec.completions ?? 0, ctx.succeededIndexes);
      if (message !== undefined) ctx.finishedCondition = newCondition(JobConditionType.SuccessCriteriaMet, 'True', JobReason.SuccessPolicy, message, now);
    }
  }

  let suspendChanged = false;
  let manageError: unknown;
  if (ctx.finishedCondition) {
    // Delete active pods (keeping their finalizers, so they are counted) before declaring.
    const { deleted, deletedReady, error } = await deleteActivePods(deps, job, ctx.activePods);
    if (deleted !== active || !satisfiedExpectations) ctx.finishedCondition = undefined;
    active -= deleted;
    ctx.terminating += deleted;
    ctx.ready -= deletedReady;
    manageError = error;
  } else {
    let manageCalled = false;
    if (satisfiedExpectations && !job.metadata.deletionTimestamp) {
      const result = await manageJob(deps, ctx);
      active = result.active;
      manageError = result.error;
      manageCalled = true;
    }
    const complete = job.spec.completions === undefined ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= job.spec.completions && active === 0;
    const conditions = (status.conditions ??= []);
    if (complete) {
      ctx.finishedCondition = newCondition(JobConditionType.SuccessCriteriaMet, 'True', JobReason.CompletionsReached, JobMessage.CompletionsReached, now);
    } else if (manageCalled) {
      const event = { ...jobGvk, metadata: job.metadata };
      if (suspended) {
        if (ensureJobConditionStatus(conditions, JobConditionType.Suspended, 'True', 'JobSuspended', 'Job suspended', now)) {
          suspendChanged = true;
          deps.recorder.event(event, 'Normal', 'Suspended', 'Job suspended');
        }
      } else if (ensureJobConditionStatus(conditions, JobConditionType.Suspended, 'False', 'JobResumed', 'Job resumed', now)) {
        suspendChanged = true;
        deps.recorder.event(event, 'Normal', 'Resumed', 'Job resumed');
        // activeDeadlineSeconds counts continuous activity: resuming restarts it.
        status.startTime = formatTime(now);
      }
    }
    if (status.conditions.length === 0) delete status.conditions;
  }

  const needsStatusUpdate = suspendChanged || active !== (status.active ?? 0) || ctx.ready !== status.ready || ctx.terminating !== status.terminating;
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  await trackJobStatusAndRemoveFinalizers(deps, ctx, needsStatusUpdate);
  if (manageError) throw manageError;
}

function failureTarget(reason: string, message: string, now: number): JobCondition {
  return newCondition(JobConditionType.FailureTarget, 'True', reason, message, now);
}

function findSuccessCriteriaMet(job: Job): JobCondition | undefined {
  const c = findCondition(job.status?.conditions, JobConditionType.SuccessCriteriaMet);
  return c?.status === 'True' ? c : undefined;
}

/**
 * getPodsForJob: the pods this Job controls after the claim protocol: orphans its selector matches
 * are adopted (with the tracking finalizer, in the same patch), owned pods that stopped matching
 * are released. Without orphans or strays there is nothing to write.
 */
async function podsForJob(deps: JobSyncDeps, job: Job): Promise<ReadonlyPod[]> {
  const selector = labelSelectorFromObject(job.spec.selector);
  if ('error' in selector) throw new Error(`couldn't convert Job selector: ${selector.error}`);
  const owned = deps.pods.byIndex(controllerUidIndex, job.metadata.uid ?? '').filter((p) => p.metadata.namespace === job.metadata.namespace);
  const orphans = selector.empty ? [] : deps.pods.byIndex(orphansByNamespaceIndex, job.metadata.namespace ?? '').filter((p) => selector.matches(p.metadata.labels));
  if (orphans.length === 0 && owned.every((p) => selector.matches(p.metadata.labels))) return owned;
  const claimed = await claimObjects<ReadonlyPod>({
    client: deps.client,
    ref: refs.pods,
    owner: job,
    controllerRef: newControllerRef(job, 'batch/v1', 'Job'),
    selector,
    candidates: [...owned, ...orphans],
    canAdopt: recheckDeletionTimestamp(deps.client, refs.jobs, job),
    adoptFinalizers: [JobTrackingFinalizer],
  });
  return claimed;
}

function failJobMessage(job: Job, pods: readonly ReadonlyPod[]): string | undefined {
  if (!job.spec.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const match = matchPodFailurePolicy(job.spec.podFailurePolicy, p);
    if (match.action === 'FailJob') return match.message;
  }
  return undefined;
}

/** deleteActivePods: DELETE each pod, finalizers kept so the pods are counted afterwards. */
async function deleteActivePods(deps: JobSyncDeps, job: Job, pods: readonly ReadonlyPod[]): Promise<{ deleted: number; deletedReady: number; error: unknown }> {
  let deleted = 0;
  let deletedReady = 0;
  let firstError: unknown;
  await Promise.all(
    pods.map(async (p) => {
      try {
        await deletePod(deps, job, p);
      } catch (error) {
        if (!isNotFound(error)) {
          firstError ??= error;
          return;
        }
      }
      deleted++;
      if (isPodReady(p)) deletedReady++;
    }),
  );
  return { deleted, deletedReady, error: firstError };
}
