// The node half of a kubelet: registers the Node, renews its Lease in kube-node-lease every 10 s and
// posts node status only when its setters change it (checked every 10 s against the Node as last
// seen) or every 5 minutes, so thousands of nodes stay cheap.
// Upstream: pkg/kubelet/kubelet_node_status.go, pkg/kubelet/nodelease (controller.go), nodestatus/setters.go.
import type { PartitionGate } from './partition.ts';
import { refs } from '../api/index.ts';
import type { Lease, Node, NodeCondition } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, Random, Timer } from '../core/index.ts';
import { formatMicroTime, isApiError, lookupTable } from '../core/index.ts';
import { buildNode, kubeletNodeStatus, nodeStatusChanged } from './node-object.ts';
import type { NodeIdentity, NodeImages, NodePressure } from './node-object.ts';

export const nodeLeaseNamespace = 'kube-node-lease';
const migratedPluginsAnnotation = 'storage.alpha.kubernetes.io/migrated-plugins';
/** Every in-tree plugin with CSI migration on in 1.35 (Portworx's since 1.31), sorted as the kubelet joins them. */
const migratedPlugins = ['aws-ebs', 'azure-disk', 'azure-file', 'cinder', 'gce-pd', 'portworx-volume', 'vsphere-volume'].map((p) => `kubernetes.io/${p}`).join(',');
export const nodeLeaseDurationSeconds = 40;
/** Renew interval: NodeLeaseDurationSeconds * 0.25. */
export const leaseRenewIntervalMs = 10_000;
export const nodeStatusUpdateFrequencyMs = 10_000;
export const nodeStatusReportFrequencyMs = 5 * 60_000;

export interface NodeAgentOptions {
  client: Client;
  clock: Clock;
  identity: NodeIdentity;
  log: (line: string) => void;
  /** Closed while the node is failed: the kubelet's other writes wait (see partition.ts). */
  partition?: PartitionGate;
  /** Jitters the lease renewals as upstream does; without it they come exactly every 10 s. */
  random?: Random;
  /** Where the kubelet's events about its Node go. */
  events?: { recordNode(type: 'Normal' | 'Warning', reason: string, message: string): void };
}

/**
 * The event each kubelet-owned condition's setter records when it moves to the healthy status. Looked
 * up by every condition's type, others' kept ones too: without a prototype, `toString` finds nothing.
 */
const healthyConditionEvents: Readonly<Record<string, string>> = lookupTable({
  MemoryPressure: 'NodeHasSufficientMemory',
  DiskPressure: 'NodeHasNoDiskPressure',
  PIDPressure: 'NodeHasSufficientPID',
});
/** The event a pressure condition's setter records when it turns True. */
const pressureConditionEvents: Readonly<Record<string, string>> = lookupTable({
  MemoryPressure: 'NodeHasInsufficientMemory',
  DiskPressure: 'NodeHasDiskPressure',
  PIDPressure: 'NodeHasInsufficientPID',
});

/**
 * The wait before a loop's next tick: both node loops run under wait.JitterUntil(f, interval, 0.04,
 * sliding), so each wait is the interval plus up to 4%. Upstream: component-helpers/apimachinery/
 * lease/controller.go (Run) for the lease, pkg/kubelet/kubelet.go (Run) for syncNodeStatus.
 */
export function jitteredWaitMs(intervalMs: number, random: Random | undefined): number {
  return intervalMs + (random ? random.float() * 0.04 * intervalMs : 0);
}

/**
 * The wait before a loop's first tick after registration: a random point of one interval. Real
 * kubelets join at different moments, so their 10 s loops are out of phase; simulated nodes all
 * register within a few milliseconds of each other, and without this 1,000 of them would renew in
 * one burst every 10 s (and post the 5-minute status report together), stalling every other write
 * behind ~1,000 lease updates. Renewals stay at most one interval (plus jitter) apart.
 */
export function firstTickWaitMs(intervalMs: number, random: Random | undefined): number {
  return random ? Math.max(1, Math.floor(random.float() * intervalMs)) : intervalMs;
}

export class NodeAgent {
  readonly #o: NodeAgentOptions;
  #node: Node | undefined;
  #lastUnschedulable = false;
  #lease: Lease | undefined;
  #leaseTimer: Timer | undefined;
  #statusTimer: Timer | undefined;
  #lastStatusWrite = 0;
  /** The Node last found to need no status write: unchanged since, it needs none still (heartbeats aside). */
  #settledNode: Node | undefined;
  #stopped = false;
  /** A failed node stops renewing its lease and posting status (drydock node fail). */
  #failed = false;
  /** The eviction manager's verdict, which the MemoryPressure setter reports at the next status check. */
  #pressure: NodePressure = { memory: false };
  /** The images on the node, as the Images setter reports them at the next status check. */
  #images: NodeImages = [];

  constructor(options: NodeAgentOptions) {
    this.#o = options;
  }

  /** The Node as last written or seen, whichever is newer: the user's labels, others' capacity. */
  get node(): Node | undefined {
    return this.#node;
  }

  /** The Node as the kubelet's informer sees it (a user's label, an advertised extended resource). */
  observe(node: Node): void {
    if (this.#node && revisionOf(this.#node) >= revisionOf(node)) return;
    this.#node = node;
  }

  /** Creates the Node (or takes over an existing one) and the first Lease, then starts the loops. */
  async register(): Promise<Node> {
    const { client, clock, identity } = this.#o;
    const wanted = buildNode(identity, clock.now());
    // Kubelet.Run and the container manager's start, before the first status.
    this.#o.events?.recordNode('Normal', 'Starting', 'Starting kubelet.');
    this.#o.events?.recordNode('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    let before: Node['status'] | undefined;
    try {
      this.#node = await client.create<Node>(refs.nodes, wanted);
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'AlreadyExists') throw error;
      // A restart with --data-dir: keep the object, refresh what the kubelet owns.
      const existing = await client.get<Node>(refs.nodes, undefined, identity.name);
      before = existing.status;
      this.#node = await client.updateStatus<Node>(refs.nodes, { ...existing, status: kubeletNodeStatus(identity, clock.now(), existing.status, this.#pressure, this.#images) });
    }
    this.#recordTransitions(before?.conditions, this.#node.status?.conditions);
    await this.#initializeCSINode(this.#node);
    this.#lastStatusWrite = clock.now();
    await this.#renewLease();
    this.#leaseTimer = clock.after(firstTickWaitMs(leaseRenewIntervalMs, this.#o.random), () => this.#leaseTick());
    this.#statusTimer = clock.after(firstTickWaitMs(nodeStatusUpdateFrequencyMs, this.#o.random), () => this.#statusTick());
    return this.#node;
  }

  /**
   * The CSI plugin manager's CSINode for this node: no drivers register on a simulated node, and the
   * in-tree plugins whose CSI migration is on are named in the annotation, as kubelets write it.
   * Upstream: pkg/volume/csi/csi_plugin.go (migratedPlugins), nodeinfomanager.go (InitializeCSINodeWithAnnotation).
   */
  async #initializeCSINode(node: Node): Promise<void> {
    const name = this.#o.identity.name;
    const csiNode = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name, annotations: { [migratedPluginsAnnotation]: migratedPlugins }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }] },
      spec: { drivers: null },
    };
    try {
      await this.#o.client.create(refs.csiNodes, csiNode);
    } catch (error) {
      // A restart with --data-dir finds it in place.
      if (!isApiError(error) || error.reason !== 'AlreadyExists') throw error;
    }
  }

  /** The eviction manager saw memory pressure begin or end. */
  setMemoryPressure(underPressure: boolean): void {
    this.#pressure = { memory: underPressure };
    this.#settledNode = undefined;
  }

  /** An image came to the node. */
  setImages(images: NodeImages): void {
    this.#images = images;
    this.#settledNode = undefined;
  }

  fail(): void {
    this.#failed = true;
    this.#o.partition?.close();
  }

  heal(): void {
    if (!this.#failed) return;
    this.#failed = false;
    this.#o.partition?.open();
    // Hook for drydock node heal: the node controller set Ready=Unknown meanwhile; report Ready now
    // (upstream's 10 s status loop would, as the status differs from the server's).
    if (this.#stopped) return;
    this.#renewLease()
      .then(() => this.#postStatus())
      .catch((error: unknown) => this.#o.log(`kubelet ${this.#o.identity.name}: failed to update node status: ${String(error)}`));
  }

  stop(): void {
    this.#stopped = true;
    this.#leaseTimer?.cancel();
    this.#statusTimer?.cancel();
  }

  #leaseTick(): void {
    if (this.#stopped) return;
    const next = (): void => {
      if (!this.#stopped) this.#leaseTimer = this.#o.clock.after(jitteredWaitMs(leaseRenewIntervalMs, this.#o.random), () => this.#leaseTick());
    };
    if (this.#failed) return next();
    this.#renewLease().then(next, (error: unknown) => {
      this.#o.log(`kubelet ${this.#o.identity.name}: failed to renew lease: ${String(error)}`);
      next();
    });
  }

  async #renewLease(): Promise<void> {
    const { client, clock, identity } = this.#o;
    const renewTime = formatMicroTime(clock.now());
    if (this.#lease) {
      try {
        this.#lease = await client.update<Lease>(refs.leases, { ...this.#lease, spec: { ...this.#lease.spec, renewTime } });
        return;
      } catch (error) {
        if (!isApiError(error) || (error.reason !== 'Conflict' && error.reason !== 'NotFound')) throw error;
        this.#lease = undefined;
      }
    }
    try {
      const current = await client.get<Lease>(refs.leases, nodeLeaseNamespace, identity.name);
      this.#lease = await client.update<Lease>(refs.leases, { ...current, spec: { ...current.spec, holderIdentity: identity.name, leaseDurationSeconds: nodeLeaseDurationSeconds, renewTime } });
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'NotFound') throw error;
      const node = this.#node;
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: identity.name,
          namespace: nodeLeaseNamespace,
          ...(node?.metadata.uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: identity.name, uid: node.metadata.uid }] } : {}),
        },
        spec: { holderIdentity: identity.name, leaseDurationSeconds: nodeLeaseDurationSeconds, renewTime },
      };
      this.#lease = await client.create<Lease>(refs.leases, lease);
    }
  }

  #statusTick(): void {
    if (this.#stopped) return;
    const next = (): void => {
      if (!this.#stopped) this.#statusTimer = this.#o.clock.after(jitteredWaitMs(nodeStatusUpdateFrequencyMs, this.#o.random), () => this.#statusTick());
    };
    if (this.#failed) return next();
    this.#recordSchedulable();
    if (!this.#statusDue()) return next();
    this.#postStatus().then(next, (error: unknown) => {
      this.#o.log(`kubelet ${this.#o.identity.name}: failed to update node status: ${String(error)}`);
      next();
    });
  }

  /**
   * The status setters' events: a pressure condition new or turning False records its healthy
   * event; Ready records NodeReady / NodeNotReady only when an existing condition changes (a new
   * node's first Ready is not an event upstream either). "Node <name> status is now: <event>".
   */
  #recordTransitions(old: readonly NodeCondition[] | undefined, now: readonly NodeCondition[] | undefined): void {
    const events = this.#o.events;
    if (!events) return;
    const name = this.#o.identity.name;
    for (const condition of now ?? []) {
      const prev = old?.find((c) => c.type === condition.type);
      const healthy = healthyConditionEvents[condition.type];
      let reason: string | undefined;
      if (healthy && condition.status === 'True') reason = prev?.status !== 'True' ? pressureConditionEvents[condition.type] : undefined;
      else if (healthy) reason = condition.status === 'False' && prev?.status !== 'False' ? healthy : undefined;
      else if (condition.type === 'Ready' && prev && prev.status !== condition.status) reason = condition.status === 'True' ? 'NodeReady' : 'NodeNotReady';
      if (reason) events.recordNode('Normal', reason, `Node ${name} status is now: ${reason}`);
    }
  }

  /**
   * recordNodeSchedulableEvent, one of the status setters run every 10 s: a cordon or uncordon seen
   * since the last run records NodeNotSchedulable / NodeSchedulable (nothing for a new schedulable node).
   */
  #recordSchedulable(): void {
    const unschedulable = this.#node?.spec?.unschedulable === true;
    if (unschedulable === this.#lastUnschedulable) return;
    this.#lastUnschedulable = unschedulable;
    const reason = unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
    this.#o.events?.recordNode('Normal', reason, `Node ${this.#o.identity.name} status is now: ${reason}`);
  }

  /** updateNodeStatus's test: the setters changed something, or the 5-minute report is due. */
  #statusDue(): boolean {
    const { clock, identity } = this.#o;
    const now = clock.now();
    if (now - this.#lastStatusWrite >= nodeStatusReportFrequencyMs) return true;
    const node = this.#node;
    if (node !== undefined && node === this.#settledNode) return false;
    if (nodeStatusChanged(kubeletNodeStatus(identity, now, node?.status, this.#pressure, this.#images), node?.status)) return true;
    this.#settledNode = node;
    return false;
  }

  async #postStatus(): Promise<void> {
    const { client, clock, identity } = this.#o;
    const current = await client.get<Node>(refs.nodes, undefined, identity.name);
    this.#node = await client.updateStatus<Node>(refs.nodes, { ...current, status: kubeletNodeStatus(identity, clock.now(), current.status, this.#pressure, this.#images) });
    this.#recordTransitions(current.status?.conditions, this.#node.status?.conditions);
    this.#lastStatusWrite = clock.now();
  }
}

function revisionOf(node: Node): number {
  return Number(node.metadata.resourceVersion ?? 0);
}
