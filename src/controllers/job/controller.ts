// The Job controller: informers on Jobs and Pods, handlers that enqueue Job keys (pod
// events batched by 1 s as upstream), a worker running syncJob, and an orphan worker that
// strips the tracking finalizer from pods whose Job is gone or finished.
// Upstream: pkg/controller/job/job_controller.go (NewController, add/update/deletePod,
// add/update/deleteJob, syncOrphanPod).
import type { Client, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly, OwnerReference, Random } from '../../core/index.ts';
import { keyOf, labelSelectorFromObject, objectKey, splitObjectKey } from '../../core/index.ts';
import type { Job, Pod } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { BackoffRecord } from './backoff.ts';
import { isJobFinished } from './conditions.ts';
import type { JobSyncDeps } from './context.ts';
import { controllerUidIndex, orphansByNamespaceIndex } from './context.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { ControllerExpectations, UidTrackingExpectations } from './expectations.ts';
import { syncJobBatchPeriodMs } from './manage.ts';
import { hasJobTrackingFinalizer } from './pods.ts';
import { isNotFound, removeTrackingFinalizer } from './pod-control.ts';
import { isManagedByOthers, syncJob } from './sync.ts';

export interface JobControllerOptions {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  /** Parallel syncJob workers (kube-controller-manager's --concurrent-job-syncs, default 5). */
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

/** DefaultJobApiBackOff and MaxJobApiBackOff: requeue delays after a failed sync. */
const apiBackoffBaseMs = 1000;
const apiBackoffMaxMs = 60_000;

function controllerOf(obj: { readonly metadata: { readonly ownerReferences?: readonly DeepReadonly<OwnerReference>[] | undefined } }): DeepReadonly<OwnerReference> | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

export class JobController {
  readonly #deps: JobSyncDeps;
  readonly #queue: WorkQueue<string>;
  readonly #orphans: WorkQueue<string>;
  readonly #workers: number;

  constructor(options: JobControllerOptions) {
    const { client, clock, log } = options;
    this.#workers = options.workers ?? 5;
    this.#queue = new WorkQueue<string>({ clock, baseDelayMs: apiBackoffBaseMs, maxDelayMs: apiBackoffMaxMs });
    this.#orphans = new WorkQueue<string>({ clock, baseDelayMs: apiBackoffBaseMs, maxDelayMs: apiBackoffMaxMs });
    const jobs = informerFor<Job>(options.informers, { client, ref: refs.jobs, clock, log });
    const pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    pods.addIndex(controllerUidIndex, (p) => {
      const ref = controllerOf(p);
      return ref?.kind === 'Job' ? [ref.uid] : [];
    });
    pods.addIndex(orphansByNamespaceIndex, (p) => (controllerOf(p) ? [] : [p.metadata.namespace ?? '']));
    this.#deps = {
      client,
      clock,
      jobs,
      pods,
      expectations: new ControllerExpectations(clock),
      finalizerExpectations: new UidTrackingExpectations(),
      backoff: new Map<string, BackoffRecord>(),
      recorder: createEventRecorder({ client, clock, component: 'job-controller', log }),
      enqueueAfter: (key, ms) => this.#queue.addAfter(key, ms),
      log,
    };
    jobs.addHandlers({
      onAdd: (job) => this.#queue.add(keyOf(job)),
      onUpdate: (old, job) => this.#updateJob(old, job),
      onDelete: (job) => {
        this.#queue.add(keyOf(job));
        this.#cleanupPodFinalizers(job);
      },
    });
    pods.addHandlers({
      onAdd: (pod) => this.#addPod(pod),
      onUpdate: (old, pod) => this.#updatePod(old, pod),
      onDelete: (pod) => this.#deletePod(pod, true),
    });
  }

  start(): void {
    this.#deps.jobs.start();
    this.#deps.pods.start();
    void Promise.all([this.#deps.jobs.waitForSync(), this.#deps.pods.waitForSync()]).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#workers, (key) => syncJob(this.#deps, key), this.#deps.log);
      void runWorkers(this.#orphans, 1, (key) => this.#syncOrphanPod(key), this.#deps.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#orphans.shutDown();
    this.#deps.jobs.stop();
    this.#deps.pods.stop();
  }

  /** Runs one sync of the Job `namespace/name` (tests and tools). */
  syncJob(key: string): Promise<void> {
    return syncJob(this.#deps, key);
  }

  #enqueueBatched(job: DeepReadonly<Job>): void {
    this.#queue.addAfter(keyOf(job), syncJobBatchPeriodMs);
  }

  #updateJob(old: DeepReadonly<Job>, job: DeepReadonly<Job>): void {
    // Status writes (usually our own) are batched; spec changes sync at once.
    if (job.metadata.generation === old.metadata.generation) this.#enqueueBatched(job);
    else this.#queue.add(keyOf(job));
    if (isJobFinished(job)) this.#cleanupPodFinalizers(job);
    const deadline = job.spec.activeDeadlineSeconds;
    const start = job.status?.startTime;
    if (start && deadline !== undefined && old.spec.activeDeadlineSeconds !== deadline) {
      this.#queue.addAfter(keyOf(job), deadline * 1000 - (this.#deps.clock.now() - Date.parse(start)));
    }
  }

  /** The Job a pod's controller reference names, if it is in the cache with that uid. */
  #resolveController(pod: DeepReadonly<Pod>, ref: DeepReadonly<OwnerReference>): DeepReadonly<Job> | undefined {
    if (ref.kind !== 'Job') return undefined;
    const job = this.#deps.jobs.getByName(pod.metadata.namespace, ref.name);
    return job?.metadata.uid === ref.uid ? job : undefined;
  }

  #addPod(pod: DeepReadonly<Pod>): void {
    if (pod.metadata.deletionTimestamp) {
      // Already going when first seen (a restart): not a creation we wait for.
      this.#deletePod(pod, false);
      return;
    }
    const ref = controllerOf(pod);
    const job = ref && this.#resolveController(pod, ref);
    if (job) {
      this.#deps.expectations.creationObserved(keyOf(job));
      this.#enqueueBatched(job);
      return;
    }
    if (hasJobTrackingFinalizer(pod)) this.#orphans.add(keyOf(pod));
    // An orphan: the Jobs whose selector matches may adopt it (upstream getPodJobs).
    if (!ref) for (const j of this.#jobsSelecting(pod)) this.#enqueueBatched(j);
  }

  #jobsSelecting(pod: DeepReadonly<Pod>): DeepReadonly<Job>[] {
    return this.#deps.jobs.list().filter((j) => {
      if (j.metadata.namespace !== pod.metadata.namespace) return false;
      const selector = labelSelectorFromObject(j.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels);
    });
  }

  #updatePod(old: DeepReadonly<Pod>, pod: DeepReadonly<Pod>): void {
    if (pod.metadata.resourceVersion === old.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) {
      // Graceful deletion: replace the pod now, not when the kubelet finally removes it.
      this.#deletePod(pod, false);
      return;
    }
    const finalizerRemoved = !hasJobTrackingFinalizer(pod);
    const ref = controllerOf(pod);
    const oldRef = controllerOf(old);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const oldJob = this.#resolveController(old, oldRef);
      if (oldJob) {
        if (finalizerRemoved) this.#deps.finalizerExpectations.finalizerRemovalObserved(keyOf(oldJob), pod.metadata.uid ?? '');
        this.#enqueueBatched(oldJob);
      }
    }
    const job = ref && this.#resolveController(pod, ref);
    if (job) {
      if (finalizerRemoved) this.#deps.finalizerExpectations.finalizerRemovalObserved(keyOf(job), pod.metadata.uid ?? '');
      this.#enqueueBatched(job);
    } else if (!ref) {
      if (hasJobTrackingFinalizer(pod)) this.#orphans.add(keyOf(pod));
      for (const j of this.#jobsSelecting(pod)) this.#enqueueBatched(j);
    }
  }

  #deletePod(pod: DeepReadonly<Pod>, final: boolean): void {
    const ref = controllerOf(pod);
    const tracked = hasJobTrackingFinalizer(pod);
    if (!ref) {
      if (tracked) this.#orphans.add(keyOf(pod));
      return;
    }
    const job = this.#resolveController(pod, ref);
    if (!job || isJobFinished(job)) {
      // syncJob will not remove this finalizer.
      if (tracked) this.#orphans.add(keyOf(pod));
      return;
    }
    const key = keyOf(job);
    this.#deps.expectations.deletionObserved(key);
    if (final || !tracked) this.#deps.finalizerExpectations.finalizerRemovalObserved(key, pod.metadata.uid ?? '');
    this.#enqueueBatched(job);
  }

  #cleanupPodFinalizers(job: DeepReadonly<Job>): void {
    for (const pod of this.#deps.pods.byIndex(controllerUidIndex, job.metadata.uid ?? '')) {
      if (hasJobTrackingFinalizer(pod)) this.#orphans.add(keyOf(pod));
    }
  }

  /** syncOrphanPod: removes the finalizer unless a live, unfinished Job still controls the pod. */
  async #syncOrphanPod(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const pod = this.#deps.pods.get(objectKey(namespace, name));
    if (!pod) return;
    const ref = controllerOf(pod);
    if (ref) {
      // Owned by something other than a batch/v1 Job: not ours to touch.
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.#resolveController(pod, ref);
      if (job && isManagedByOthers(job)) return;
      if (job && !isJobFinished(job)) return;
    }
    try {
      await removeTrackingFinalizer(this.#deps, pod);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
