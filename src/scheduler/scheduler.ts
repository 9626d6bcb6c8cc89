// The scheduler component: informers feed the cache and the queue; one loop pops pods and runs
// the scheduling cycle of the pod's profile (spec.schedulerName); pods naming no profile here
// are left alone. An ordinary API client: it reaches the API only through `client`.
// Upstream: pkg/scheduler/scheduler.go, eventhandlers.go.
import type { FeatureGates, Node, Pod, ResourceRef } from '../api/index.ts';
import { defaultFeatureGates, refs } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import { Informer } from '../client/index.ts';
import type { Clock, DeepReadonly, KubeObject, Random } from '../core/index.ts';
import { nextTurn } from '../core/index.ts';
import { SchedulerCache } from './cache.ts';
import { buildProfile, defaultSchedulerName, parseSchedulerConfig } from './config.ts';
import type { SchedulerConfig } from './config.ts';
import { EventRecorder } from './events.ts';
import type { ClusterEventWithHint, EventKeys, EventObject, Handle, PluginFactory, PodRO, Status } from './framework.ts';
import { ActionType, errorStatus, success } from './framework.ts';
import { PodInfo } from './node-info.ts';
import type { NodeInfo } from './node-info.ts';
import { inTreeRegistry } from './plugins/registry.ts';
import type { Profile } from './profile.ts';
import { WaitingPodEntry } from './profile.ts';
import { podUpdateActions, SchedulingQueue } from './queue.ts';
import { Scheduling } from './schedule-one.ts';

export interface SchedulerOptions {
  client: Client;
  clock: Clock;
  random: Random;
  log?: (line: string) => void;
  /** KubeSchedulerConfiguration-shaped (the cluster config's `scheduler` map). */
  config?: Readonly<Record<string, unknown>>;
  /** name -> factory; defaults to the in-tree registry. */
  registry?: Readonly<Record<string, PluginFactory>>;
  /** Handed to every plugin factory; default: defaultFeatureGates. */
  featureGates?: FeatureGates;
  /** Called after each successful bind (benchmarks, tests). */
  onBound?: (pod: PodInfo, nodeName: string) => void;
}

/** Event resources the scheduler can watch by name. */
const knownRefs: Record<string, ResourceRef> = {
  PersistentVolumeClaim: refs.persistentVolumeClaims,
  PersistentVolume: refs.persistentVolumes,
  StorageClass: refs.storageClasses,
  ResourceClaim: refs.resourceClaims,
  ResourceSlice: refs.resourceSlices,
  DeviceClass: refs.deviceClasses,
  Namespace: refs.namespaces,
  Service: refs.services,
  ReplicaSet: refs.replicaSets,
};

type NodeRO = DeepReadonly<Node>;

const isTerminal = (p: PodRO): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export class Scheduler {
  readonly cache = new SchedulerCache();
  readonly queue: SchedulingQueue;
  readonly profiles = new Map<string, Profile>();
  readonly config: SchedulerConfig;
  readonly recorder: EventRecorder;
  readonly #o: SchedulerOptions;
  readonly #log: (line: string) => void;
  readonly #informers = new Map<string, Informer<KubeObject>>();
  readonly #pods: Informer<Pod>;
  readonly #nodes: Informer<Node>;
  readonly #waiting = new Map<string, WaitingPodEntry>();
  readonly #hints = new Map<string, Map<string, ClusterEventWithHint[] | undefined>>();
  /** event resource -> the key functions of every profile's hints registered for it with keys. */
  readonly #keyedHints = new Map<string, EventKeys[]>();
  readonly #cycle: Scheduling;
  #stopped = true;
  #loop: Promise<void> | undefined;

  constructor(options: SchedulerOptions) {
    this.#o = options;
    this.#log = options.log ?? (() => {});
    this.config = parseSchedulerConfig(options.config);
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, log: this.#log });
    this.#pods = this.informer<Pod>(refs.pods);
    this.#nodes = this.informer<Node>(refs.nodes);
    this.queue = new SchedulingQueue({
      clock: options.clock,
      less: (a, b) => this.#profileFor(a.podInfo.pod)?.points.queueSort?.less?.(a, b) ?? a.timestamp < b.timestamp,
      preEnqueue: (pod) => this.#profileFor(pod)?.runPreEnqueue(pod) ?? success,
      hintsFor: (pod, plugin) => this.#hints.get(pod.spec.schedulerName ?? defaultSchedulerName)?.get(plugin),
      eventKeys: (event, oldObj, newObj) => eventKeysOf(this.#keyedHints.get(event.resource), oldObj, newObj),
      podInitialBackoffMs: this.config.podInitialBackoffSeconds * 1000,
      podMaxBackoffMs: this.config.podMaxBackoffSeconds * 1000,
      log: this.#log,
    });
    const registry = options.registry ?? inTreeRegistry;
    for (const pc of this.config.profiles) {
      const profile = buildProfile(pc, registry, this.#handleFor(pc.schedulerName), options.featureGates ?? defaultFeatureGates);
      this.profiles.set(pc.schedulerName, profile);
      const hints = new Map<string, ClusterEventWithHint[] | undefined>();
      for (const p of profile.plugins.values()) {
        const events = p.eventsToRegister?.();
        hints.set(p.name, events);
        for (const e of events ?? []) {
          this.#watchResource(e.event.resource, e.event.ref);
          if (e.keys) this.#keyedHints.set(e.event.resource, [...(this.#keyedHints.get(e.event.resource) ?? []), e.keys]);
        }
      }
      this.#hints.set(pc.schedulerName, hints);
    }
    this.#cycle = new Scheduling({
      client: options.client,
      clock: options.clock,
      random: options.random,
      log: this.#log,
      cache: this.cache,
      queue: this.queue,
      recorder: this.recorder,
      waiting: this.#waiting,
      percentageOfNodesToScore: this.config.percentageOfNodesToScore,
      currentPod: (key) => this.#pods.get(key),
      ...(options.onBound ? { onBound: options.onBound } : {}),
    });
    this.#pods.addHandlers({
      onAdd: (p) => this.#onPodAdd(p),
      onUpdate: (o, n) => this.#onPodUpdate(o, n),
      onDelete: (p) => this.#onPodDelete(p),
    });
    this.#nodes.addHandlers({
      onAdd: (n) => {
        this.cache.addNode(n);
        this.queue.onEvent({ resource: 'Node', actionType: ActionType.Add }, undefined, n);
      },
      onUpdate: (o, n) => {
        this.cache.updateNode(n);
        const actions = nodeUpdateActions(o, n);
        if (actions !== 0) this.queue.onEvent({ resource: 'Node', actionType: actions }, o, n);
      },
      onDelete: (n) => {
        this.cache.removeNode(n);
        this.queue.onEvent({ resource: 'Node', actionType: ActionType.Delete }, n, undefined);
      },
    });
  }

  /** A shared informer for a resource (created once; started with the scheduler). */
  informer<T extends KubeObject>(ref: ResourceRef, setup?: (inf: Informer<T>) => void): Informer<T> {
    const key = `${ref.group}/${ref.version}/${ref.resource}`;
    let inf = this.#informers.get(key) as Informer<T> | undefined;
    if (!inf) {
      inf = new Informer<T>({ client: this.#o.client, ref, clock: this.#o.clock, log: this.#log });
      this.#informers.set(key, inf as unknown as Informer<KubeObject>);
      if (!this.#stopped) inf.start();
    }
    setup?.(inf);
    return inf;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    for (const inf of this.#informers.values()) inf.start();
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.queue.close();
    for (const inf of this.#informers.values()) inf.stop();
    for (const w of this.#waiting.values()) w.reject('', 'scheduler stopped');
    this.recorder.stop();
    await this.#loop;
  }

  /**
   * Resolves once the pod and node informers have synced (the loop starts after that). Other
   * informers sync on their own: plugins check hasSynced() and fail with an Error (retried
   * with backoff) rather than decide on a partial cache.
   */
  async waitForSync(): Promise<void> {
    await Promise.all([this.#pods.waitForSync(), this.#nodes.waitForSync()]);
  }

  async #run(): Promise<void> {
    await this.waitForSync();
    let n = 0;
    while (!this.#stopped) {
      const q = this.queue.tryPop();
      if (!q) {
        await this.queue.ready();
        continue;
      }
      const profile = this.#profileFor(q.podInfo.pod);
      try {
        if (profile) await this.#cycle.scheduleOne(profile, q);
        else this.queue.done(q.podInfo.uid);
      } catch (error) {
        this.#log(`scheduling ${q.podInfo.key}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        this.queue.done(q.podInfo.uid);
      }
      // Let informer events and binding completions in between cycles.
      if (++n % 8 === 0) await nextTurn();
    }
  }

  #profileFor(pod: PodRO): Profile | undefined {
    return this.profiles.get(pod.spec.schedulerName ?? defaultSchedulerName);
  }

  #responsibleFor(pod: PodRO): boolean {
    return this.profiles.has(pod.spec.schedulerName ?? defaultSchedulerName);
  }

  #onPodAdd(pod: PodRO): void {
    if (pod.spec.nodeName) {
      if (isTerminal(pod)) return;
      this.cache.addOrUpdatePod(PodInfo.of(pod));
      this.queue.deleteNominated(PodInfo.of(pod).uid);
      this.queue.onEvent({ resource: 'AssignedPod', actionType: ActionType.Add }, undefined, pod);
      return;
    }
    if (!this.#responsibleFor(pod) || pod.metadata.deletionTimestamp || isTerminal(pod)) return;
    this.queue.add(pod);
    if (pod.status?.nominatedNodeName) this.queue.addNominated(PodInfo.of(pod), pod.status.nominatedNodeName);
  }

  #onPodUpdate(old: PodRO, pod: PodRO): void {
    const pi = PodInfo.of(pod, this.cache.podInfo(pod.metadata.uid ?? ''));
    if (pod.spec.nodeName) {
      if (!old.spec.nodeName) {
        this.queue.delete(old);
        this.queue.markDeleted(pi.uid);
      }
      if (isTerminal(pod)) {
        if (!isTerminal(old) || this.cache.podInfo(pi.uid)) {
          this.cache.removePod(pi.uid);
          this.queue.onEvent({ resource: 'AssignedPod', actionType: ActionType.Delete }, old, undefined);
        }
        return;
      }
      this.cache.addOrUpdatePod(pi);
      this.queue.deleteNominated(pi.uid);
      const actions = old.spec.nodeName ? podUpdateActions(old, pod) : ActionType.Add;
      this.queue.onEvent({ resource: 'AssignedPod', actionType: actions }, old.spec.nodeName ? old : undefined, pod);
      return;
    }
    if (!this.#responsibleFor(pod)) return;
    if (pod.metadata.deletionTimestamp || isTerminal(pod)) {
      this.#onPodDelete(pod);
      return;
    }
    this.queue.update(pod, old);
    const nnn = pod.status?.nominatedNodeName;
    if (nnn !== old.status?.nominatedNodeName) {
      if (nnn) this.queue.addNominated(pi, nnn);
      else this.queue.deleteNominated(pi.uid);
    }
  }

  #onPodDelete(pod: PodRO): void {
    const pi = PodInfo.of(pod);
    // Upstream: deletePodFromSchedulingQueue's RejectWaitingPod. A pod held at Permit is assumed
    // but unbound; rejecting it unreserves what it holds (a gang member's GPUs) and forgets it.
    if (!pod.spec.nodeName && this.#waiting.has(pi.uid)) {
      this.queue.markDeleted(pi.uid);
      this.#waiting.get(pi.uid)?.reject('', 'removed');
      return;
    }
    if (pod.spec.nodeName || this.cache.nodeOf(pi.uid)) {
      if (this.cache.isAssumed(pi.uid)) return;
      this.cache.removePod(pi.uid);
      this.queue.onEvent({ resource: 'AssignedPod', actionType: ActionType.Delete }, pod, undefined);
      return;
    }
    this.queue.delete(pod);
    this.queue.markDeleted(pi.uid);
  }

  #watchResource(resource: string, ref: ResourceRef | undefined): void {
    if (resource === 'Pod' || resource === 'AssignedPod' || resource === 'UnscheduledPod' || resource === 'Node' || resource === '*') return;
    const r = ref ?? knownRefs[resource];
    if (!r) {
      this.#log(`scheduler: no informer for cluster event resource ${resource}`);
      return;
    }
    const key = `${r.group}/${r.version}/${r.resource}`;
    if (this.#informers.has(key) && this.#watched.has(key)) return;
    this.#watched.add(key);
    this.informer<KubeObject>(r).addHandlers({
      onAdd: (o) => this.queue.onEvent({ resource, actionType: ActionType.Add }, undefined, o),
      onUpdate: (o, n) => this.queue.onEvent({ resource, actionType: ActionType.UpdateOther }, o, n),
      onDelete: (o) => this.queue.onEvent({ resource, actionType: ActionType.Delete }, o, undefined),
    });
  }
  readonly #watched = new Set<string>();

  #handleFor(schedulerName: string): Handle {
    const o = this.#o;
    const self = (): Profile => this.profiles.get(schedulerName) as Profile;
    return {
      client: o.client,
      clock: o.clock,
      random: o.random,
      log: this.#log,
      schedulerName,
      snapshot: () => this.cache,
      informer: <T extends KubeObject>(ref: ResourceRef, setup?: (inf: Informer<T>) => void) => this.informer<T>(ref, setup),
      nominatedPodsForNode: (nodeName: string) => this.queue.nominatedPodsForNode(nodeName),
      waitingPod: (uid: string) => this.#waiting.get(uid),
      waitingPods: () => [...this.#waiting.values()],
      activate: (pods: readonly PodRO[]) => this.queue.activate(pods),
      runFilterPluginsWithNominatedPods: (state, pod, nodeInfo: NodeInfo): Status => {
        // Preemption's simulations run with filterMayWait off, so no Filter answers with a promise.
        const s = self().runFilterWithNominated(state, pod, nodeInfo);
        return s instanceof Promise ? errorStatus(new Error('a Filter waited outside the scheduling cycle\'s filter pass')) : s;
      },
      runPreFilterExtensionAddPod: (state, pod, toAdd, nodeInfo) => self().runAddPod(state, pod, toAdd, nodeInfo),
      runPreFilterExtensionRemovePod: (state, pod, toRemove, nodeInfo) => self().runRemovePod(state, pod, toRemove, nodeInfo),
      recordEvent: (pod, event) => this.recorder.record(pod, event),
      stopping: () => this.#stopped,
    };
  }
}

/** NodeSchedulingPropertiesChange: which parts of a node changed. */
export function nodeUpdateActions(o: NodeRO, n: NodeRO): number {
  let a = 0;
  const j = (v: unknown): string => JSON.stringify(v ?? null);
  if (j(o.status?.allocatable) !== j(n.status?.allocatable)) a |= ActionType.UpdateNodeAllocatable;
  if (j(o.metadata.labels) !== j(n.metadata.labels)) a |= ActionType.UpdateNodeLabel;
  if (j(o.spec?.taints) !== j(n.spec?.taints) || (o.spec?.unschedulable ?? false) !== (n.spec?.unschedulable ?? false)) a |= ActionType.UpdateNodeTaint;
  const conds = (x: NodeRO): string => j((x.status?.conditions ?? []).map((c) => [c.type, c.status]));
  if (conds(o) !== conds(n)) a |= ActionType.UpdateNodeCondition;
  if (j(o.metadata.annotations) !== j(n.metadata.annotations)) a |= ActionType.UpdateNodeAnnotation;
  return a;
}

/** The union of the keys an event carries for each keyed hint; undefined if any says "any pod". */
function eventKeysOf(keyed: readonly EventKeys[] | undefined, oldObj: EventObject | undefined, newObj: EventObject | undefined): readonly string[] | undefined {
  if (!keyed) return [];
  if (keyed.length === 1) return keyed[0]?.ofEvent(oldObj, newObj);
  const keys: string[] = [];
  for (const k of keyed) {
    const some = k.ofEvent(oldObj, newObj);
    if (some === undefined) return undefined;
    keys.push(...some);
  }
  return keys;
}
