// The node-lifecycle controller: watches Node heartbeats (Ready condition and Lease), marks nodes
// whose kubelet went quiet Unknown after the grace period, marks their pods not ready, and keeps the
// condition taints in step: NoSchedule at once, NoExecute rate-limited per zone (the taint-eviction
// controller then evicts). Upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go.
import { refs } from '../../api/index.ts';
import type { Lease, Node, NodeCondition, Pod } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly, Timer } from '../../core/index.ts';
import { formatTime, isApiError, keyOf, splitObjectKey } from '../../core/index.ts';
import { eventRecorder } from './events.ts';
import type { RecordEvent } from './events.ts';
import { assessNodeHealth, healthAfterWrite } from './health.ts';
import type { HealthTimings, NodeHealth } from './health.ts';
import { updatePodCondition } from './pod-conditions.ts';
import { hasTaint, reconcileNoScheduleTaints, swapTaints, taintNodeNotReady, taintNodeUnreachable, wantedNoScheduleTaints } from './taints.ts';
import { updateNodeTaints } from './update.ts';
import { computeZoneState, defaultDisruptionSettings, zoneKey, zoneTaintingQPS } from './zones.ts';
import type { DisruptionSettings, ZoneState } from './zones.ts';
import { ZoneTainter } from './zone-tainter.ts';

export interface NodeLifecycleControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** --node-monitor-period (default 5 s). */
  nodeMonitorPeriodMs?: number;
  /** --node-monitor-grace-period (default 50 s). */
  nodeMonitorGracePeriodMs?: number;
  /** --node-startup-grace-period (default 60 s). */
  nodeStartupGracePeriodMs?: number;
  disruption?: Partial<DisruptionSettings>;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

export const nodeLeaseNamespace = 'kube-node-lease';
const component = 'node-controller';
const byNodeName = 'spec.nodeName';
const excludeDisruptionLabel = 'node.kubernetes.io/exclude-disruption';

const unreachableNoExecute = { key: taintNodeUnreachable, effect: 'NoExecute' } as const;
const notReadyNoExecute = { key: taintNodeNotReady, effect: 'NoExecute' } as const;

export class NodeLifecycleController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #record: RecordEvent;
  readonly #period: number;
  readonly #timings: HealthTimings;
  readonly #settings: DisruptionSettings;
  readonly #nodes: Informer<Node>;
  readonly #leases: Informer<Lease>;
  readonly #pods: Informer<Pod>;
  readonly #noScheduleQueue: WorkQueue<string>;
  readonly #podQueue: WorkQueue<string>;
  readonly #health = new Map<string, NodeHealth>();
  readonly #known = new Set<string>();
  readonly #nodesToRetry = new Set<string>();
  readonly #zoneStates = new Map<string, ZoneState>();
  readonly #tainters = new Map<string, ZoneTainter>();
  #monitorTimer: Timer | undefined;
  #stopped = false;

  constructor(options: NodeLifecycleControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#record = eventRecorder({ client, clock, component, log });
    this.#period = options.nodeMonitorPeriodMs ?? 5000;
    this.#timings = { gracePeriodMs: options.nodeMonitorGracePeriodMs ?? 50_000, startupGracePeriodMs: options.nodeStartupGracePeriodMs ?? 60_000 };
    this.#settings = { ...defaultDisruptionSettings, ...options.disruption };
    this.#nodes = informerFor<Node>(options.informers, { client, clock, log, ref: refs.nodes });
    this.#leases = informerFor<Lease>(options.informers, { client, clock, log, ref: refs.leases, namespace: nodeLeaseNamespace });
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
    this.#pods.addIndex(byNodeName, (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    this.#noScheduleQueue = new WorkQueue<string>({ clock, baseDelayMs: 100 });
    this.#podQueue = new WorkQueue<string>({ clock, baseDelayMs: 100 });
    this.#nodes.addHandlers({
      onAdd: (n) => this.#noScheduleQueue.add(n.metadata.name ?? ''),
      onUpdate: (_old, n) => this.#noScheduleQueue.add(n.metadata.name ?? ''),
    });
    this.#pods.addHandlers({
      onAdd: (p) => this.#podUpdated(undefined, p),
      onUpdate: (old, p) => this.#podUpdated(old, p),
    });
  }

  start(): void {
    this.#nodes.start();
    this.#leases.start();
    this.#pods.start();
    void (async () => {
      await Promise.all([this.#nodes.waitForSync(), this.#leases.waitForSync(), this.#pods.waitForSync()]);
      if (this.#stopped) return;
      void runWorkers(this.#noScheduleQueue, 2, (name) => this.#doNoScheduleTaintingPass(name), this.#log);
      void runWorkers(this.#podQueue, 2, (key) => this.#processPod(key), this.#log);
      this.#monitorLoop();
    })();
  }

  stop(): void {
    this.#stopped = true;
    this.#monitorTimer?.cancel();
    for (const t of this.#tainters.values()) t.stop();
    this.#noScheduleQueue.shutDown();
    this.#podQueue.shutDown();
    this.#nodes.stop();
    this.#leases.stop();
    this.#pods.stop();
  }

  #monitorLoop(): void {
    if (this.#stopped) return;
    this.monitorNodeHealth().then(
      () => undefined,
      (error: unknown) => this.#log(`${component}: error monitoring node health: ${error instanceof Error ? error.message : String(error)}`),
    ).finally(() => {
      if (!this.#stopped) this.#monitorTimer = this.#clock.after(this.#period, () => this.#monitorLoop());
    });
  }

  /** One pass over every node (also callable from tests). */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.#nodes.list();
    const names = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (this.#known.has(name)) continue;
      this.#known.add(name);
      this.#record(nodeRef(node), 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      this.#ensureZone(zoneKey(node.metadata.labels));
      await this.#markNodeAsReachable(node);
    }
    for (const name of [...this.#known]) {
      if (names.has(name)) continue;
      this.#known.delete(name);
      this.#health.delete(name);
      this.#nodesToRetry.delete(name);
      this.#record({ kind: 'Node', name }, 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
    }
    const zoneReady = new Map<string, (string | undefined)[]>();
    await Promise.all(nodes.map((node) => this.#updateNode(node, zoneReady)));
    await this.#handleDisruption(zoneReady, nodes);
  }

  async #updateNode(node: DeepReadonly<Node>, zoneReady: Map<string, (string | undefined)[]>): Promise<void> {
    const name = node.metadata.name ?? '';
    let result: { observed: DeepReadonly<NodeCondition>; current: DeepReadonly<NodeCondition> | undefined } | undefined;
    let target = node;
    for (let attempt = 0; attempt < 3 && !result; attempt++) {
      try {
        result = await this.#tryUpdateNodeHealth(target);
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'Conflict')) {
          this.#log(`${component}: cannot update health of node ${name}: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        try {
          target = await this.#client.get<Node>(refs.nodes, undefined, name);
        } catch {
          return;
        }
      }
    }
    if (!result) return;
    const { observed, current } = result;
    if (!(target.metadata.labels && excludeDisruptionLabel in target.metadata.labels)) {
      // Appended in place, as upstream's append: a copy per node made each pass quadratic in a
      // zone's nodes (100 MB of garbage a pass at 5,000 nodes, which P10's hold paid every 5 s).
      const zone = zoneKey(target.metadata.labels);
      const statuses = zoneReady.get(zone);
      if (statuses) statuses.push(current?.status);
      else zoneReady.set(zone, [current?.status]);
    }
    if (!current) return;
    await this.#processTaintBasedEviction(target, observed);
    const becameNotReady = current.status !== 'True' && observed.status === 'True';
    if (becameNotReady) this.#record(nodeRef(target), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    if (becameNotReady || (this.#nodesToRetry.has(name) && observed.status !== 'True')) {
      try {
        await this.#markPodsNotReady(this.#pods.byIndex(byNodeName, name), name);
      } catch (error) {
        this.#log(`${component}: unable to mark all pods NotReady on node ${name}: ${error instanceof Error ? error.message : String(error)}; queuing for retry`);
        this.#nodesToRetry.add(name);
        return;
      }
    }
    this.#nodesToRetry.delete(name);
  }

  async #tryUpdateNodeHealth(node: DeepReadonly<Node>): Promise<{ observed: DeepReadonly<NodeCondition>; current: DeepReadonly<NodeCondition> | undefined }> {
    const name = node.metadata.name ?? '';
    const now = this.#clock.now();
    const lease = this.#leases.getByName(nodeLeaseNamespace, name);
    const assessment = assessNodeHealth(this.#health.get(name), node, lease, now, this.#timings);
    this.#health.set(name, assessment.health);
    const current = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (!assessment.conditions) return { observed: assessment.observedReady, current };
    await this.#client.updateStatus<Node>(refs.nodes, { ...node, status: { ...node.status, conditions: assessment.conditions } } as Node);
    this.#health.set(name, healthAfterWrite(assessment.health, assessment.conditions, now));
    return { observed: assessment.observedReady, current: assessment.conditions.find((c) => c.type === 'Ready') };
  }

  async #processTaintBasedEviction(node: DeepReadonly<Node>, observed: DeepReadonly<NodeCondition>): Promise<void> {
    const taints = node.spec?.taints;
    const name = node.metadata.name ?? '';
    switch (observed.status) {
      case 'False':
        if (hasTaint(taints, taintNodeUnreachable, 'NoExecute')) await this.#swapNoExecute(name, notReadyNoExecute, unreachableNoExecute);
        else this.#tainter(node).add(name);
        return;
      case 'Unknown':
        if (hasTaint(taints, taintNodeNotReady, 'NoExecute')) await this.#swapNoExecute(name, unreachableNoExecute, notReadyNoExecute);
        else this.#tainter(node).add(name);
        return;
      case 'True':
        await this.#markNodeAsReachable(node);
        return;
      default:
        return;
    }
  }

  async #swapNoExecute(name: string, add: { key: string; effect: 'NoExecute' }, remove: { key: string; effect: 'NoExecute' }): Promise<boolean> {
    const now = formatTime(this.#clock.now());
    try {
      return await updateNodeTaints(this.#client, name, (taints) => {
        if (hasTaint(taints, add.key, add.effect) && !hasTaint(taints, remove.key, remove.effect)) return undefined;
        return swapTaints(taints, [add], [remove], now);
      });
    } catch (error) {
      this.#log(`${component}: unable to taint node ${name}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** Removes the NoExecute condition taints and any pending tainting for the node. */
  async #markNodeAsReachable(node: DeepReadonly<Node>): Promise<void> {
    const name = node.metadata.name ?? '';
    this.#tainters.get(zoneKey(node.metadata.labels))?.remove(name);
    if (!hasTaint(node.spec?.taints, taintNodeUnreachable, 'NoExecute') && !hasTaint(node.spec?.taints, taintNodeNotReady, 'NoExecute')) return;
    try {
      await updateNodeTaints(this.#client, name, (taints) => {
        const kept = taints.filter((t) => !(t.effect === 'NoExecute' && (t.key === taintNodeUnreachable || t.key === taintNodeNotReady)));
        return kept.length === taints.length ? undefined : kept;
      });
    } catch (error) {
      this.#log(`${component}: failed to remove taints from node ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** doNoExecuteTaintingPass for one queued node: swap in the taint its Ready condition calls for. */
  async #taintNoExecute(name: string): Promise<'done' | 'retry'> {
    const node = this.#nodes.getByName(undefined, name);
    if (!node) return 'done';
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready) return 'retry';
    if (ready.status === 'False') return (await this.#swapNoExecute(name, notReadyNoExecute, unreachableNoExecute)) ? 'done' : 'retry';
    if (ready.status === 'Unknown') return (await this.#swapNoExecute(name, unreachableNoExecute, notReadyNoExecute)) ? 'done' : 'retry';
    return 'done';
  }

  #ensureZone(zone: string): ZoneTainter {
    let tainter = this.#tainters.get(zone);
    if (!tainter) {
      tainter = new ZoneTainter({ clock: this.#clock, qps: this.#settings.evictionLimiterQPS, taint: (name) => this.#taintNoExecute(name) });
      this.#tainters.set(zone, tainter);
      this.#zoneStates.set(zone, 'Initial');
    }
    return tainter;
  }

  #tainter(node: DeepReadonly<Node>): ZoneTainter {
    return this.#ensureZone(zoneKey(node.metadata.labels));
  }

  async #handleDisruption(zoneReady: Map<string, (string | undefined)[]>, nodes: readonly DeepReadonly<Node>[]): Promise<void> {
    const newStates = new Map<string, ZoneState>();
    let allAreFull = true;
    for (const [zone, statuses] of zoneReady) {
      const { state } = computeZoneState(statuses, this.#settings);
      if (state !== 'FullDisruption') allAreFull = false;
      newStates.set(zone, state);
      if (!this.#zoneStates.has(zone)) this.#zoneStates.set(zone, 'Initial');
    }
    let allWasFull = true;
    for (const [zone, state] of this.#zoneStates) {
      if (!zoneReady.has(zone)) {
        this.#zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWasFull = false;
        break;
      }
    }
    if (allAreFull && allWasFull) return;
    const sizeOf = (zone: string): number => zoneReady.get(zone)?.length ?? 0;
    if (allAreFull) {
      this.#log(`${component}: all nodes are not ready; entering master disruption mode`);
      for (const node of nodes) await this.#markNodeAsReachable(node);
      for (const zone of this.#zoneStates.keys()) {
        this.#ensureZone(zone).setQPS(0);
        this.#zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWasFull) {
      this.#log(`${component}: some nodes are ready; exiting master disruption mode`);
      const now = this.#clock.now();
      for (const node of nodes) {
        const h = this.#health.get(node.metadata.name ?? '');
        if (h) this.#health.set(node.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
    for (const [zone, old] of this.#zoneStates) {
      const state = newStates.get(zone) ?? 'Normal';
      if (old === state && !allWasFull) continue;
      this.#ensureZone(zone).setQPS(zoneTaintingQPS(state, sizeOf(zone), this.#settings));
      this.#zoneStates.set(zone, state);
    }
  }

  #podUpdated(old: DeepReadonly<Pod> | undefined, pod: DeepReadonly<Pod>): void {
    const nodeName = pod.spec?.nodeName;
    if (nodeName && (!old || old.spec?.nodeName !== nodeName)) this.#podQueue.add(keyOf(pod));
  }

  /** A pod newly bound to a node that is not Ready is marked not ready at once. */
  async #processPod(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const pod = this.#pods.getByName(namespace, name);
    if (!pod?.spec?.nodeName) return;
    const nodeName = pod.spec.nodeName;
    const health = this.#health.get(nodeName);
    if (!health || !this.#nodes.getByName(undefined, nodeName)) return;
    if (!health.ready || health.ready.status === 'True') return;
    await this.#markPodsNotReady([pod], nodeName);
  }

  /** MarkPodsNotReady: Ready=False on each pod of the node, with a NodeNotReady warning. */
  async #markPodsNotReady(pods: readonly DeepReadonly<Pod>[], nodeName: string): Promise<void> {
    const errors: string[] = [];
    for (const pod of pods) {
      if (pod.spec?.nodeName !== nodeName) continue;
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (!ready) continue;
      const { lastTransitionTime: _t, ...rest } = ready;
      const conditions = updatePodCondition(pod.status?.conditions, { ...(rest as Omit<typeof ready, 'lastTransitionTime'>), status: 'False' } as never, this.#clock.now());
      if (!conditions) continue;
      try {
        await this.#client.updateStatus<Pod>(refs.pods, { ...pod, status: { ...pod.status, conditions } } as Pod);
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') continue;
        errors.push(error instanceof Error ? error.message : String(error));
        continue;
      }
      this.#record({ kind: 'Pod', name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) }, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    if (errors.length) throw new Error(errors.join('; '));
  }

  async #doNoScheduleTaintingPass(name: string): Promise<void> {
    const node = this.#nodes.getByName(undefined, name);
    if (!node) return;
    const wanted = wantedNoScheduleTaints(node);
    const now = formatTime(this.#clock.now());
    if (!reconcileNoScheduleTaints(node.spec?.taints ?? [], wanted, now)) return;
    await updateNodeTaints(this.#client, name, (taints) => reconcileNoScheduleTaints(taints, wanted, now));
  }
}

function nodeRef(node: DeepReadonly<Node>): { kind: 'Node'; name: string; uid?: string } {
  return { kind: 'Node', name: node.metadata.name ?? '', ...(node.metadata.uid ? { uid: node.metadata.uid } : {}) };
}
