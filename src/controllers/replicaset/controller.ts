// The ReplicaSet controller: keeps `spec.replicas` pods matching each ReplicaSet's selector.
// Informer handlers only enqueue keys and settle expectations; syncReplicaSet does the work.
// Upstream: pkg/controller/replicaset/replica_set.go (NewBaseController, add/update/deletePod).
import { refs } from '../../api/index.ts';
import type { Pod, ReplicaSet } from '../../api/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { ownedPodHandlers } from '../owned-pods.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { Expectations } from '../expectations.ts';
import { orphansByNamespace, podsByController, podsByNamespace, syncReplicaSet } from './sync.ts';
import type { ReplicaSetSyncContext } from './sync.ts';

export interface ReplicaSetControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Concurrent syncs (upstream --concurrent-replicaset-syncs, default 5). */
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

type ReadonlyPod = DeepReadonly<Pod>;

export class ReplicaSetController {
  readonly #pods: Informer<Pod>;
  readonly #replicaSets: Informer<ReplicaSet>;
  readonly #queue: WorkQueue<string>;
  readonly #expectations: Expectations;
  readonly #ctx: ReplicaSetSyncContext;
  readonly #workers: number;
  readonly #log: (line: string) => void;

  constructor(options: ReplicaSetControllerOptions) {
    const { client, clock, log } = options;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#replicaSets = informerFor<ReplicaSet>(options.informers, { client, ref: refs.replicaSets, clock, log });
    this.#pods.addIndex(podsByNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#pods.addIndex(podsByController, (p) => {
      const ref = getControllerOf(p);
      return ref ? [ref.uid] : [];
    });
    this.#pods.addIndex(orphansByNamespace, (p) => (getControllerOf(p) ? [] : [p.metadata.namespace ?? '']));
    this.#replicaSets.addIndex(podsByNamespace, (rs) => [rs.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#expectations = new Expectations(clock);
    this.#ctx = {
      client,
      clock,
      pods: this.#pods,
      replicaSets: this.#replicaSets,
      expectations: this.#expectations,
      recorder: createEventRecorder({ client, clock, component: 'replicaset-controller', log, typeOf: () => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }) }),
      requeueAfter: (key, ms) => this.#queue.addAfter(key, ms),
      log,
    };
    this.#replicaSets.addHandlers({
      onAdd: (rs) => this.#queue.add(keyOf(rs)),
      onUpdate: (_old, rs) => this.#queue.add(keyOf(rs)),
      onDelete: (rs) => {
        this.#expectations.delete(keyOf(rs));
        this.#queue.add(keyOf(rs));
      },
    });
    this.#pods.addHandlers(
      ownedPodHandlers({
        resolve: (namespace, ref) => this.#resolve(namespace, ref),
        selecting: (pod) => this.#matching(pod),
        enqueue: (rs) => this.#queue.add(keyOf(rs)),
        expectations: this.#expectations,
      }),
    );
  }

  start(): void {
    this.#pods.start();
    this.#replicaSets.start();
    void Promise.all([this.#pods.waitForSync(), this.#replicaSets.waitForSync()]).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#workers, (key) => syncReplicaSet(this.#ctx, key), this.#log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#pods.stop();
    this.#replicaSets.stop();
  }

  /** The ReplicaSet a controllerRef names, if it is one of ours (uid checked). */
  #resolve(namespace: string | undefined, ref: ReturnType<typeof getControllerOf>): DeepReadonly<ReplicaSet> | undefined {
    if (!ref || ref.kind !== 'ReplicaSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const rs = this.#replicaSets.getByName(namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets: ReplicaSets whose selector matches an orphan pod. */
  #matching(pod: ReadonlyPod): DeepReadonly<ReplicaSet>[] {
    return this.#replicaSets.byIndex(podsByNamespace, pod.metadata.namespace ?? '').filter((rs) => {
      const selector = labelSelectorFromObject(rs.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels);
    });
  }
}
