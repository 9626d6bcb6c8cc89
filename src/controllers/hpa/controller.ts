// The horizontal pod autoscaler controller: every HPA is reconciled 15 s after it is seen and
// every 15 s after each reconcile (upstream's fixed-interval rate limiter), with per-HPA
// recommendation and scale-event history kept in memory.
// Upstream: pkg/controller/podautoscaler/horizontal.go (NewHorizontalController, Run, reconcileKey).
import { refs } from '../../api/index.ts';
import type { HorizontalPodAutoscaler, Pod } from '../../api/index.ts';
import type { Client, DiscoveredResource, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import { keyOf } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { newHistory } from './normalize.ts';
import type { History } from './normalize.ts';
import { hpaRef, reconcileAutoscaler } from './sync.ts';

/** --horizontal-pod-autoscaler-sync-period. */
export const hpaSyncPeriodMs = 15_000;

export interface HorizontalControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  syncPeriodMs?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

export class HorizontalController {
  readonly #o: HorizontalControllerOptions;
  readonly #hpas: Informer<HorizontalPodAutoscaler>;
  readonly #pods: Informer<Pod>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;
  readonly #history = new Map<string, History>();
  #resources: DiscoveredResource[] | undefined;

  constructor(options: HorizontalControllerOptions) {
    this.#o = options;
    this.#hpas = informerFor<HorizontalPodAutoscaler>(options.informers, { client: options.client, ref: hpaRef, clock: options.clock, log: options.log });
    this.#pods = informerFor<Pod>(options.informers, { client: options.client, ref: refs.pods, clock: options.clock, log: options.log });
    this.#queue = new WorkQueue<string>({ clock: options.clock });
    this.#recorder = createEventRecorder({ client: options.client, clock: options.clock, component: 'horizontal-pod-autoscaler', log: options.log, typeOf: () => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' }) });
    const enqueue = (hpa: { metadata: { namespace?: string; name?: string } }): void => this.#queue.addAfter(keyOf(hpa), this.#period());
    this.#hpas.addHandlers({ onAdd: enqueue, onUpdate: (_old, hpa) => enqueue(hpa), onDelete: (hpa) => this.#history.delete(keyOf(hpa)) });
  }

  #period(): number {
    return this.#o.syncPeriodMs ?? hpaSyncPeriodMs;
  }

  start(): void {
    this.#hpas.start();
    this.#pods.start();
    void Promise.all([this.#hpas.waitForSync(), this.#pods.waitForSync()]).then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, 1, (key) => this.reconcileKey(key), this.#o.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#hpas.stop();
    this.#pods.stop();
  }

  async reconcileKey(key: string): Promise<void> {
    const hpa = this.#hpas.get(key);
    if (!hpa) {
      this.#history.delete(key);
      return;
    }
    try {
      await reconcileAutoscaler({
        client: this.#o.client,
        clock: this.#o.clock,
        pods: this.#pods,
        recorder: this.#recorder,
        history: (k) => {
          let h = this.#history.get(k);
          if (!h) this.#history.set(k, (h = newHistory()));
          return h;
        },
        discover: async (refresh) => (refresh || !this.#resources ? (this.#resources = await this.#o.client.discover()) : this.#resources),
      }, hpa, key);
    } catch (error) {
      // Upstream logs and requeues at the sync period either way; no backoff.
      this.#o.log(`horizontal-pod-autoscaler: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#queue.addAfter(key, this.#period());
    }
  }
}
