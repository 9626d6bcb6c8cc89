// Keeps the running kubelets in step with the desired nodes in the API: starts a kubelet for each
// node listed in kube-system/drydock-node-pools that has none, stops (and deletes the Node of) each
// kubelet no longer listed, and fails or heals kubelets as Nodes gain or lose sim.drydock.dev/fail.
// `drydock node add|remove|fail|heal` only write to the API; this is the cluster side.
import { refs } from '../api/index.ts';
import type { Node } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import { Informer, WorkQueue, runWorkers } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import type { NodePoolConfig } from './config.ts';
import { failAnnotation, initialPoolState, nodePoolsConfigMap, nodePoolsNamespace, parsePoolStates, poolStatesConfigMap, poolStatesData } from './node-pools.ts';
import type { PoolState, PoolsConfigMap } from './node-pools.ts';

/** What the controller needs from the kubelets (SimulatedNodes implements it through an adapter). */
export interface NodeFleet {
  has(name: string): boolean;
  names(): string[];
  /** Starts a kubelet for a new node of the pool; resolves once its Node is registered. */
  add(pool: PoolState['spec'], name: string): Promise<void>;
  /** Stops the kubelet and forgets it; the Node object is left to the caller. */
  remove(name: string): Promise<void> | void;
  /** The kubelet stops renewing its lease and posting status (a crashed or partitioned node). */
  fail(name: string): void;
  /** The kubelet resumes and reports Ready at once. */
  heal(name: string): void;
}

export interface NodePoolControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  pools: readonly NodePoolConfig[];
  fleet: NodeFleet;
}

const reconcileKey = 'reconcile';
const addBatch = 64;

export class NodePoolController {
  readonly #o: NodePoolControllerOptions;
  readonly #configMaps: Informer<PoolsConfigMap>;
  readonly #nodes: Informer<Node>;
  readonly #queue: WorkQueue<string>;
  readonly #failed = new Set<string>();

  constructor(options: NodePoolControllerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#configMaps = new Informer<PoolsConfigMap>({ client, clock, log, ref: refs.configMaps, namespace: nodePoolsNamespace, fieldSelector: `metadata.name=${nodePoolsConfigMap}` });
    this.#nodes = new Informer<Node>({ client, clock, log, ref: refs.nodes });
    this.#queue = new WorkQueue<string>({ clock, baseDelayMs: 200 });
    const enqueue = (): void => this.#queue.add(reconcileKey);
    this.#configMaps.addHandlers({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
    this.#nodes.addHandlers({
      onAdd: enqueue,
      onUpdate: (old, n) => {
        if (old.metadata.annotations?.[failAnnotation] !== n.metadata.annotations?.[failAnnotation]) enqueue();
      },
    });
  }

  /** Publishes the desired state (keeping what a previous run stored) and starts reconciling. */
  async start(): Promise<void> {
    await this.#publish();
    this.#configMaps.start();
    this.#nodes.start();
    await Promise.all([this.#configMaps.waitForSync(), this.#nodes.waitForSync()]);
    void runWorkers(this.#queue, 1, () => this.reconcile(), this.#o.log);
    this.#queue.add(reconcileKey);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#configMaps.stop();
    this.#nodes.stop();
  }

  async #publish(): Promise<void> {
    const { client } = this.#o;
    for (;;) {
      let existing: PoolsConfigMap | undefined;
      try {
        existing = await client.get<PoolsConfigMap>(refs.configMaps, nodePoolsNamespace, nodePoolsConfigMap);
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
      const states = parsePoolStates(existing);
      for (const pool of this.#o.pools) {
        const stored = states.get(pool.name);
        // The config wins for the pool's shape; a stored node list (a --data-dir restart) is kept.
        states.set(pool.name, stored ? { ...stored, spec: initialPoolState(pool).spec } : initialPoolState(pool));
      }
      try {
        if (existing) await client.update(refs.configMaps, { ...existing, data: poolStatesData(states) });
        else await client.create(refs.configMaps, poolStatesConfigMap(states), { namespace: nodePoolsNamespace });
        return;
      } catch (error) {
        if (isApiError(error) && (error.reason === 'Conflict' || error.reason === 'AlreadyExists')) continue;
        throw error;
      }
    }
  }

  /** One pass: start missing kubelets, stop unlisted ones, apply fail/heal (also callable from tests). */
  async reconcile(): Promise<void> {
    const { fleet, log } = this.#o;
    const cm = this.#configMaps.getByName(nodePoolsNamespace, nodePoolsConfigMap);
    // Without the ConfigMap (deleted by hand) nothing is known to be unwanted: leave the kubelets be.
    if (!cm) return;
    const states = parsePoolStates(cm, (pool) => log(`node-pools: ignoring malformed entry for pool ${pool} in ${nodePoolsNamespace}/${nodePoolsConfigMap}`));
    const wanted = new Map<string, PoolState>();
    for (const state of states.values()) for (const name of state.nodes) wanted.set(name, state);
    // Started 64 at a time, as the configured nodes are at cluster start: `node add --count 5000`
    // would otherwise wait out 5,000 registrations one after another.
    const missing = [...wanted].filter(([name]) => !fleet.has(name));
    for (let i = 0; i < missing.length; i += addBatch) {
      await Promise.all(missing.slice(i, i + addBatch).map(async ([name, state]) => {
        try {
          await fleet.add(state.spec, name);
          log(`node-pools: started kubelet for node ${name} (pool ${state.spec.name})`);
        } catch (error) {
          log(`node-pools: cannot start node ${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }));
    }
    for (const name of fleet.names()) {
      if (wanted.has(name)) continue;
      await fleet.remove(name);
      this.#failed.delete(name);
      await this.#deleteNode(name);
      log(`node-pools: removed node ${name}`);
    }
    for (const name of fleet.names()) {
      const failed = this.#nodes.getByName(undefined, name)?.metadata.annotations?.[failAnnotation] === 'true';
      if (failed && !this.#failed.has(name)) {
        fleet.fail(name);
        this.#failed.add(name);
      } else if (!failed && this.#failed.has(name)) {
        fleet.heal(name);
        this.#failed.delete(name);
      }
    }
  }

  async #deleteNode(name: string): Promise<void> {
    for (const [ref, namespace] of [[refs.nodes, undefined], [refs.leases, 'kube-node-lease']] as const) {
      try {
        await this.#o.client.delete(ref, namespace, name);
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
  }
}
