// The Deployment controller: rolls ReplicaSets to match each Deployment's template and
// replicas. Handlers map ReplicaSet and pod changes to their Deployment's key.
// Upstream: pkg/controller/deployment/deployment_controller.go (handlers, getDeploymentsForReplicaSet).
import { refs } from '../../api/index.ts';
import type { Deployment, Pod, ReplicaSet } from '../../api/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { jsonEqual, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { getControllerOf } from '../controller-ref.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { byController, byNamespace, orphansByNamespace, syncDeployment } from './sync.ts';
import type { DeploymentSyncContext } from './sync.ts';

export interface DeploymentControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Concurrent syncs (upstream --concurrent-deployment-syncs, default 5). */
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

type ReadonlyRS = DeepReadonly<ReplicaSet>;

export class DeploymentController {
  readonly #deployments: Informer<Deployment>;
  readonly #replicaSets: Informer<ReplicaSet>;
  readonly #pods: Informer<Pod>;
  readonly #queue: WorkQueue<string>;
  readonly #ctx: DeploymentSyncContext;
  readonly #workers: number;
  readonly #log: (line: string) => void;

  constructor(options: DeploymentControllerOptions) {
    const { client, clock, log } = options;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#deployments = informerFor<Deployment>(options.informers, { client, ref: refs.deployments, clock, log });
    this.#replicaSets = informerFor<ReplicaSet>(options.informers, { client, ref: refs.replicaSets, clock, log });
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    for (const inf of [this.#deployments, this.#replicaSets, this.#pods] as Informer<Deployment | ReplicaSet | Pod>[]) {
      inf.addIndex(byNamespace, (o) => [o.metadata.namespace ?? '']);
    }
    this.#replicaSets.addIndex(byController, (rs) => {
      const ref = getControllerOf(rs);
      return ref ? [ref.uid] : [];
    });
    this.#replicaSets.addIndex(orphansByNamespace, (rs) => (getControllerOf(rs) ? [] : [rs.metadata.namespace ?? '']));
    this.#queue = new WorkQueue<string>({ clock });
    this.#ctx = {
      client,
      clock,
      deployments: this.#deployments,
      replicaSets: this.#replicaSets,
      pods: this.#pods,
      recorder: createEventRecorder({ client, clock, component: 'deployment-controller', log, typeOf: () => ({ apiVersion: 'apps/v1', kind: 'Deployment' }) }),
      requeueAfter: (key, ms) => this.#queue.addAfter(key, ms),
      log,
    };
    this.#deployments.addHandlers({
      onAdd: (d) => this.#queue.add(keyOf(d)),
      onUpdate: (_old, d) => this.#queue.add(keyOf(d)),
      onDelete: (d) => this.#queue.add(keyOf(d)),
    });
    this.#replicaSets.addHandlers({
      onAdd: (rs) => this.#replicaSetChanged(undefined, rs),
      onUpdate: (old, rs) => this.#replicaSetChanged(old, rs),
      onDelete: (rs) => {
        const d = this.#resolve(rs.metadata.namespace, getControllerOf(rs));
        if (d) this.#queue.add(keyOf(d));
      },
    });
    // Recreate waits for old pods to vanish before scaling up the new ReplicaSet.
    this.#pods.addHandlers({ onDelete: (pod) => this.#podDeleted(pod) });
  }

  start(): void {
    for (const inf of [this.#deployments, this.#replicaSets, this.#pods]) inf.start();
    void Promise.all([this.#deployments.waitForSync(), this.#replicaSets.waitForSync(), this.#pods.waitForSync()]).then(() => {
      if (this.#queue.shuttingDown) return;
      void runWorkers(this.#queue, this.#workers, (key) => syncDeployment(this.#ctx, key), this.#log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    for (const inf of [this.#deployments, this.#replicaSets, this.#pods]) inf.stop();
  }

  #resolve(namespace: string | undefined, ref: ReturnType<typeof getControllerOf>): DeepReadonly<Deployment> | undefined {
    if (!ref || ref.kind !== 'Deployment' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const d = this.#deployments.getByName(namespace, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet: Deployments whose selector matches an orphan ReplicaSet. */
  #matching(rs: ReadonlyRS): DeepReadonly<Deployment>[] {
    return this.#deployments.byIndex(byNamespace, rs.metadata.namespace ?? '').filter((d) => {
      const selector = labelSelectorFromObject(d.spec.selector);
      return !('error' in selector) && !selector.empty && selector.matches(rs.metadata.labels);
    });
  }

  #replicaSetChanged(old: ReadonlyRS | undefined, rs: ReadonlyRS): void {
    if (old && old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
    const curRef = getControllerOf(rs);
    const oldRef = old ? getControllerOf(old) : undefined;
    if (oldRef && oldRef.uid !== curRef?.uid) {
      const d = this.#resolve(old?.metadata.namespace, oldRef);
      if (d) this.#queue.add(keyOf(d));
    }
    if (curRef) {
      const d = this.#resolve(rs.metadata.namespace, curRef);
      if (d) this.#queue.add(keyOf(d));
      return;
    }
    const labelsChanged = !old || !jsonEqual(old.metadata.labels ?? {}, rs.metadata.labels ?? {});
    if (labelsChanged || oldRef) for (const d of this.#matching(rs)) this.#queue.add(keyOf(d));
  }

  #podDeleted(pod: DeepReadonly<Pod>): void {
    const rsRef = getControllerOf(pod);
    if (!rsRef || rsRef.kind !== 'ReplicaSet') return;
    const rs = this.#replicaSets.getByName(pod.metadata.namespace, rsRef.name);
    if (!rs || rs.metadata.uid !== rsRef.uid) return;
    const d = this.#resolve(rs.metadata.namespace, getControllerOf(rs));
    if (d && d.spec.strategy?.type === 'Recreate') this.#queue.add(keyOf(d));
  }
}
