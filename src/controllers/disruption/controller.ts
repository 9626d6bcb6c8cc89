// The disruption controller: keeps each PodDisruptionBudget's status (expected, healthy, allowed
// disruptions) current from the pods it selects, so evictions (`kubectl drain`) can honour it.
// Upstream: pkg/controller/disruption/disruption.go (sync, trySync, getPodsForPdb, finders).
import { refs } from '../../api/index.ts';
import type { Deployment, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, ReplicaSet, ReplicationController, StatefulSet } from '../../api/index.ts';
import type { DeepReadonly, LabelSelector } from '../../core/index.ts';
import { copyJson, goLabelSelectorString, isApiError, jsonEqual, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { getControllerOf } from '../controller-ref.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { budgetStatus, deletionTimeoutMs, expectedCounts, failSafeStatus, pendingDisruptions } from './budget.ts';
import type { ScaleOf } from './budget.ts';

export type DisruptionControllerOptions = ControllerOptions;

type ReadonlyPod = DeepReadonly<Pod>;
const byNamespace = 'namespace';

export class DisruptionController {
  readonly #o: DisruptionControllerOptions;
  readonly #pdbs: Informer<PodDisruptionBudget>;
  readonly #pods: Informer<Pod>;
  readonly #replicaSets: Informer<ReplicaSet>;
  readonly #replicationControllers: Informer<ReplicationController>;
  readonly #deployments: Informer<Deployment>;
  readonly #statefulSets: Informer<StatefulSet>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;

  constructor(options: DisruptionControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#pdbs = informerFor<PodDisruptionBudget>(options.informers, { client, ref: refs.podDisruptionBudgets, clock, log });
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#replicaSets = informerFor<ReplicaSet>(options.informers, { client, ref: refs.replicaSets, clock, log });
    this.#replicationControllers = informerFor<ReplicationController>(options.informers, { client, ref: refs.replicationControllers, clock, log });
    this.#deployments = informerFor<Deployment>(options.informers, { client, ref: refs.deployments, clock, log });
    this.#statefulSets = informerFor<StatefulSet>(options.informers, { client, ref: refs.statefulSets, clock, log });
    this.#pdbs.addIndex(byNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#pods.addIndex(byNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#recorder = createEventRecorder({ client, clock, component: 'controllermanager', log, typeOf: () => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' }) });
    this.#pdbs.addHandlers({ onAdd: (p) => this.#queue.add(keyOf(p)), onUpdate: (_o, p) => this.#queue.add(keyOf(p)) });
    const podChanged = (pod: ReadonlyPod): void => {
      for (const pdb of this.#pdbs.byIndex(byNamespace, pod.metadata.namespace ?? '')) if (this.#selects(pdb, pod)) this.#queue.add(keyOf(pdb));
    };
    this.#pods.addHandlers({ onAdd: podChanged, onUpdate: (_o, p) => podChanged(p), onDelete: podChanged });
    // A scale change moves a maxUnavailable or percentage budget's expected count.
    const scaled = (obj: DeepReadonly<{ metadata: Pod['metadata'] }>): void => {
      for (const pdb of this.#pdbs.byIndex(byNamespace, obj.metadata.namespace ?? '')) this.#queue.add(keyOf(pdb));
    };
    for (const i of [this.#deployments, this.#statefulSets, this.#replicationControllers]) i.addHandlers({ onUpdate: (_o, x) => scaled(x) });
  }

  start(): void {
    runWhenSynced([this.#pdbs, this.#pods, this.#replicaSets, this.#replicationControllers, this.#deployments, this.#statefulSets], this.#queue, this.#o.workers ?? 2, (key) => this.#sync(key), this.#o.log);
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#pdbs, this.#pods, this.#replicaSets, this.#replicationControllers, this.#deployments, this.#statefulSets]) i.stop();
  }

  /** policy/v1: no selector selects nothing, an empty one every pod of the namespace. */
  #selects(pdb: DeepReadonly<PodDisruptionBudget>, pod: ReadonlyPod): boolean {
    if (!pdb.spec?.selector) return false;
    const selector = labelSelectorFromObject(pdb.spec.selector as unknown as LabelSelector);
    return !('error' in selector) && selector.matches(pod.metadata.labels);
  }

  /** The finders: a pod's ReplicationController, ReplicaSet (or the Deployment above it) or StatefulSet, and its replicas. */
  readonly #scaleOf: ScaleOf = (pod) => {
    const ref = getControllerOf(pod);
    if (!ref) return 'unmanaged';
    const ns = pod.metadata.namespace;
    if (ref.kind === 'ReplicationController') {
      const rc = this.#replicationControllers.getByName(ns, ref.name);
      if (rc && rc.metadata.uid === ref.uid) return { uid: rc.metadata.uid ?? '', replicas: rc.spec.replicas ?? 1 };
    }
    if (ref.kind === 'ReplicaSet') {
      const rs = this.#replicaSets.getByName(ns, ref.name);
      const owner = rs ? getControllerOf(rs) : undefined;
      const d = owner?.kind === 'Deployment' ? this.#deployments.getByName(ns, owner.name) : undefined;
      if (d && d.metadata.uid === owner?.uid) return { uid: d.metadata.uid ?? '', replicas: d.spec.replicas ?? 1 };
      if (rs && rs.metadata.uid === ref.uid) return { uid: rs.metadata.uid ?? '', replicas: rs.spec.replicas ?? 1 };
    }
    if (ref.kind === 'StatefulSet') {
      const sts = this.#statefulSets.getByName(ns, ref.name);
      if (sts && sts.metadata.uid === ref.uid) return { uid: sts.metadata.uid ?? '', replicas: sts.spec.replicas ?? 1 };
    }
    return 'missing';
  };

  /** sync and trySync: events first, then the status, or failSafe when the count cannot be had. */
  async #sync(key: string): Promise<void> {
    const pdb = this.#pdbs.get(key);
    if (!pdb || pdb.metadata.deletionTimestamp) return;
    const pods = this.#pods.byIndex(byNamespace, pdb.metadata.namespace ?? '').filter((p) => this.#selects(pdb, p));
    const now = this.#o.clock.now();
    if (pods.length === 0) this.#recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    const counts = expectedCounts(pdb, pods, this.#scaleOf);
    if ('error' in counts) {
      this.#recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${counts.error}`);
      return this.#write(key, pdb, failSafeStatus(pdb, counts.error, now));
    }
    if (counts.unmanaged.length > 0) {
      const selector = pdb.spec?.selector ? goLabelSelectorString(pdb.spec.selector) : 'nil';
      this.#recorder.event(pdb, 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${selector}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`);
    }
    // Upstream names the budget's namespace twice in this message.
    const ns = pdb.metadata.namespace ?? '';
    for (const pod of pendingDisruptions(pdb, pods, now).expired) this.#recorder.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NotDeleted', `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`);
    const status = budgetStatus(pdb, pods, counts, now);
    // Pending evictions age out: look again when the oldest would.
    if (status.disruptedPods) this.#queue.addAfter(key, deletionTimeoutMs);
    await this.#write(key, pdb, status);
  }

  async #write(key: string, pdb: DeepReadonly<PodDisruptionBudget>, status: PodDisruptionBudgetStatus): Promise<void> {
    if (jsonEqual(pdb.status ?? {}, status)) return;
    try {
      await this.#o.client.updateStatus(refs.podDisruptionBudgets, { ...(copyJson(pdb) as PodDisruptionBudget), status });
    } catch (error) {
      if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(key);
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
