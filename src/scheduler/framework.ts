// The scheduling framework's contract: extension points, result codes, CycleState, cluster events.
// Plugins are plain objects with a `name` and the optional methods of the points they extend.
// Upstream: staging/src/k8s.io/kube-scheduler/framework/interface.go, cycle_state.go, events.go.
//
// One pod's life through the framework (the order the scheduler calls a profile's plugins):
//
//   queue:      preEnqueue (may park the pod without an attempt) -> less (activeQ order)
//   scheduling: preFilter -> filter (per node) -> [postFilter when no node fits]
//               -> preScore -> score (per node) -> normalizeScore -> reserve -> permit
//   binding:    [wait while permit said Wait] -> preBind -> bind -> postBind
//   failure after reserve: unreserve runs on every reserve plugin, in reverse order.
//
// The scheduling cycle is synchronous and runs one pod at a time: filter, score and reserve
// may read and write in-memory state without locks, and must not await. The binding cycle
// is asynchronous (API calls) and overlaps later scheduling cycles; a pod is "assumed" on its
// node in the scheduler cache from reserve until the bind is seen (or undone), so the next
// cycle already sees its resources as taken.
import type { FeatureGates, ResourceRef } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import type { Client, Informer } from '../client/index.ts';
import type { Clock, DeepReadonly, KubeObject, Random } from '../core/index.ts';
import type { NodeInfo, PodInfo } from './node-info.ts';
import type { AffinityIndex } from './affinity-index.ts';

export type { NodeInfo, PodInfo } from './node-info.ts';

export type PodRO = DeepReadonly<Pod>;

// ---- Status: the result of every extension point -----------------------------------------

/**
 * Result codes, documented by what the scheduler does with each (upstream's Code):
 * - Success: go on. Filter: the node fits.
 * - Error: an internal error; the attempt ends, the pod gets PodScheduled=False reason
 *   SchedulerError and goes to the backoff queue (any cluster event may requeue it).
 * - Unschedulable: this node/pod does not fit now, but preemption may help (PostFilter runs
 *   and DefaultPreemption considers the node). Requeued by the plugin's cluster events.
 * - UnschedulableAndUnresolvable: as Unschedulable, but preemption skips the node ("Preemption
 *   is not helpful for scheduling"). From PreFilter it rejects every node at once.
 * - Wait: Permit only; the pod waits (resources held) until allowed, rejected or timed out.
 * - Skip: PreFilter/PreScore: this plugin has nothing to do for the pod, so its Filter/Score is
 *   not called in this cycle. Bind: let the next binder try.
 * - Pending: the pod waits for something outside the scheduler (e.g. a claim being allocated);
 *   treated like Unschedulable, but never retried by the 5-minute flush.
 */
export const Code = {
  Success: 'Success',
  Error: 'Error',
  Unschedulable: 'Unschedulable',
  UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
  Wait: 'Wait',
  Skip: 'Skip',
  Pending: 'Pending',
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export type RejectCode = 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Pending';

/** A discriminated union: switch on `code`. `plugin` is filled by the framework. */
export type Status =
  | { readonly code: 'Success'; readonly plugin?: string }
  | { readonly code: 'Skip'; readonly plugin?: string }
  | { readonly code: 'Wait'; readonly reasons: readonly string[]; readonly plugin?: string }
  | { readonly code: RejectCode; readonly reasons: readonly string[]; readonly plugin?: string }
  | { readonly code: 'Error'; readonly error: Error; readonly plugin?: string };

/** The one Success value; plugins return it instead of allocating. */
export const success: Status = Object.freeze({ code: 'Success' });
export const skip: Status = Object.freeze({ code: 'Skip' });

export function unschedulable(...reasons: string[]): Status {
  return { code: 'Unschedulable', reasons };
}
export function unresolvable(...reasons: string[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons };
}
export function pending(...reasons: string[]): Status {
  return { code: 'Pending', reasons };
}
export function waitStatus(...reasons: string[]): Status {
  return { code: 'Wait', reasons };
}
export function errorStatus(error: unknown): Status {
  return { code: 'Error', error: error instanceof Error ? error : new Error(String(error)) };
}
export function withPlugin(s: Status, plugin: string): Status {
  return s.plugin === plugin ? s : { ...s, plugin };
}
export function isRejected(s: Status): s is Extract<Status, { code: RejectCode }> {
  return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' || s.code === 'Pending';
}
/** Status.Message(): the reasons joined by ", " (an Error's message for Error). */
export function statusMessage(s: Status): string {
  switch (s.code) {
    case 'Success':
    case 'Skip':
      return '';
    case 'Error':
      return s.error.message;
    case 'Wait':
    case 'Unschedulable':
    case 'UnschedulableAndUnresolvable':
    case 'Pending':
      return s.reasons.join(', ');
    default: {
      const never: never = s;
      return String(never);
    }
  }
}
export function statusReasons(s: Status): readonly string[] {
  return 'reasons' in s ? s.reasons : s.code === 'Error' ? [s.error.message] : [];
}

// ---- CycleState: per-attempt scratch space shared by a profile's plugins ------------------

/**
 * A typed key: `const fitKey = stateKey<FitState>('PreFilterNodeResourcesFit')`. The type
 * parameter exists only for the compiler (phantom), so read(fitKey) is a FitState.
 */
export interface StateKey<T> {
  readonly name: string;
  readonly _phantom?: (value: T) => T;
}
export function stateKey<T>(name: string): StateKey<T> {
  return Object.freeze({ name });
}

/** Values that preemption may mutate (through addPod/removePod) implement clone(). */
export interface Cloneable<T> {
  clone(): T;
}

/**
 * Written in PreFilter/PreScore, read in Filter/Score/Reserve/... of the same attempt.
 * Preemption clones it per candidate node: values with a clone() method are cloned, others
 * shared (so only store immutable data without one).
 */
export class CycleState {
  readonly #values = new Map<string, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter is not called this cycle. */
  readonly skipFilterPlugins = new Set<string>();
  readonly skipScorePlugins = new Set<string>();
  /**
   * Set while the scheduling cycle's own Filter passes run, which may wait for a Filter; preemption's
   * simulations run the Filters synchronously.
   */
  filterMayWait = false;

  read<T>(key: StateKey<T>): T | undefined {
    return this.#values.get(key.name) as T | undefined;
  }
  write<T>(key: StateKey<T>, value: T): void {
    this.#values.set(key.name, value);
  }
  delete(key: StateKey<unknown>): void {
    this.#values.delete(key.name);
  }
  clone(): CycleState {
    const copy = new CycleState();
    for (const [k, v] of this.#values) {
      const c = v as Partial<Cloneable<unknown>> | null;
      copy.#values.set(k, c && typeof c === 'object' && typeof c.clone === 'function' ? c.clone() : v);
    }
    for (const p of this.skipFilterPlugins) copy.skipFilterPlugins.add(p);
    for (const p of this.skipScorePlugins) copy.skipScorePlugins.add(p);
    return copy;
  }
}

// ---- Cluster events and queueing hints ----------------------------------------------------

/**
 * What changed, as a bit set (upstream ActionType). Update* bits are computed by the scheduler
 * from the old and new object, so a hint runs only for changes that can matter.
 */
export const ActionType = {
  Add: 1,
  Delete: 2,
  UpdateNodeAllocatable: 4,
  UpdateNodeLabel: 8,
  UpdateNodeTaint: 16,
  UpdateNodeCondition: 32,
  UpdateNodeAnnotation: 64,
  UpdatePodLabel: 128,
  UpdatePodScaleDown: 256,
  UpdatePodToleration: 512,
  UpdatePodSchedulingGatesEliminated: 1024,
  UpdatePodGeneratedResourceClaim: 2048,
  /** Any other update (all objects that are neither Node nor Pod report only this bit). */
  UpdateOther: 4096,
  Update: 8188,
  All: 8191,
} as const;
export type ActionType = number;

/**
 * The resource an event is about. Pods are split like upstream: an AssignedPod has a node,
 * an UnscheduledPod does not ('Pod' means both). Other names map to built-in refs
 * (PersistentVolumeClaim, PersistentVolume, StorageClass, ResourceClaim, ResourceSlice,
 * DeviceClass); anything else must give its `ref` so the scheduler can watch it.
 */
export type EventResource =
  | 'Pod' | 'AssignedPod' | 'UnscheduledPod' | 'Node'
  | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass'
  | 'ResourceClaim' | 'ResourceSlice' | 'DeviceClass' | (string & {});

export interface ClusterEvent {
  resource: EventResource;
  actionType: ActionType;
  /** For resources the scheduler does not know by name (e.g. scheduling.k8s.io Workload). */
  ref?: ResourceRef;
}

export type QueueingHint = 'Queue' | 'QueueSkip';

/**
 * Decides whether an event may make `pod` (rejected earlier by this plugin) schedulable.
 * oldObj is undefined for Add, newObj for Delete. Must be cheap and must not mutate.
 * Throwing counts as Queue (upstream treats a hint error as Queue).
 */
/** An object from an informer (frozen; narrow it to the registered resource's type). */
export type EventObject = object;

export type QueueingHintFn = (pod: PodRO, oldObj: EventObject | undefined, newObj: EventObject | undefined) => QueueingHint;

export interface ClusterEventWithHint {
  event: ClusterEvent;
  /** Absent: always Queue. */
  hint?: QueueingHintFn;
  /**
   * Narrows which waiting pods the queue asks `hint` about, for events that concern few of many
   * (a claim event, thousands of pods waiting on their own claims). `ofPod` gives the keys a
   * waiting pod listens on, `ofEvent` the keys an event carries, or undefined when it may concern
   * any pod. Contract: `hint` answers QueueSkip for every pod that shares no key with the event,
   * so skipping those pods changes nothing but the cost. Only for a concrete `event.resource`
   * (not '*', not 'Pod', which stands for AssignedPod and UnscheduledPod too).
   */
  keys?: EventKeys;
}

export interface EventKeys {
  ofPod(pod: PodRO): readonly string[];
  ofEvent(oldObj: EventObject | undefined, newObj: EventObject | undefined): readonly string[] | undefined;
}

// ---- What plugins get: the Handle -----------------------------------------------------------

export interface NodeToStatus {
  /** The status of a node rejected in PreFilter/Filter; absent nodes got `absent`. */
  get(nodeName: string): Status | undefined;
  readonly explicit: ReadonlyMap<string, Status>;
  readonly absent: Status;
}

export interface WaitingPod {
  readonly pod: PodRO;
  readonly nodeName: string;
  /** Plugins still to allow this pod. */
  pendingPlugins(): string[];
  allow(plugin: string): void;
  reject(plugin: string, message: string): void;
}

export interface SnapshotLister {
  /** Every node, in the snapshot's stable order. */
  list(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /** Nodes with at least one pod that has (anti-)affinity terms: InterPodAffinity's fast path. */
  havePodsWithAffinity(): readonly NodeInfo[];
  havePodsWithRequiredAntiAffinity(): readonly NodeInfo[];
  /** Incremental InterPodAffinity counts over list()'s pods (the cache has them; what-if snapshots need not). */
  affinityIndex?(): AffinityIndex;
  /**
   * Nodes holding at least one pod with the labelCountKey (namespace, label, value); a node not in
   * it has no such pod. Optional: what-if snapshots need not keep it.
   */
  nodesWithPodLabel?(key: string): ReadonlySet<NodeInfo>;
  /** Number of scheduled pods using each RWOP-relevant PVC key `ns/name`. */
  pvcRefCount(key: string): number;
}

export interface EventRecord {
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  message: string;
}

/**
 * Services the framework offers plugins (upstream framework.Handle). Informers asked for at
 * construction are started and synced by the scheduler before the first cycle.
 */
export interface Handle {
  readonly client: Client;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: (line: string) => void;
  readonly schedulerName: string;
  /** The current cycle's snapshot of nodes (reused across cycles; never mutate NodeInfos). */
  snapshot(): SnapshotLister;
  /** A shared informer for `ref` (one per resource across all profiles and plugins). */
  informer<T extends KubeObject>(ref: ResourceRef, setup?: (inf: Informer<T>) => void): Informer<T>;
  /** Pods nominated (by preemption) to run on a node, higher priority first. */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  waitingPod(uid: string): WaitingPod | undefined;
  waitingPods(): readonly WaitingPod[];
  /** Moves these pods from the unschedulable pool or backoff to activeQ (gang activation). */
  activate(pods: readonly PodRO[]): void;
  /** Runs every Filter plugin, also counting nominated pods of higher/equal priority. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status;
  runPreFilterExtensionAddPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, nodeInfo: NodeInfo): Status;
  runPreFilterExtensionRemovePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, nodeInfo: NodeInfo): Status;
  /** Records an event about `pod` (de-duplicated into a series like upstream's recorder). */
  recordEvent(pod: PodRO, event: EventRecord): void;
  /** Whether the scheduler is stopping: a search that waits ends, as upstream's cancelled context ends it. */
  stopping(): boolean;
}

// ---- The plugin contract --------------------------------------------------------------------

/** PreFilter may narrow the nodes to look at (e.g. NodeAffinity with metadata.name fields). */
export interface PreFilterResult {
  status: Status;
  /** undefined: all nodes. */
  nodeNames?: ReadonlySet<string>;
}

export interface PostFilterResult {
  status: Status;
  /** '' clears the pod's nominatedNodeName; undefined leaves it. */
  nominatedNodeName?: string;
}

export interface PermitResult {
  status: Status;
  /** For Wait: how long to wait before the pod is rejected (upstream caps it at 15 min). */
  timeoutMs?: number;
}

export interface NodeScore {
  name: string;
  score: number;
}

/** Incremental updates to PreFilter state, used by preemption's what-if evaluation. */
export interface PreFilterExtensions {
  addPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, nodeInfo: NodeInfo): Status;
  removePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, nodeInfo: NodeInfo): Status;
}

/**
 * A plugin: `name` plus the methods of the extension points it implements. The framework
 * builds one list per point with `if (p.filter)` checks, in the profile's configured order.
 *
 * Contracts per point:
 * - preEnqueue: before a pod enters activeQ (on add, update and every requeue). Non-Success
 *   parks it in the unschedulable pool with no attempt, no event and no condition; it is
 *   re-checked on the plugin's registered events (or pod updates).
 * - less: the queue order (exactly one QueueSort plugin per profile).
 * - preFilter: once per attempt; compute state for filter. Skip disables this plugin's
 *   filter for the attempt. A rejection rejects every node with this status (the message
 *   becomes the FitError's PreFilter message).
 * - filter: per node, pure with respect to the node: no writes, no awaits. Return the first
 *   reason(s) the node cannot run the pod. Evaluated in order; the first failure wins.
 * - postFilter: only when no node fits; may make room (preemption) and nominate a node.
 *   Success ends the PostFilter chain; Unschedulable lets the next plugin try; its message
 *   is appended to the FitError message.
 * - preScore / score / normalizeScore: scores in [0, 100] after normalization, multiplied by
 *   the configured weight and summed. Skip from preScore disables score for the attempt.
 * - reserve: the pod is assumed on the node; claim in-memory resources here. Non-Success
 *   fails the attempt (unreserve runs for all reserve plugins).
 * - unreserve: idempotent, undo reserve; called in reverse order on any later failure.
 * - permit: Success, Wait (with timeout) or a rejection; all Wait-ers must allow the pod.
 * - preBind: API work before binding (e.g. claim status); may await.
 * - bind: the first binder not returning Skip binds.
 * - postBind: informational, after a successful bind.
 * - eventsToRegister: the cluster events that may make a pod this plugin rejected
 *   schedulable. A plugin that rejects but registers nothing is requeued by any event.
 */
export interface Plugin {
  readonly name: string;
  preEnqueue?(pod: PodRO): Status;
  less?(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
  preFilter?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterResult | Status;
  preFilterExtensions?: PreFilterExtensions;
  /**
   * A promise only when the cycle allows it (`state.filterMayWait`): a Filter with a long search
   * (DynamicResources) leaves the thread to the API server between turns, as upstream's runs beside it.
   */
  filter?(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | Promise<Status>;
  postFilter?(state: CycleState, pod: PodInfo, filtered: NodeToStatus): Promise<PostFilterResult>;
  preScore?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status;
  score?(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number;
  normalizeScore?(state: CycleState, pod: PodInfo, scores: NodeScore[]): void;
  reserve?(state: CycleState, pod: PodInfo, nodeName: string): Status;
  unreserve?(state: CycleState, pod: PodInfo, nodeName: string): void | Promise<void>;
  permit?(state: CycleState, pod: PodInfo, nodeName: string): PermitResult;
  preBind?(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status>;
  bind?(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status>;
  postBind?(state: CycleState, pod: PodInfo, nodeName: string): void;
  eventsToRegister?(): ClusterEventWithHint[];
}

/**
 * Builds a plugin from its pluginConfig args (already an object, possibly empty) and the
 * scheduler's feature gates (upstream PluginFactoryWithFts); they stay fixed for its lifetime.
 */
export type PluginFactory = (args: Readonly<Record<string, unknown>>, handle: Handle, features: FeatureGates) => Plugin;

export const maxNodeScore = 100;

/** A pod in the scheduling queue. */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** When it was last added to the queue (PrioritySort's tie-breaker). */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** When the first attempt started (for latency). */
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt (drive queueing hints). */
  unschedulablePlugins: Set<string>;
  pendingPlugins: Set<string>;
  /** A PreEnqueue plugin holds it (gated). */
  gatedBy?: string;
}
