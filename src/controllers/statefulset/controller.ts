// The StatefulSet controller: pods with stable names, hostnames and claims, created and replaced in
// ordinal order. Informer handlers only enqueue keys; syncStatefulSet does the work.
// Upstream: pkg/controller/statefulset/stateful_set.go (NewStatefulSetController, addPod, updatePod,
// deletePod, getStatefulSetsForPod, enqueueSSAfter for minReadySeconds).
import { refs } from '../../api/index.ts';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { jsonEqual, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { byController, orphansByNamespace, syncStatefulSet } from './sync.ts';
import type { StatefulSetSyncContext } from './sync.ts';

export interface StatefulSetControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Concurrent syncs (upstream --concurrent-statefulset-syncs, default 5). */
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlySet = DeepReadonly<StatefulSet>;

const byNamespace = 'namespace';
const controllerUid = (obj: { readonly metadata: DeepReadonly<Pod>['metadata'] }): string[] => {
  const ref = getControllerOf(obj);
  return ref ? [ref.uid] : [];
};

export class StatefulSetController {
  readonly #pods: Informer<Pod>;
  readonly #sets: Informer<StatefulSet>;
  readonly #revisions: Informer<ControllerRevision>;
  readonly #claims: Informer<PersistentVolumeClaim>;
  readonly #queue: WorkQueue<string>;
  readonly #ctx: StatefulSetSyncContext;
  readonly #workers: number;
  readonly #log: (line: string) => void;

  constructor(options: StatefulSetControllerOptions) {
    const { client, clock, log } = options;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#sets = informerFor<StatefulSet>(options.informers, { client, ref: refs.statefulSets, clock, log });
    this.#revisions = informerFor<ControllerRevision>(options.informers, { client, ref: refs.controllerRevisions, clock, log });
    this.#claims = informerFor<PersistentVolumeClaim>(options.informers, { client, ref: refs.persistentVolumeClaims, clock, log });
    this.#pods.addIndex(byController, controllerUid);
    this.#pods.addIndex(orphansByNamespace, (p) => (getControllerOf(p) ? [] : [p.metadata.namespace ?? '']));
    this.#revisions.addIndex(byController, controllerUid);
    this.#sets.addIndex(byNamespace, (s) => [s.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#ctx = {
      client,
      clock,
      pods: this.#pods,
      sets: this.#sets,
      revisions: this.#revisions,
      claims: this.#claims,
      recorder: createEventRecorder({ client, clock, component: 'statefulset-controller', log, typeOf: () => ({ apiVersion: 'apps/v1', kind: 'StatefulSet' }) }),
      requeueAfter: (key, ms) => this.#queue.addAfter(key, ms),
      log,
    };
    this.#sets.addHandlers({
      onAdd: (s) => this.#queue.add(keyOf(s)),
      onUpdate: (_old, s) => this.#queue.add(keyOf(s)),
      onDelete: (s) => this.#queue.add(keyOf(s)),
    });
    this.#pods.addHandlers({
      onAdd: (pod) => this.#podChanged(undefined, pod),
      onUpdate: (old, pod) => this.#podChanged(old, pod),
      onDelete: (pod) => this.#podChanged(undefined, pod),
    });
    const revisionChanged = (r: DeepReadonly<ControllerRevision>): void => {
      const set = this.#resolve(r.metadata.namespace, getControllerOf(r));
      if (set) this.#queue.add(keyOf(set));
    };
    this.#revisions.addHandlers({ onAdd: revisionChanged, onUpdate: (_old, r) => revisionChanged(r), onDelete: revisionChanged });
  }

  start(): void {
    const informers = [this.#pods, this.#sets, this.#revisions, this.#claims];
    for (const informer of informers) informer.start();
    void Promise.all(informers.map((i) => i.waitForSync())).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#workers, (key) => syncStatefulSet(this.#ctx, key), this.#log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    for (const informer of [this.#pods, this.#sets, this.#revisions, this.#claims]) informer.stop();
  }

  #resolve(namespace: string | undefined, ref: ReturnType<typeof getControllerOf>): ReadonlySet | undefined {
    if (!ref || ref.kind !== 'StatefulSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const set = this.#sets.getByName(namespace, ref.name);
    return set && set.metadata.uid === ref.uid ? set : undefined;
  }

  /** Owned pods enqueue their set; an orphan (or one just released) enqueues every set that selects it. */
  #podChanged(old: ReadonlyPod | undefined, pod: ReadonlyPod): void {
    if (old && old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const sets = new Set<ReadonlySet>();
    for (const p of old ? [old, pod] : [pod]) {
      const owner = this.#resolve(p.metadata.namespace, getControllerOf(p));
      if (owner) sets.add(owner);
    }
    const orphan = !getControllerOf(pod);
    if (orphan && (!old || getControllerOf(old) || !jsonEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {}))) {
      for (const set of this.#sets.byIndex(byNamespace, pod.metadata.namespace ?? '')) {
        const selector = labelSelectorFromObject(set.spec.selector);
        if (!('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels)) sets.add(set);
      }
    }
    for (const set of sets) this.#queue.add(keyOf(set));
  }
}
