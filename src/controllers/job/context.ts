// What syncJob works with: the controller's collaborators (deps) and the per-sync state
// (upstream's syncJobCtx), shared by sync.ts, manage.ts and tracking.ts.
import type { Client, Informer } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import type { Job, JobCondition, Pod } from '../../api/index.ts';
import type { BackoffRecord } from './backoff.ts';
import type { EventRecorder } from '../event-recorder.ts';
import type { ControllerExpectations, UidTrackingExpectations } from './expectations.ts';
import type { OrderedIntervals } from './indexes.ts';
import type { ReadonlyPod } from './pods.ts';
import { getCompletionIndex, unknownCompletionIndex } from './indexes.ts';
import { hasJobTrackingFinalizer } from './pods.ts';

export interface JobSyncDeps {
  client: Client;
  clock: Clock;
  jobs: Informer<Job>;
  pods: Informer<Pod>;
  expectations: ControllerExpectations;
  finalizerExpectations: UidTrackingExpectations;
  /** Per Job key: failures since the last success, for pod-creation backoff. */
  backoff: Map<string, BackoffRecord>;
  recorder: EventRecorder;
  enqueueAfter(key: string, ms: number): void;
  log: (line: string) => void;
}

/** Name of the pod informer index from a controller owner's uid to its pods. */
export const controllerUidIndex = 'controllerUid';
/** Pods without a controller, by namespace: the candidates a Job may adopt. */
export const orphansByNamespaceIndex = 'orphansByNamespace';

export interface SyncJobCtx {
  key: string;
  /** The working copy: status is mutated, then written. */
  job: Job;
  pods: ReadonlyPod[];
  activePods: ReadonlyPod[];
  finishedCondition: JobCondition | undefined;
  succeeded: number;
  failed: number;
  prevSucceededIndexes: OrderedIntervals;
  succeededIndexes: OrderedIntervals;
  failedIndexes: OrderedIntervals | undefined;
  newBackoffRecord: BackoffRecord;
  expectedRmFinalizers: ReadonlySet<string>;
  uncountedSucceeded: ReadonlySet<string>;
  uncountedFailed: ReadonlySet<string>;
  podsWithDelayedDeletionPerIndex: Map<number, ReadonlyPod> | undefined;
  terminating: number;
  ready: number;
}

export const jobGvk = { apiVersion: 'batch/v1', kind: 'Job' } as const;

export function isIndexedJob(job: { readonly spec: { readonly completionMode?: string | undefined } }): boolean {
  return job.spec.completionMode === 'Indexed';
}

export function hasBackoffLimitPerIndex(job: { readonly spec: { readonly backoffLimitPerIndex?: number | undefined; readonly completionMode?: string | undefined } }): boolean {
  return isIndexedJob(job) && job.spec.backoffLimitPerIndex !== undefined;
}

/** getValidPodsWithFilter: tracked (finalizer), not yet uncounted, with a valid index. */
export function newlyFinishedPods(ctx: SyncJobCtx, uncounted: ReadonlySet<string>, filter: (p: ReadonlyPod) => boolean): ReadonlyPod[] {
  const completions = ctx.job.spec.completions ?? 0;
  return ctx.pods.filter((p) => {
    const uid = p.metadata.uid ?? '';
    if (!hasJobTrackingFinalizer(p) || uncounted.has(uid) || ctx.expectedRmFinalizers.has(uid)) return false;
    if (isIndexedJob(ctx.job)) {
      const ix = getCompletionIndex(p.metadata.annotations);
      if (ix === unknownCompletionIndex || ix >= completions) return false;
    }
    return filter(p);
  });
}

