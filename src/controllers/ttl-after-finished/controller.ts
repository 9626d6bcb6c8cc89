// The TTL-after-finished controller: deletes finished Jobs ttlSecondsAfterFinished after
// their Complete/Failed condition, in the foreground so their pods go first.
// Upstream: pkg/controller/ttlafterfinished/ttlafterfinished_controller.go.
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { keyOf } from '../../core/index.ts';
import type { Job } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import { syncTtlJob } from './sync.ts';
import { needsCleanup } from './ttl.ts';

export interface TtlAfterFinishedControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

export class TtlAfterFinishedController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #jobs: Informer<Job>;
  readonly #queue: WorkQueue<string>;

  constructor(options: TtlAfterFinishedControllerOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#jobs = informerFor<Job>(options.informers, { client: options.client, ref: refs.jobs, clock: options.clock, log: options.log });
    this.#queue = new WorkQueue<string>({ clock: options.clock, baseDelayMs: 5 });
    const enqueue = (job: DeepReadonly<Job>): void => {
      if (!job.metadata.deletionTimestamp && needsCleanup(job)) this.#queue.add(keyOf(job));
    };
    this.#jobs.addHandlers({ onAdd: enqueue, onUpdate: (_old, job) => enqueue(job) });
  }

  start(): void {
    this.#jobs.start();
    void this.#jobs.waitForSync().then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, 1, (key) => this.syncJob(key), this.#log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#jobs.stop();
  }

  syncJob(key: string): Promise<void> {
    return syncTtlJob({ client: this.#client, clock: this.#clock, jobs: this.#jobs, requeueAfter: (ms) => this.#queue.addAfter(key, ms) }, key);
  }
}
