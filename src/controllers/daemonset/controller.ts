// The DaemonSet controller: one daemon pod on every node that should run it. Informer handlers only
// enqueue keys and settle expectations; syncDaemonSet does the work.
// Upstream: pkg/controller/daemon/daemon_controller.go (NewDaemonSetsController, add/update/deletePod,
// addNode, updateNode, shouldIgnoreNodeUpdate), update.go (addHistory and friends).
import { refs } from '../../api/index.ts';
import type { ControllerRevision, DaemonSet, Node, Pod } from '../../api/index.ts';
import type { DeepReadonly, KubeObject } from '../../core/index.ts';
import { jsonEqual, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { indexOwnedPods, ownedPodHandlers } from '../owned-pods.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { Expectations } from '../expectations.ts';
import { nodeShouldRunDaemonPod } from './placement.ts';
import type { FailedPodBackoff } from './plan.ts';
import { byController, byNamespace, syncDaemonSet } from './sync.ts';
import type { DaemonSetSyncContext } from './sync.ts';

export type DaemonSetControllerOptions = ControllerOptions;

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyDS = DeepReadonly<DaemonSet>;

/** flowcontrol.NewBackOff(1s, 15m) keyed by DaemonSet and node: how often a failed daemon pod is replaced. */
function failedPodBackoff(): FailedPodBackoff {
  const entries = new Map<string, { delayMs: number; at: number }>();
  const initialMs = 1000;
  const maxMs = 15 * 60 * 1000;
  return {
    remaining(key, now) {
      const e = entries.get(key);
      return e ? Math.max(0, e.at + e.delayMs - now) : 0;
    },
    next(key, now) {
      const e = entries.get(key);
      // An entry idle for twice the maximum starts over, as flowcontrol's GC does.
      const delayMs = e && now - e.at <= 2 * maxMs ? Math.min(e.delayMs * 2, maxMs) : initialMs;
      entries.set(key, { delayMs, at: now });
    },
  };
}

const controllerKey = (obj: { readonly metadata: DeepReadonly<KubeObject['metadata']> }): string[] => {
  const ref = getControllerOf(obj);
  return ref ? [ref.uid] : [];
};

export class DaemonSetController {
  readonly #pods: Informer<Pod>;
  readonly #nodes: Informer<Node>;
  readonly #daemonSets: Informer<DaemonSet>;
  readonly #revisions: Informer<ControllerRevision>;
  readonly #queue: WorkQueue<string>;
  readonly #expectations: Expectations;
  readonly #ctx: DaemonSetSyncContext;
  readonly #workers: number;
  readonly #log: (line: string) => void;

  constructor(options: DaemonSetControllerOptions) {
    const { client, clock, log } = options;
    this.#log = log;
    this.#workers = options.workers ?? 2;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#nodes = informerFor<Node>(options.informers, { client, ref: refs.nodes, clock, log });
    this.#daemonSets = informerFor<DaemonSet>(options.informers, { client, ref: refs.daemonSets, clock, log });
    this.#revisions = informerFor<ControllerRevision>(options.informers, { client, ref: refs.controllerRevisions, clock, log });
    indexOwnedPods(this.#pods);
    this.#revisions.addIndex(byController, controllerKey);
    this.#daemonSets.addIndex(byNamespace, (ds) => [ds.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#expectations = new Expectations(clock);
    this.#ctx = {
      client,
      clock,
      pods: this.#pods,
      nodes: this.#nodes,
      daemonSets: this.#daemonSets,
      revisions: this.#revisions,
      expectations: this.#expectations,
      recorder: createEventRecorder({ client, clock, component: 'daemonset-controller', log, typeOf: () => ({ apiVersion: 'apps/v1', kind: 'DaemonSet' }) }),
      backoff: failedPodBackoff(),
      requeueAfter: (key, ms) => this.#queue.addAfter(key, ms),
      log,
    };
    this.#daemonSets.addHandlers({
      onAdd: (ds) => this.#queue.add(keyOf(ds)),
      onUpdate: (_old, ds) => this.#queue.add(keyOf(ds)),
      onDelete: (ds) => {
        this.#expectations.delete(keyOf(ds));
        this.#queue.add(keyOf(ds));
      },
    });
    this.#pods.addHandlers(
      ownedPodHandlers({
        resolve: (namespace, ref) => this.#resolve(namespace, ref),
        selecting: (pod) => this.#matching(pod),
        enqueue: (ds) => this.#queue.add(keyOf(ds)),
        expectations: this.#expectations,
      }),
    );
    this.#nodes.addHandlers({
      onAdd: (node) => this.#nodeChanged(undefined, node),
      onUpdate: (old, node) => this.#nodeChanged(old, node),
    });
    const revisionChanged = (r: DeepReadonly<ControllerRevision>): void => {
      const ds = this.#resolve(r.metadata.namespace, getControllerOf(r));
      if (ds) this.#queue.add(keyOf(ds));
    };
    this.#revisions.addHandlers({ onAdd: revisionChanged, onUpdate: (_old, r) => revisionChanged(r), onDelete: revisionChanged });
  }

  start(): void {
    for (const informer of [this.#pods, this.#nodes, this.#daemonSets, this.#revisions]) informer.start();
    void Promise.all([this.#pods.waitForSync(), this.#nodes.waitForSync(), this.#daemonSets.waitForSync(), this.#revisions.waitForSync()]).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#workers, (key) => syncDaemonSet(this.#ctx, key), this.#log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    for (const informer of [this.#pods, this.#nodes, this.#daemonSets, this.#revisions]) informer.stop();
  }

  #resolve(namespace: string | undefined, ref: ReturnType<typeof getControllerOf>): ReadonlyDS | undefined {
    if (!ref || ref.kind !== 'DaemonSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const ds = this.#daemonSets.getByName(namespace, ref.name);
    return ds && ds.metadata.uid === ref.uid ? ds : undefined;
  }

  /** getDaemonSetsForPod: the DaemonSets whose selector matches an orphan. */
  #matching(pod: ReadonlyPod): ReadonlyDS[] {
    return this.#daemonSets.byIndex(byNamespace, pod.metadata.namespace ?? '').filter((ds) => {
      const selector = labelSelectorFromObject(ds.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels);
    });
  }

  /** Only label and taint changes can change where daemon pods belong (shouldIgnoreNodeUpdate). */
  #nodeChanged(old: DeepReadonly<Node> | undefined, node: DeepReadonly<Node>): void {
    if (old && jsonEqual(old.metadata.labels ?? {}, node.metadata.labels ?? {}) && jsonEqual(old.spec?.taints ?? [], node.spec?.taints ?? [])) return;
    for (const ds of this.#daemonSets.list()) {
      if (!old || !jsonEqual(nodeShouldRunDaemonPod(old, ds), nodeShouldRunDaemonPod(node, ds))) this.#queue.add(keyOf(ds));
    }
  }
}
