// The garbage collector: watches every listable resource (found through discovery, refreshed
// periodically so CRDs join), keeps the ownerReferences graph, and runs the attemptToDelete
// and attemptToOrphan workers that implement background, foreground and orphan propagation.
// Upstream: pkg/controller/garbagecollector/{garbagecollector.go,graph_builder.go} (monitors, workers).
import type { Clock, DeepReadonly, KubeObject, Timer } from '../../core/index.ts';
import type { Client, DiscoveredResource, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { DependencyGraph } from './graph.ts';
import type { GraphWork } from './graph.ts';
import { attemptToDeleteItem, attemptToOrphan } from './sync.ts';
import type { CollectorContext, ResolvedResource } from './sync.ts';

export interface GarbageCollectorOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Concurrent attemptToDelete workers (upstream --concurrent-gc-syncs, default 20). */
  workers?: number;
  /** How often discovery is re-read for new resources (upstream 30 s). */
  discoveryPeriodMs?: number;
  /**
   * The program's shared informers: each monitor is the informer the other controllers already watch
   * with (graph_builder.go's controllerFor asks kube-controller-manager's factory), not a second watch.
   */
  informers?: SharedInformers;
}

// Events are never owners or dependents worth collecting, as upstream's ignoredResources.
const ignored = new Set(['/events', 'events.k8s.io/events']);

export class GarbageCollector {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #workers: number;
  readonly #period: number;
  readonly #informers: SharedInformers | undefined;
  readonly #graph = new DependencyGraph();
  readonly #monitors = new Map<string, Informer>();
  /** group/kind → resource, and apiVersion/kind → resource. */
  readonly #kinds = new Map<string, ResolvedResource>();
  readonly #deleteQueue: WorkQueue<string>;
  readonly #orphanQueue: WorkQueue<string>;
  readonly #ctx: CollectorContext;
  /** Requeues of virtual nodes, for their backoff (the work queue forgets after each sync). */
  readonly #virtualRequeues = new Map<string, number>();
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: GarbageCollectorOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#workers = options.workers ?? 20;
    this.#period = options.discoveryPeriodMs ?? 30_000;
    this.#informers = options.informers;
    this.#deleteQueue = new WorkQueue<string>({ clock: options.clock });
    this.#orphanQueue = new WorkQueue<string>({ clock: options.clock });
    this.#ctx = {
      client: options.client,
      graph: this.#graph,
      resolve: (apiVersion, kind) => this.#resolve(apiVersion, kind),
      enqueue: (work) => this.#enqueue(work),
      log: options.log,
    };
  }

  start(): void {
    void this.#startMonitors().then(
      () => {
        if (this.#stopped) return;
        void runWorkers(this.#deleteQueue, this.#workers, (uid) => this.#runAttemptToDelete(uid), this.#log);
        void runWorkers(this.#orphanQueue, 1, (uid) => this.#runAttemptToOrphan(uid), this.#log);
      },
      (error: unknown) => this.#log(`garbage collector: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#deleteQueue.shutDown();
    this.#orphanQueue.shutDown();
    for (const m of this.#monitors.values()) m.stop();
  }

  /** Number of nodes in the dependency graph (for tests and metrics). */
  get graphSize(): number {
    return this.#graph.size;
  }

  async #startMonitors(): Promise<void> {
    await this.#syncMonitors();
    // Workers start once every initial monitor has listed, as upstream waits for graph sync.
    await Promise.all([...this.#monitors.values()].map((m) => m.waitForSync()));
    this.#scheduleResync();
  }

  #scheduleResync(): void {
    if (this.#stopped) return;
    this.#timer = this.#clock.after(this.#period, () => {
      void this.#syncMonitors()
        .catch((error: unknown) => this.#log(`garbage collector discovery: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => this.#scheduleResync());
    });
  }

  async #syncMonitors(): Promise<void> {
    const resources = await this.#client.discover();
    for (const r of resources) {
      const res: ResolvedResource = { ref: { group: r.group, version: r.version, resource: r.resource }, namespaced: r.namespaced };
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      this.#kinds.set(`${apiVersion}/${r.kind}`, res);
      if (!this.#kinds.has(`${r.group}//${r.kind}`)) this.#kinds.set(`${r.group}//${r.kind}`, res);
      if (this.#stopped || !isMonitored(r)) continue;
      const key = `${r.group}/${r.resource}`;
      if (this.#monitors.has(key)) continue;
      const informer = informerFor(this.#informers, { client: this.#client, ref: res.ref, clock: this.#clock, log: this.#log });
      informer.addHandlers({
        onAdd: (obj) => this.#enqueue(this.#graph.observe(obj as DeepReadonly<KubeObject>, apiVersion, r.kind)),
        onUpdate: (_old, obj) => this.#enqueue(this.#graph.observe(obj as DeepReadonly<KubeObject>, apiVersion, r.kind)),
        onDelete: (obj) => this.#enqueue(this.#graph.remove(obj.metadata.uid ?? '')),
      });
      this.#monitors.set(key, informer);
      informer.start();
    }
  }

  #resolve(apiVersion: string, kind: string): ResolvedResource | undefined {
    const exact = this.#kinds.get(`${apiVersion}/${kind}`);
    if (exact) return exact;
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    return this.#kinds.get(`${group}//${kind}`);
  }

  #enqueue(work: GraphWork): void {
    for (const n of work.attemptToDelete) this.#deleteQueue.add(n.identity.uid);
    for (const n of work.attemptToOrphan) this.#orphanQueue.add(n.identity.uid);
  }

  async #runAttemptToDelete(uid: string): Promise<void> {
    const node = this.#graph.get(uid);
    if (!node) return;
    const result = await attemptToDeleteItem(this.#ctx, node);
    // A virtual node's owner exists but is not observed yet: check again with backoff.
    if (result === 'requeue' && this.#graph.get(uid)?.virtual) {
      const n = this.#virtualRequeues.get(uid) ?? 0;
      this.#virtualRequeues.set(uid, n + 1);
      this.#deleteQueue.addAfter(uid, Math.min(5 * 2 ** n, 1_000_000));
      return;
    }
    this.#virtualRequeues.delete(uid);
  }

  async #runAttemptToOrphan(uid: string): Promise<void> {
    const node = this.#graph.get(uid);
    if (node) await attemptToOrphan(this.#ctx, node);
  }
}

function isMonitored(r: DiscoveredResource): boolean {
  return r.verbs.includes('list') && r.verbs.includes('watch') && r.verbs.includes('delete') && !ignored.has(`${r.group}/${r.resource}`);
}
