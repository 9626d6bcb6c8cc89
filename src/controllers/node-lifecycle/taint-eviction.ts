// The taint-eviction controller: a pod on a node with NoExecute taints it does not tolerate is
// deleted at once; one that tolerates them for tolerationSeconds is deleted when the shortest runs
// out, with a DisruptionTarget condition first. Removing the taints cancels pending evictions.
// Upstream: pkg/controller/tainteviction/taint_eviction.go (separate controller since 1.29).
import { refs } from '../../api/index.ts';
import type { Node, Pod, Taint } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly, Timer } from '../../core/index.ts';
import { isApiError, jsonEqual, keyOf, splitObjectKey } from '../../core/index.ts';
import { eventRecorder } from './events.ts';
import type { RecordEvent } from './events.ts';
import { updatePodCondition } from './pod-conditions.ts';
import { matchingTolerations, minTolerationMs } from './taints.ts';

export interface TaintEvictionControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

export const taintEvictionControllerName = 'taint-eviction-controller';
const byNodeName = 'spec.nodeName';
const deleteRetries = 5;

interface ScheduledEviction {
  createdAt: number;
  fireAt: number;
  timer: Timer;
}

export class TaintEvictionController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #record: RecordEvent;
  readonly #nodes: Informer<Node>;
  readonly #pods: Informer<Pod>;
  readonly #nodeQueue: WorkQueue<string>;
  readonly #podQueue: WorkQueue<string>;
  /** nodeName -> its NoExecute taints (only tainted nodes). */
  readonly #taintedNodes = new Map<string, DeepReadonly<Taint>[]>();
  /** pod key -> the pending deletion (TimedWorkerQueue). */
  readonly #evictions = new Map<string, ScheduledEviction>();
  #stopped = false;

  constructor(options: TaintEvictionControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#record = eventRecorder({ client, clock, component: taintEvictionControllerName, log });
    this.#nodes = informerFor<Node>(options.informers, { client, clock, log, ref: refs.nodes });
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
    this.#pods.addIndex(byNodeName, (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    this.#nodeQueue = new WorkQueue<string>({ clock, baseDelayMs: 100 });
    this.#podQueue = new WorkQueue<string>({ clock, baseDelayMs: 100 });
    this.#nodes.addHandlers({
      onAdd: (n) => this.#nodeQueue.add(n.metadata.name ?? ''),
      onUpdate: (old, n) => {
        if (!jsonEqual(noExecute(old.spec?.taints), noExecute(n.spec?.taints))) this.#nodeQueue.add(n.metadata.name ?? '');
      },
      onDelete: (n) => this.#nodeQueue.add(n.metadata.name ?? ''),
    });
    this.#pods.addHandlers({
      onAdd: (p) => this.#podQueue.add(keyOf(p)),
      onUpdate: (old, p) => {
        if (old.spec?.nodeName !== p.spec?.nodeName || !jsonEqual(old.spec?.tolerations ?? [], p.spec?.tolerations ?? [])) this.#podQueue.add(keyOf(p));
      },
      onDelete: (p) => this.#podQueue.add(keyOf(p)),
    });
  }

  start(): void {
    this.#nodes.start();
    this.#pods.start();
    void (async () => {
      await Promise.all([this.#nodes.waitForSync(), this.#pods.waitForSync()]);
      if (this.#stopped) return;
      // Node updates first, so a pod is judged against its node's current taints.
      void runWorkers(this.#nodeQueue, 1, (name) => this.#handleNodeUpdate(name), this.#log);
      void runWorkers(this.#podQueue, 1, (key) => this.#handlePodUpdate(key), this.#log);
    })();
  }

  stop(): void {
    this.#stopped = true;
    for (const e of this.#evictions.values()) e.timer.cancel();
    this.#evictions.clear();
    this.#nodeQueue.shutDown();
    this.#podQueue.shutDown();
    this.#nodes.stop();
    this.#pods.stop();
  }

  /** When each pending eviction fires (ms), by pod key: for tests and the dashboard. */
  scheduledEvictions(): Map<string, number> {
    return new Map([...this.#evictions].map(([k, e]) => [k, e.fireAt]));
  }

  async #handleNodeUpdate(name: string): Promise<void> {
    const node = this.#nodes.getByName(undefined, name);
    if (!node) {
      this.#taintedNodes.delete(name);
      return;
    }
    const taints = noExecute(node.spec?.taints);
    if (taints.length === 0) this.#taintedNodes.delete(name);
    else this.#taintedNodes.set(name, taints);
    const pods = this.#pods.byIndex(byNodeName, name);
    if (taints.length === 0) {
      for (const pod of pods) this.#cancel(keyOf(pod));
      return;
    }
    const now = this.#clock.now();
    for (const pod of pods) this.#processPodOnNode(pod, taints, now);
  }

  async #handlePodUpdate(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const pod = this.#pods.getByName(namespace, name);
    if (!pod) {
      this.#cancel(key);
      return;
    }
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return;
    const taints = this.#taintedNodes.get(nodeName);
    if (!taints) return;
    this.#processPodOnNode(pod, taints, this.#clock.now());
  }

  #processPodOnNode(pod: DeepReadonly<Pod>, taints: readonly DeepReadonly<Taint>[], now: number): void {
    const key = keyOf(pod);
    if (taints.length === 0) this.#cancel(key);
    const { allTolerated, used } = matchingTolerations(taints, pod.spec?.tolerations ?? []);
    if (!allTolerated) {
      this.#cancel(key);
      this.#schedule(key, now, now);
      return;
    }
    const min = minTolerationMs(used);
    if (min < 0) {
      this.#cancel(key);
      return;
    }
    let start = now;
    const existing = this.#evictions.get(key);
    if (existing) {
      // An eviction scheduled earlier stands, whatever the new tolerations say (as upstream);
      // only one created in this same instant is replaced.
      start = existing.createdAt;
      if (start + min < now + min) return;
      this.#cancel(key);
    }
    this.#schedule(key, start, start + min);
  }

  #schedule(key: string, createdAt: number, fireAt: number): void {
    const timer = this.#clock.setTimer(fireAt, () => {
      if (this.#evictions.get(key)?.timer !== timer) return;
      this.#evictions.delete(key);
      void this.#evict(key);
    });
    this.#evictions.set(key, { createdAt, fireAt, timer });
  }

  #cancel(key: string): void {
    const e = this.#evictions.get(key);
    if (!e) return;
    e.timer.cancel();
    this.#evictions.delete(key);
    const { namespace, name } = splitObjectKey(key);
    this.#record({ kind: 'Pod', name, namespace }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  async #evict(key: string): Promise<void> {
    if (this.#stopped) return;
    const { namespace, name } = splitObjectKey(key);
    this.#record({ kind: 'Pod', name, namespace }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    for (let attempt = 0; attempt < deleteRetries; attempt++) {
      try {
        await this.#addConditionAndDeletePod(namespace, name);
        return;
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') return;
        if (attempt === deleteRetries - 1) this.#log(`${taintEvictionControllerName}: cannot delete pod ${key}: ${error instanceof Error ? error.message : String(error)}`);
        await this.#clock.sleep(10);
      }
    }
  }

  async #addConditionAndDeletePod(namespace: string, name: string): Promise<void> {
    const pod = await this.#client.get<Pod>(refs.pods, namespace, name);
    const conditions = updatePodCondition(
      pod.status?.conditions,
      { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' },
      this.#clock.now(),
    );
    if (conditions) await this.#client.updateStatus<Pod>(refs.pods, { ...pod, status: { ...pod.status, conditions } });
    await this.#client.delete(refs.pods, namespace, name);
  }
}

function noExecute(taints: readonly DeepReadonly<Taint>[] | undefined): DeepReadonly<Taint>[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}
