// The ReplicaSet controller: keeps `spec.replicas` pods matching each ReplicaSet's selector; the
// same controller over ReplicationControllers is the replication manager.
// Informer handlers only enqueue keys and settle expectations; syncReplicaSet does the work.
// Upstream: pkg/controller/replicaset/replica_set.go (NewBaseController, add/update/deletePod).
import { refs } from '../../api/index.ts';
import type { Pod, ReplicaSet } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { ownedPodHandlers } from '../owned-pods.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { Expectations } from '../expectations.ts';
import { orphansByNamespace, podsByController, podsByNamespace, syncReplicaSet } from './sync.ts';
import type { ReplicaSetLister, ReplicaSetSyncContext } from './sync.ts';
import { replicaSetKind, replicationControllerKind } from './replicated-kind.ts';
import type { ReplicatedKind } from './replicated-kind.ts';

export interface ReplicaSetControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Concurrent syncs (upstream --concurrent-replicaset-syncs, default 5). */
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
  /** The kind kept at its replica count: ReplicaSets unless told. */
  kind?: ReplicatedKind;
}

type ReadonlyPod = DeepReadonly<Pod>;

export class ReplicaSetController {
  readonly #pods: Informer<Pod>;
  readonly #replicaSets: Informer<KubeObject>;
  readonly #kind: ReplicatedKind;
  readonly #views: ReplicaSetLister;
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
    const kind = (this.#kind = options.kind ?? replicaSetKind);
    this.#replicaSets = informerFor<KubeObject>(options.informers, { client, ref: kind.ref, clock, log });
    const cached = this.#replicaSets;
    this.#views = kind === replicaSetKind ? (cached as unknown as ReplicaSetLister) : { get: (key) => viewOf(kind, cached.get(key)), list: () => cached.list().map((o) => kind.view(o)) };
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
      kind,
      replicaSets: this.#views,
      expectations: this.#expectations,
      recorder: createEventRecorder({ client, clock, component: kind.component, log, typeOf: () => ({ apiVersion: kind.apiVersion, kind: kind.kind }) }),
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
    const kind = this.#kind;
    if (!ref || ref.kind !== kind.kind || groupOf(ref.apiVersion) !== groupOf(kind.apiVersion)) return undefined;
    const rs = this.#replicaSets.getByName(namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? kind.view(rs) : undefined;
  }

  /** getPodReplicaSets: ReplicaSets whose selector matches an orphan pod. */
  #matching(pod: ReadonlyPod): DeepReadonly<ReplicaSet>[] {
    const candidates = this.#replicaSets.byIndex(podsByNamespace, pod.metadata.namespace ?? '').map((o) => this.#kind.view(o));
    return candidates.filter((rs) => {
      const selector = labelSelectorFromObject(rs.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels);
    });
  }
}

/** The replication manager: the ReplicaSet controller over ReplicationControllers. */
export class ReplicationManager extends ReplicaSetController {
  constructor(options: Omit<ReplicaSetControllerOptions, 'kind'>) {
    super({ ...options, kind: replicationControllerKind });
  }
}

function viewOf(kind: ReplicatedKind, obj: KubeObject | undefined): ReplicaSet | undefined {
  return obj && kind.view(obj);
}

/** The group of an apiVersion: a controllerRef from another version of the group still counts. */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
