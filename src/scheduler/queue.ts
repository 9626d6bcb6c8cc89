// The scheduling queue: activeQ (QueueSort order), backoffQ (1 s doubling to 10 s) and the
// unschedulable pool, requeued by cluster events through the rejecting plugins' hints and
// flushed after 5 minutes. Also the nominator (pods nominated to nodes by preemption).
// Upstream: pkg/scheduler/backend/queue/scheduling_queue.go, backoff_queue.go, nominator.go.
//
// Worked example: pod p fails at t=0 on NodeResourcesFit (attempt 1). It goes to the
// unschedulable pool. A Node add at t=0.4 s: NodeResourcesFit's hint says Queue, p is still
// backing off (until t=1 s), so it moves to backoffQ; the backoff timer moves it to activeQ at
// t=1 s (or earlier, if activeQ runs empty: popping from backoffQ, KEP-5142). A second failure
// backs off 2 s, then 4, 8, 10, 10, ...
import type { Clock, Timer } from '../core/index.ts';
import { jsonEqual } from '../core/index.ts';
import type { ClusterEvent, ClusterEventWithHint, EventObject, PodRO, QueuedPodInfo, Status } from './framework.ts';
import { ActionType } from './framework.ts';
import { KeyedHeap } from '../core/index.ts';
import { PodInfo } from './node-info.ts';
import { WaitingPods, listeningOf } from './waiting-pods.ts';

export interface QueueOptions {
  clock: Clock;
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  /** Runs the pod's profile's PreEnqueue plugins; a non-Success result names the plugin. */
  preEnqueue: (pod: PodRO) => Status;
  /** The hints a plugin of the pod's profile registered; undefined means "every event". */
  hintsFor: (pod: PodRO, plugin: string) => readonly ClusterEventWithHint[] | undefined;
  /**
   * The keys an event carries for the hints registered with keys (ClusterEventWithHint.keys), or
   * undefined when it may concern any pod listening by key. Absent: every event concerns every pod.
   */
  eventKeys?: (event: ClusterEvent, oldObj: EventObject | undefined, newObj: EventObject | undefined) => readonly string[] | undefined;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  log?: (line: string) => void;
}

interface InFlightEvent {
  seq: number;
  event: ClusterEvent;
  oldObj: EventObject | undefined;
  newObj: EventObject | undefined;
}

export const unschedulableTimeout: ClusterEvent = { resource: '*', actionType: ActionType.All };
const flushIntervalMs = 30_000;

export class SchedulingQueue {
  readonly #o: Required<Omit<QueueOptions, 'log' | 'eventKeys'>> & Pick<QueueOptions, 'log' | 'eventKeys'>;
  readonly #active: KeyedHeap<QueuedPodInfo>;
  readonly #backoff: KeyedHeap<QueuedPodInfo>;
  readonly #errorBackoff: KeyedHeap<QueuedPodInfo>;
  readonly #unschedulable = new WaitingPods();
  readonly #inFlight = new Map<string, { qpi: QueuedPodInfo; seq: number }>();
  #events: InFlightEvent[] = [];
  #seq = 0;
  #waiters: (() => void)[] = [];
  #backoffTimer: Timer | undefined;
  #backoffTimerAt = Infinity;
  #flushTimer: Timer | undefined;
  #closed = false;
  readonly #nominated = new Map<string, { pi: PodInfo; node: string }>();
  readonly #byNode = new Map<string, PodInfo[]>();

  constructor(options: QueueOptions) {
    this.#o = {
      podInitialBackoffMs: 1000,
      podMaxBackoffMs: 10_000,
      podMaxInUnschedulablePodsDurationMs: 300_000,
      ...options,
    };
    const key = (q: QueuedPodInfo): string => q.podInfo.uid;
    this.#active = new KeyedHeap(key, options.less);
    const byExpiry = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => this.#backoffExpiry(a) < this.#backoffExpiry(b);
    this.#backoff = new KeyedHeap(key, byExpiry);
    this.#errorBackoff = new KeyedHeap(key, byExpiry);
  }

  close(): void {
    this.#closed = true;
    this.#backoffTimer?.cancel();
    this.#flushTimer?.cancel();
    for (const w of this.#waiters.splice(0)) w();
  }

  // ---- pods coming from the informer

  /** A new unscheduled pod. */
  add(pod: PodRO): void {
    const pi = PodInfo.of(pod);
    if (this.#has(pi.uid)) return this.update(pod);
    const qpi: QueuedPodInfo = { podInfo: pi, timestamp: this.#o.clock.now(), attempts: 0, unschedulablePlugins: new Set(), pendingPlugins: new Set() };
    this.#toActiveOrGated(qpi, 'add');
  }

  /** An unscheduled pod changed (labels, tolerations, gates, claims...). */
  update(pod: PodRO, oldPod?: PodRO): void {
    const pi = PodInfo.of(pod);
    const uid = pi.uid;
    const inFlight = this.#inFlight.get(uid);
    if (inFlight) {
      inFlight.qpi.podInfo = pi;
      this.#record({ resource: 'UnscheduledPod', actionType: podUpdateActions(oldPod, pod) }, oldPod, pod);
      return;
    }
    for (const heap of [this.#active, this.#backoff, this.#errorBackoff]) {
      const q = heap.get(uid);
      if (q) {
        q.podInfo = pi;
        heap.push(q);
        return;
      }
    }
    const u = this.#unschedulable.get(uid);
    if (!u) return this.add(pod);
    u.qpi.podInfo = pi;
    if (u.qpi.gatedBy) {
      this.#unschedulable.delete(uid);
      this.#toActiveOrGated(u.qpi, 'update');
      return;
    }
    const event: ClusterEvent = { resource: 'UnscheduledPod', actionType: podUpdateActions(oldPod, pod) };
    if (this.#isWorthRequeuing(u.qpi, event, oldPod, pod)) {
      this.#unschedulable.delete(uid);
      this.#requeue(u.qpi);
      return;
    }
    // Still waiting, but what it listens for may have changed with it (a claim it now names).
    this.#park(u.qpi, u.since);
  }

  delete(pod: PodRO): void {
    const uid = PodInfo.of(pod).uid;
    this.#active.remove(uid);
    this.#backoff.remove(uid);
    this.#errorBackoff.remove(uid);
    this.#unschedulable.delete(uid);
    this.deleteNominated(uid);
  }

  // ---- the scheduling loop's side

  /** The next pod to schedule, or undefined when none is ready (then await ready()). */
  tryPop(): QueuedPodInfo | undefined {
    let q = this.#active.pop();
    // KEP-5142 (beta since 1.33): an idle scheduler does not wait out the backoff of pods
    // rejected by plugins; pods that failed with an error still wait.
    if (!q) q = this.#backoff.pop();
    if (!q) return undefined;
    q.attempts++;
    q.initialAttemptTimestamp ??= this.#o.clock.now();
    this.#inFlight.set(q.podInfo.uid, { qpi: q, seq: this.#seq });
    return q;
  }

  /** Resolves when a pod may be ready to pop (or the queue closed). */
  ready(): Promise<void> {
    if (this.#closed || this.#active.size > 0 || this.#backoff.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The attempt finished (bound, requeued or dropped). */
  done(uid: string): void {
    this.#inFlight.delete(uid);
    if (this.#inFlight.size === 0) this.#events = [];
    else {
      let min = Infinity;
      for (const f of this.#inFlight.values()) min = Math.min(min, f.seq);
      if (this.#events.length > 0 && (this.#events[0]?.seq ?? 0) <= min) this.#events = this.#events.filter((e) => e.seq > min);
    }
  }

  /**
   * After a failed attempt: to the unschedulable pool, unless an event that arrived during the
   * attempt may already have fixed it, or it failed with an error (then backoff).
   */
  addUnschedulable(qpi: QueuedPodInfo): void {
    const uid = qpi.podInfo.uid;
    const flight = this.#inFlight.get(uid);
    if (flight) qpi.podInfo = flight.qpi.podInfo;
    qpi.timestamp = this.#o.clock.now();
    if (!this.#podStillExists(uid)) return;
    const rejectors = qpi.unschedulablePlugins.size + qpi.pendingPlugins.size;
    if (rejectors === 0) {
      this.#errorBackoff.push(qpi);
      this.#armBackoffTimer();
      return;
    }
    const seq = flight?.seq ?? this.#seq;
    for (const e of this.#events) {
      if (e.seq <= seq) continue;
      if (this.#isWorthRequeuing(qpi, e.event, e.oldObj, e.newObj)) {
        this.#toBackoffOrActive(qpi);
        return;
      }
    }
    this.#park(qpi, qpi.timestamp);
    this.#armFlushTimer();
  }

  #deleted = new Set<string>();
  #podStillExists(uid: string): boolean {
    if (!this.#deleted.has(uid)) return true;
    this.#deleted.delete(uid);
    return false;
  }
  /** The pod was deleted while in flight: drop it when its attempt ends. */
  markDeleted(uid: string): void {
    if (this.#inFlight.has(uid)) this.#deleted.add(uid);
  }

  // ---- cluster events

  /** MoveAllToActiveOrBackoffQueue: every unschedulable pod whose rejectors' hints say Queue. */
  onEvent(event: ClusterEvent, oldObj: EventObject | undefined, newObj: EventObject | undefined): void {
    this.#record(event, oldObj, newObj);
    if (this.#unschedulable.size === 0) return;
    // Matches first, moves after: a pod re-gated by its move is re-inserted, and the live iterator
    // would visit it again. Only the pods the event may concern are visited (WaitingPods): thousands
    // of pods wait, each on its own claim, in the DRA template shape.
    const moved: QueuedPodInfo[] = [];
    const candidates = this.#o.eventKeys ? this.#unschedulable.candidates(event, this.#o.eventKeys(event, oldObj, newObj)) : this.#unschedulable.values();
    for (const u of candidates) {
      // A gated pod is re-checked by PreEnqueue when its gating plugin's events fire.
      const matches = u.qpi.gatedBy ? this.#matchesPlugin(u.qpi, u.qpi.gatedBy, event, oldObj, newObj) : this.#isWorthRequeuing(u.qpi, event, oldObj, newObj);
      if (matches) moved.push(u.qpi);
    }
    for (const qpi of moved) {
      this.#unschedulable.delete(qpi.podInfo.uid);
      if (qpi.gatedBy) this.#toActiveOrGated(qpi, 'event');
      else this.#requeue(qpi);
    }
  }

  /** Activate: straight to activeQ (e.g. the rest of a gang). */
  activate(pods: readonly PodRO[]): void {
    for (const pod of pods) {
      const uid = PodInfo.of(pod).uid;
      const u = this.#unschedulable.get(uid);
      const q = u?.qpi ?? this.#backoff.remove(uid) ?? this.#errorBackoff.remove(uid);
      if (!q) continue;
      this.#unschedulable.delete(uid);
      this.#toActiveOrGated(q, 'activate');
    }
  }

  // ---- nominator

  addNominated(pi: PodInfo, nodeName: string): void {
    this.deleteNominated(pi.uid);
    if (!nodeName) return;
    this.#nominated.set(pi.uid, { pi, node: nodeName });
    const list = this.#byNode.get(nodeName) ?? [];
    list.push(pi);
    list.sort((a, b) => b.priority - a.priority);
    this.#byNode.set(nodeName, list);
  }
  deleteNominated(uid: string): void {
    const n = this.#nominated.get(uid);
    if (!n) return;
    this.#nominated.delete(uid);
    const list = (this.#byNode.get(n.node) ?? []).filter((p) => p.uid !== uid);
    if (list.length === 0) this.#byNode.delete(n.node);
    else this.#byNode.set(n.node, list);
  }
  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.#byNode.get(nodeName) ?? [];
  }
  get hasNominatedPods(): boolean {
    return this.#nominated.size > 0;
  }

  // ---- introspection (tests, metrics)

  stats(): { active: number; backoff: number; unschedulable: number; inFlight: number } {
    return {
      active: this.#active.size,
      backoff: this.#backoff.size + this.#errorBackoff.size,
      unschedulable: this.#unschedulable.size,
      inFlight: this.#inFlight.size,
    };
  }
  where(uid: string): 'active' | 'backoff' | 'unschedulable' | 'gated' | 'inFlight' | undefined {
    if (this.#inFlight.has(uid)) return 'inFlight';
    if (this.#active.has(uid)) return 'active';
    if (this.#backoff.has(uid) || this.#errorBackoff.has(uid)) return 'backoff';
    const u = this.#unschedulable.get(uid);
    if (u) return u.qpi.gatedBy ? 'gated' : 'unschedulable';
    return undefined;
  }

  // ---- internals

  #has(uid: string): boolean {
    return this.#active.has(uid) || this.#backoff.has(uid) || this.#errorBackoff.has(uid) || this.#unschedulable.has(uid) || this.#inFlight.has(uid);
  }

  #record(event: ClusterEvent, oldObj: EventObject | undefined, newObj: EventObject | undefined): void {
    this.#seq++;
    if (this.#inFlight.size > 0) this.#events.push({ seq: this.#seq, event, oldObj, newObj });
  }

  /** Into the unschedulable pool, indexed by what the plugins it waits on listen for. */
  #park(qpi: QueuedPodInfo, since: number): void {
    const plugins = qpi.gatedBy !== undefined ? [qpi.gatedBy] : [...qpi.unschedulablePlugins, ...qpi.pendingPlugins];
    this.#unschedulable.set(qpi.podInfo.uid, { qpi, since }, listeningOf(qpi, plugins, (plugin) => this.#o.hintsFor(qpi.podInfo.pod, plugin)));
  }

  #toActiveOrGated(qpi: QueuedPodInfo, _why: string): void {
    const st = this.#o.preEnqueue(qpi.podInfo.pod);
    if (st.code !== 'Success') {
      qpi.gatedBy = st.plugin ?? '';
      this.#park(qpi, this.#o.clock.now());
      return;
    }
    delete qpi.gatedBy;
    this.#active.push(qpi);
    this.#wake();
  }

  /** Leaving the unschedulable pool: PreEnqueue again, then backoff or active. */
  #requeue(qpi: QueuedPodInfo): void {
    const st = this.#o.preEnqueue(qpi.podInfo.pod);
    if (st.code !== 'Success') {
      qpi.gatedBy = st.plugin ?? '';
      this.#park(qpi, this.#o.clock.now());
      return;
    }
    this.#toBackoffOrActive(qpi);
  }

  #toBackoffOrActive(qpi: QueuedPodInfo): void {
    if (this.#backoffExpiry(qpi) > this.#o.clock.now()) {
      this.#backoff.push(qpi);
      this.#armBackoffTimer();
      this.#wake();
    } else {
      this.#active.push(qpi);
      this.#wake();
    }
  }

  #backoffDuration(qpi: QueuedPodInfo): number {
    let d = this.#o.podInitialBackoffMs;
    for (let i = 1; i < qpi.attempts; i++) {
      d *= 2;
      if (d > this.#o.podMaxBackoffMs) return this.#o.podMaxBackoffMs;
    }
    return d;
  }

  #backoffExpiry(qpi: QueuedPodInfo): number {
    return qpi.attempts === 0 ? 0 : qpi.timestamp + this.#backoffDuration(qpi);
  }

  #isWorthRequeuing(qpi: QueuedPodInfo, event: ClusterEvent, oldObj: EventObject | undefined, newObj: EventObject | undefined): boolean {
    if (event === unschedulableTimeout) return qpi.pendingPlugins.size === 0;
    if (qpi.unschedulablePlugins.size + qpi.pendingPlugins.size === 0) return true;
    for (const plugin of qpi.unschedulablePlugins) if (this.#matchesPlugin(qpi, plugin, event, oldObj, newObj)) return true;
    for (const plugin of qpi.pendingPlugins) if (this.#matchesPlugin(qpi, plugin, event, oldObj, newObj)) return true;
    return false;
  }

  #matchesPlugin(qpi: QueuedPodInfo, plugin: string, event: ClusterEvent, oldObj: EventObject | undefined, newObj: EventObject | undefined): boolean {
    const hints = this.#o.hintsFor(qpi.podInfo.pod, plugin);
    if (hints === undefined) return true;
    for (const h of hints) {
      if (!eventMatches(h.event, event)) continue;
      if (!h.hint) return true;
      try {
        if (h.hint(qpi.podInfo.pod, oldObj, newObj) === 'Queue') return true;
      } catch (error) {
        this.#o.log?.(`queueing hint of ${plugin} failed: ${String(error)}; requeueing`);
        return true;
      }
    }
    return false;
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  #armBackoffTimer(): void {
    if (this.#closed) return;
    const next = Math.min(this.#backoff.peek() ? this.#backoffExpiry(this.#backoff.peek() as QueuedPodInfo) : Infinity,
      this.#errorBackoff.peek() ? this.#backoffExpiry(this.#errorBackoff.peek() as QueuedPodInfo) : Infinity);
    if (next === Infinity || next >= this.#backoffTimerAt) return;
    this.#backoffTimer?.cancel();
    this.#backoffTimerAt = next;
    this.#backoffTimer = this.#o.clock.setTimer(next, () => {
      this.#backoffTimer = undefined;
      this.#backoffTimerAt = Infinity;
      this.#flushBackoffCompleted();
    });
  }

  #flushBackoffCompleted(): void {
    const now = this.#o.clock.now();
    for (const heap of [this.#backoff, this.#errorBackoff]) {
      for (let q = heap.peek(); q && this.#backoffExpiry(q) <= now; q = heap.peek()) {
        heap.pop();
        this.#active.push(q);
      }
    }
    this.#wake();
    this.#armBackoffTimer();
  }

  #armFlushTimer(): void {
    if (this.#flushTimer || this.#closed) return;
    let earliest = Infinity;
    for (const u of this.#unschedulable.values()) if (!u.qpi.gatedBy && u.qpi.pendingPlugins.size === 0) earliest = Math.min(earliest, u.since);
    if (earliest === Infinity) return;
    // Upstream checks every 30 s for pods older than 5 minutes.
    const due = earliest + this.#o.podMaxInUnschedulablePodsDurationMs;
    const at = Math.ceil(due / flushIntervalMs) * flushIntervalMs + (due % flushIntervalMs === 0 ? flushIntervalMs : 0);
    this.#flushTimer = this.#o.clock.setTimer(at, () => {
      this.#flushTimer = undefined;
      const now = this.#o.clock.now();
      for (const [uid, u] of [...this.#unschedulable.entries()]) {
        if (u.qpi.gatedBy || now - u.since <= this.#o.podMaxInUnschedulablePodsDurationMs) continue;
        if (!this.#isWorthRequeuing(u.qpi, unschedulableTimeout, undefined, undefined)) continue;
        this.#unschedulable.delete(uid);
        this.#requeue(u.qpi);
      }
      this.#armFlushTimer();
    });
  }
}

/** Whether a registered event covers an incoming one (resource and any shared action bit). */
export function eventMatches(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if ((registered.actionType & incoming.actionType) === 0) return false;
  const r = registered.resource;
  const i = incoming.resource;
  if (r === '*' || i === '*' || r === i) return true;
  if (r === 'Pod') return i === 'AssignedPod' || i === 'UnscheduledPod';
  return false;
}

/** The update bits for a pod change, as upstream's PodSchedulingPropertiesChange. */
export function podUpdateActions(oldPod: PodRO | undefined, newPod: PodRO): ActionType {
  if (!oldPod) return ActionType.UpdateOther;
  let a = 0;
  if (!shallowEqual(oldPod.metadata.labels, newPod.metadata.labels)) a |= ActionType.UpdatePodLabel;
  if (!jsonEqual(oldPod.spec.tolerations ?? [], newPod.spec.tolerations ?? [])) a |= ActionType.UpdatePodToleration;
  if ((oldPod.spec.schedulingGates?.length ?? 0) > 0 && (newPod.spec.schedulingGates?.length ?? 0) === 0) a |= ActionType.UpdatePodSchedulingGatesEliminated;
  if (!jsonEqual(oldPod.status?.resourceClaimStatuses ?? [], newPod.status?.resourceClaimStatuses ?? [])) a |= ActionType.UpdatePodGeneratedResourceClaim;
  const o = PodInfo.of(oldPod).requests;
  const n = PodInfo.of(newPod).requests;
  if (n.milliCPU < o.milliCPU || n.memory < o.memory || n.ephemeralStorage < o.ephemeralStorage) a |= ActionType.UpdatePodScaleDown;
  return a === 0 ? ActionType.UpdateOther : a;
}

function shallowEqual(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  if (a === b) return true;
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  for (const k of ka) if (a?.[k] !== b?.[k]) return false;
  return true;
}
