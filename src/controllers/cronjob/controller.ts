// The CronJob controller: creates each scheduled Job (`<cronjob>-<minutes>`), honours suspend, the
// starting deadline and the concurrency policy, keeps status.active and the last schedule and success
// times, and trims finished Jobs to the history limits; it wakes for each next scheduled time.
// Upstream: pkg/controller/cronjob/cronjob_controllerv2.go (sync, syncCronJob, cleanupFinishedJobs),
// utils.go (getJobFromTemplate2, inActiveList, IsJobFinished).
import { cronJobScheduledTimestampAnnotation, refs } from '../../api/index.ts';
import type { CronJob, Job } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson, formatTime, isApiError, jsonEqual, keyOf } from '../../core/index.ts';
import type { Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { getControllerOf, newControllerRef } from '../controller-ref.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { dueTimes, jobNameFor, tooManyMissed } from './schedule.ts';

export type CronJobControllerOptions = ControllerOptions;

type ReadonlyCronJob = DeepReadonly<CronJob>;
type ReadonlyJob = DeepReadonly<Job>;
const byController = 'cronjob';

/** IsJobFinished: Complete or Failed, and which. */
function finished(job: ReadonlyJob): 'Complete' | 'Failed' | undefined {
  const c = job.status?.conditions?.find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  return c?.type as 'Complete' | 'Failed' | undefined;
}

export class CronJobController {
  readonly #o: CronJobControllerOptions;
  readonly #cronJobs: Informer<CronJob>;
  readonly #jobs: Informer<Job>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;

  constructor(options: CronJobControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#cronJobs = informerFor<CronJob>(options.informers, { client, ref: refs.cronJobs, clock, log });
    this.#jobs = informerFor<Job>(options.informers, { client, ref: refs.jobs, clock, log });
    this.#jobs.addIndex(byController, (j) => {
      const ref = getControllerOf(j);
      return ref?.kind === 'CronJob' ? [ref.uid] : [];
    });
    this.#queue = new WorkQueue<string>({ clock });
    this.#recorder = createEventRecorder({ client, clock, component: 'cronjob-controller', log, typeOf: () => ({ apiVersion: 'batch/v1', kind: 'CronJob' }) });
    this.#cronJobs.addHandlers({ onAdd: (cj) => this.#queue.add(keyOf(cj)), onUpdate: (_o, cj) => this.#queue.add(keyOf(cj)) });
    const jobChanged = (job: ReadonlyJob): void => {
      const ref = getControllerOf(job);
      if (ref?.kind !== 'CronJob') return;
      const cj = this.#cronJobs.getByName(job.metadata.namespace, ref.name);
      if (cj && cj.metadata.uid === ref.uid) this.#queue.add(keyOf(cj));
    };
    this.#jobs.addHandlers({ onAdd: jobChanged, onUpdate: (_o, j) => jobChanged(j), onDelete: jobChanged });
  }

  start(): void {
    for (const i of [this.#cronJobs, this.#jobs]) i.start();
    void Promise.all([this.#cronJobs.waitForSync(), this.#jobs.waitForSync()]).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key), this.#o.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#cronJobs, this.#jobs]) i.stop();
  }

  async #sync(key: string): Promise<void> {
    const cj = this.#cronJobs.get(key);
    if (!cj || cj.metadata.deletionTimestamp) return;
    const now = this.#o.clock.now();
    const jobs = this.#jobs.byIndex(byController, cj.metadata.uid ?? '');
    const status: NonNullable<CronJob['status']> = copyJson(cj.status ?? {}) as NonNullable<CronJob['status']>;
    await this.#reconcileActive(cj, jobs, status);
    if (!cj.spec.suspend) await this.#runDue(cj, jobs, status, now);
    await this.#cleanup(cj, jobs);
    if (!jsonEqual(cj.status ?? {}, status)) {
      try {
        await this.#o.client.updateStatus(refs.cronJobs, { ...(copyJson(cj) as CronJob), status });
      } catch (error) {
        if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(key);
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
  }

  /**
   * syncCronJob's first half: finished Jobs leave status.active (SawCompletedJob), any Job of ours
   * that succeeded moves lastSuccessfulTime (a `kubectl create job --from=cronjob/x` one too), an
   * unfinished Job we do not list is reported (UnexpectedJob), and listed Jobs gone from the API
   * leave the list (MissingJob). Both misses are checked against the API, not only the cache.
   */
  async #reconcileActive(cj: ReadonlyCronJob, jobs: readonly ReadonlyJob[], status: NonNullable<CronJob['status']>): Promise<void> {
    const listed = (uid: string | undefined): boolean => (status.active ?? []).some((a) => a.uid === uid);
    for (const job of jobs) {
      const done = finished(job);
      if (!done && !listed(job.metadata.uid)) {
        if (!(await this.#listedNow(cj, job.metadata.uid))) this.#recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name ?? ''}`);
        continue;
      }
      if (!done) continue;
      if (listed(job.metadata.uid)) {
        status.active = (status.active ?? []).filter((a) => a.uid !== job.metadata.uid);
        this.#recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name ?? ''}, condition: ${done}`);
      }
      const completedAt = job.status?.completionTime;
      if (done === 'Complete' && completedAt && (!status.lastSuccessfulTime || Date.parse(completedAt) > Date.parse(status.lastSuccessfulTime))) status.lastSuccessfulTime = completedAt;
    }
    const children = new Set(jobs.map((j) => j.metadata.uid));
    for (const ref of status.active ?? []) {
      if (children.has(ref.uid) || (await this.#jobExists(ref.namespace ?? '', ref.name ?? ''))) continue;
      this.#recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`);
      status.active = (status.active ?? []).filter((a) => a.uid !== ref.uid);
    }
    if (status.active?.length === 0) delete status.active;
  }

  /** The CronJob as stored lists this Job: the cache had not yet seen our own status write. */
  async #listedNow(cj: ReadonlyCronJob, uid: string | undefined): Promise<boolean> {
    try {
      const fresh = await this.#o.client.get<CronJob>(refs.cronJobs, cj.metadata.namespace, cj.metadata.name ?? '');
      return (fresh.status?.active ?? []).some((a) => a.uid === uid);
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return false;
      throw error;
    }
  }

  async #jobExists(namespace: string, name: string): Promise<boolean> {
    try {
      await this.#o.client.get<Job>(refs.jobs, namespace, name);
      return true;
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return false;
      throw error;
    }
  }

  async #runDue(cj: ReadonlyCronJob, jobs: readonly ReadonlyJob[], status: NonNullable<CronJob['status']>, now: number): Promise<void> {
    const due = dueTimes(cj, now);
    if (!due) return;
    const key = keyOf(cj);
    this.#queue.addAfter(key, Math.max(0, due.next - now) + 100);
    if (due.scheduled === undefined) return;
    if (due.missed > tooManyMissed) this.#recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    const name = jobNameFor(cj, due.scheduled);
    if (status.active?.some((a) => a.name === name) || status.lastScheduleTime === formatTime(due.scheduled)) return;
    if (cj.spec.startingDeadlineSeconds !== undefined && due.scheduled + cj.spec.startingDeadlineSeconds * 1000 < now) {
      this.#recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${new Date(due.scheduled).toUTCString()}`);
      return;
    }
    const running = (status.active ?? []).length > 0;
    if (cj.spec.concurrencyPolicy === 'Forbid' && running) {
      this.#recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return;
    }
    if (cj.spec.concurrencyPolicy === 'Replace') {
      for (const ref of status.active ?? []) await this.#deleteJob(cj, ref.name ?? '');
      delete status.active;
    }
    const job = this.#jobFor(cj, name, due.scheduled);
    let created: Job;
    try {
      created = await this.#o.client.create<Job>(refs.jobs, job, { namespace: cj.metadata.namespace ?? '' });
      this.#recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'AlreadyExists')) {
        this.#recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
      const existing = jobs.find((j) => j.metadata.name === name);
      if (!existing) return;
      created = existing as Job;
    }
    status.active = [...(status.active ?? []), { apiVersion: 'batch/v1', kind: 'Job', name, namespace: cj.metadata.namespace ?? '', uid: created.metadata.uid ?? '', resourceVersion: created.metadata.resourceVersion ?? '' }];
    status.lastScheduleTime = formatTime(due.scheduled);
  }

  /** getJobFromTemplate2: the template's labels and annotations, the scheduled time, owned by the CronJob. */
  #jobFor(cj: ReadonlyCronJob, name: string, scheduled: number): Job {
    const template = copyJson(cj.spec.jobTemplate) as CronJob['spec']['jobTemplate'];
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cj.metadata.namespace ?? '',
        ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
        annotations: { ...template.metadata?.annotations, [cronJobScheduledTimestampAnnotation]: formatTime(scheduled) },
        ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
      },
      spec: template.spec,
    };
  }

  async #deleteJob(cj: ReadonlyCronJob, name: string): Promise<void> {
    try {
      await this.#o.client.delete(refs.jobs, cj.metadata.namespace, name, { propagationPolicy: 'Background' });
      this.#recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }

  /** cleanupFinishedJobs: the oldest finished Jobs beyond each history limit go. */
  async #cleanup(cj: ReadonlyCronJob, jobs: readonly ReadonlyJob[]): Promise<void> {
    const start = (j: ReadonlyJob): number => Date.parse(j.status?.startTime ?? j.metadata.creationTimestamp ?? '') || 0;
    for (const [kind, limit] of [['Complete', cj.spec.successfulJobsHistoryLimit ?? 3], ['Failed', cj.spec.failedJobsHistoryLimit ?? 1]] as const) {
      const done = jobs.filter((j) => finished(j) === kind && !j.metadata.deletionTimestamp).sort((a, b) => start(a) - start(b));
      for (const job of done.slice(0, Math.max(0, done.length - limit))) await this.#deleteJob(cj, job.metadata.name ?? '');
    }
  }
}
