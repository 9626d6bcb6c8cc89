// The StatefulSet controller: pods with stable names, hostnames and claims, created and replaced in
// ordinal order. Informer handlers only enqueue keys; syncStatefulSet does the work.
// Upstream: pkg/controller/statefulset/stateful_set.go (NewStatefulSetController, addPod, updatePod,
// deletePod, getStatefulSetsForPod, enqueueSSAfter for minReadySeconds).
import { refs } from '../../api/index.ts';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { indexOwnedPods, ownedPodHandlers } from '../owned-pods.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { byController, syncStatefulSet } from './sync.ts';
import type { StatefulSetSyncContext } from './sync.ts';

export type StatefulSetControllerOptions = ControllerOptions;

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
    indexOwnedPods(this.#pods);
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
    this.#pods.addHandlers(
      ownedPodHandlers({
        resolve: (namespace, ref) => this.#resolve(namespace, ref),
        selecting: (pod) => this.#matching(pod),
        enqueue: (set) => this.#queue.add(keyOf(set)),
      }),
    );
    const revisionChanged = (r: DeepReadonly<ControllerRevision>): void => {
      const set = this.#resolve(r.metadata.namespace, getControllerOf(r));
      if (set) this.#queue.add(keyOf(set));
    };
    this.#revisions.addHandlers({ onAdd: revisionChanged, onUpdate: (_old, r) => revisionChanged(r), onDelete: revisionChanged });
  }

  start(): void {
    runWhenSynced([this.#pods, this.#sets, this.#revisions, this.#claims], this.#queue, this.#workers, (key) => syncStatefulSet(this.#ctx, key), this.#log);
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

  /** getStatefulSetsForPod: the sets whose selector takes an orphan. */
  #matching(pod: ReadonlyPod): ReadonlySet[] {
    return this.#sets.byIndex(byNamespace, pod.metadata.namespace ?? '').filter((set) => {
      const selector = labelSelectorFromObject(set.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(pod.metadata.labels);
    });
  }
}
