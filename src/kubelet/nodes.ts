// All the simulated nodes of a cluster: one kubelet per node of every pool (named <pool>-<index>),
// one pod informer shared by them (indexed by spec.nodeName), one Node informer that shows each
// kubelet its Node as others changed it, and the node -> kubelet registry the pod log route uses.
import { refs } from '../api/index.ts';
import type { EndpointSlice, FeatureGates, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod, resourceV1, Service } from '../api/index.ts';
import { endpointSliceServiceIndex, endpointSliceServiceKeys } from './cluster-dns.ts';
import { ServiceEnvironments } from './service-env.ts';
import { Informer } from '../client/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, KubeObject, Random } from '../core/index.ts';
import { Kubelet, nodeNameIndex } from './kubelet.ts';
import type { NodePoolSpec } from './node-object.ts';
import type { VolumeSources } from './volumes.ts';
import { slicePoolIndex, slicePoolKeys } from './dynamic-resources.ts';

/** node name -> kubelet, for the HTTP routes (logs, exec) that reach a node's kubelet. */
export class PodLogs {
  readonly #kubelets = new Map<string, Kubelet>();
  register(kubelet: Kubelet): void {
    this.#kubelets.set(kubelet.name, kubelet);
  }
  unregister(name: string): void {
    this.#kubelets.delete(name);
  }
  kubelet(node: string): Kubelet | undefined {
    return this.#kubelets.get(node);
  }
}

export interface SimulatedNodesOptions {
  /** Reads and the shared informers; a kubelet writes with clientForNode's client when there is one. */
  client: Client;
  /** The client a node's kubelet writes with, authenticated as that node (system:node:<name>). */
  clientForNode?: (node: string) => Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  pools: readonly (NodePoolSpec & { count: number })[];
  serverVersion: string;
  podLogs: PodLogs;
  /** The cluster's feature gates (the kubelets' config shows those set away from upstream's defaults). */
  featureGates?: FeatureGates;
}

export class SimulatedNodes {
  readonly #o: SimulatedNodesOptions;
  readonly #pods: Informer<Pod>;
  // The DNS view's informers are optional in VolumeSources (a kubelet built alone has none); here they are always made.
  readonly #volumeSources: VolumeSources & Required<Pick<VolumeSources, 'endpointSlices' | 'namespaces'>>;
  readonly #slices: Informer<resourceV1.ResourceSlice>;
  readonly #nodes: Informer<Node>;
  readonly #runtimeClasses: Informer<KubeObject & { handler?: string }>;
  readonly kubelets: Kubelet[] = [];
  readonly #byName = new Map<string, Kubelet>();
  #nextOrdinal = 0;

  private constructor(options: SimulatedNodesOptions) {
    this.#o = options;
    this.#pods = new Informer<Pod>({ client: options.client, ref: refs.pods, clock: options.clock, log: options.log });
    this.#pods.addIndex(nodeNameIndex, (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    const { client, clock, log } = options;
    const services = new Informer<Service>({ client, ref: refs.services, clock, log });
    const endpointSlices = new Informer<EndpointSlice>({ client, ref: refs.endpointSlices, clock, log });
    endpointSlices.addIndex(endpointSliceServiceIndex, endpointSliceServiceKeys);
    this.#volumeSources = {
      configMaps: new Informer({ client, ref: refs.configMaps, clock, log }),
      secrets: new Informer({ client, ref: refs.secrets, clock, log }),
      claims: new Informer<PersistentVolumeClaim>({ client, ref: refs.persistentVolumeClaims, clock, log }),
      volumes: new Informer<PersistentVolume>({ client, ref: refs.persistentVolumes, clock, log }),
      services,
      serviceEnv: new ServiceEnvironments(services),
      endpointSlices,
      namespaces: new Informer<Namespace>({ client, ref: refs.namespaces, clock, log }),
    };
    this.#slices = new Informer<resourceV1.ResourceSlice>({ client, ref: refs.resourceSlices, clock, log });
    this.#slices.addIndex(slicePoolIndex, slicePoolKeys);
    this.#nodes = new Informer<Node>({ client, ref: refs.nodes, clock, log });
    this.#runtimeClasses = new Informer({ client, ref: refs.runtimeClasses, clock, log });
  }

  /** Builds every kubelet first (a version-skew refusal throws before anything registers), then registers them. */
  static async start(options: SimulatedNodesOptions): Promise<SimulatedNodes> {
    const nodes = new SimulatedNodes(options);
    let ordinal = 0;
    for (const pool of options.pools) {
      for (let i = 0; i < pool.count; i++) {
        const name = `${pool.name}-${i}`;
        nodes.kubelets.push(new Kubelet({ ...options, client: options.clientForNode?.(name) ?? options.client, name, ordinal: ordinal++, pool, pods: nodes.#pods, volumeSources: nodes.#volumeSources, resourceSlices: nodes.#slices, runtimeClasses: nodes.#runtimeClasses }));
      }
    }
    const batch = 64;
    for (let i = 0; i < nodes.kubelets.length; i += batch) await Promise.all(nodes.kubelets.slice(i, i + batch).map((k) => k.start()));
    for (const k of nodes.kubelets) options.podLogs.register(k);
    nodes.#nextOrdinal = ordinal;
    const byName = nodes.#byName;
    for (const k of nodes.kubelets) byName.set(k.name, k);
    nodes.#pods.addHandlers({
      onAdd: (p) => (p.spec?.nodeName ? byName.get(p.spec.nodeName)?.podChanged(p) : undefined),
      onUpdate: (_old, p) => (p.spec?.nodeName ? byName.get(p.spec.nodeName)?.podChanged(p) : undefined),
      onDelete: (p) => (p.spec?.nodeName ? byName.get(p.spec.nodeName)?.podDeleted(p) : undefined),
    });
    const sourceDeleted = (kind: 'configMap' | 'secret') => (o: KubeObject): void => {
      for (const k of nodes.kubelets) k.volumeSourceDeleted(kind, o.metadata.namespace ?? '', o.metadata.name ?? '');
    };
    const sourceChanged = (kind: 'configMap' | 'secret') => (old: KubeObject): void => {
      for (const k of nodes.kubelets) k.volumeSourceChanged(kind, old);
    };
    nodes.#volumeSources.configMaps.addHandlers({ onUpdate: sourceChanged('configMap'), onDelete: sourceDeleted('configMap') });
    nodes.#volumeSources.secrets.addHandlers({ onUpdate: sourceChanged('secret'), onDelete: sourceDeleted('secret') });
    const nodeChanged = (n: Node): void => byName.get(n.metadata.name ?? '')?.nodeChanged(n);
    nodes.#nodes.addHandlers({ onAdd: nodeChanged, onUpdate: (_old, n) => nodeChanged(n) });
    const sources = nodes.#informers();
    for (const inf of sources) inf.start();
    await Promise.all(sources.map((inf) => inf.waitForSync()));
    nodes.#pods.start();
    await nodes.#pods.waitForSync();
    return nodes;
  }

  // Hook for drydock node add/remove (cluster/node-pool-controller.ts): nodes added and removed at run time.
  kubelet(name: string): Kubelet | undefined {
    return this.#byName.get(name);
  }

  /** Starts a kubelet for a node added at run time; pods already bound to it are handed over. */
  async addNode(pool: NodePoolSpec, name: string): Promise<Kubelet> {
    const existing = this.#byName.get(name);
    if (existing) return existing;
    const kubelet = new Kubelet({ ...this.#o, client: this.#o.clientForNode?.(name) ?? this.#o.client, name, ordinal: this.#nextOrdinal++, pool, pods: this.#pods, volumeSources: this.#volumeSources, resourceSlices: this.#slices, runtimeClasses: this.#runtimeClasses });
    await kubelet.start();
    this.kubelets.push(kubelet);
    this.#byName.set(name, kubelet);
    this.#o.podLogs.register(kubelet);
    const node = this.#nodes.getByName(undefined, name);
    if (node) kubelet.nodeChanged(node);
    for (const p of this.#pods.byIndex(nodeNameIndex, name)) kubelet.podChanged(p);
    return kubelet;
  }

  /** The shared informers besides the pods': started before the kubelets take pods, stopped with them. */
  #informers(): { start(): void; stop(): void; waitForSync(): Promise<void> }[] {
    const { configMaps, secrets, claims, volumes, services, endpointSlices, namespaces } = this.#volumeSources;
    return [configMaps, secrets, claims, volumes, services, endpointSlices, namespaces, this.#slices, this.#nodes, this.#runtimeClasses];
  }

  /** Stops a node's kubelet and forgets it (its Node and pods are left to the control plane). */
  removeNode(name: string): boolean {
    const kubelet = this.#byName.get(name);
    if (!kubelet) return false;
    kubelet.stop();
    this.#byName.delete(name);
    this.kubelets.splice(this.kubelets.indexOf(kubelet), 1);
    this.#o.podLogs.unregister(name);
    return true;
  }

  stop(): void {
    this.#pods.stop();
    for (const inf of this.#informers()) inf.stop();
    for (const k of this.kubelets) {
      k.stop();
      this.#o.podLogs.unregister(k.name);
    }
  }
}
