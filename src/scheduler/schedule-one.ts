// One pod through the scheduler: the synchronous scheduling cycle (filter, score, pick, assume,
// reserve, permit) and the asynchronous binding cycle (wait on permit, preBind, bind, postBind),
// with upstream's failure handling: FailedScheduling event + PodScheduled=False, requeue, and
// the unreserve/forget rollback.
// Upstream: pkg/scheduler/schedule_one.go.
import { refs } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, Random } from '../core/index.ts';
import { formatTime } from '../core/index.ts';
import type { SchedulerCache } from './cache.ts';
import type { EventRecorder } from './events.ts';
import { fitErrorMessage, newDiagnosis } from './fit-error.ts';
import type { Diagnosis } from './fit-error.ts';
import type { QueuedPodInfo, Status } from './framework.ts';
import { CycleState, isRejected, statusMessage, unresolvable } from './framework.ts';
import type { NodeInfo, PodInfo } from './node-info.ts';
import type { Profile } from './profile.ts';
import { WaitingPodEntry } from './profile.ts';
import type { SchedulingQueue } from './queue.ts';
import { ActionType } from './framework.ts';

export const minFeasibleNodesToFind = 100;
export const minFeasibleNodesPercentageToFind = 5;
export const errNoNodesAvailable = 'no nodes available to schedule pods';

/** numFeasibleNodesToFind: all nodes below 100, else a percentage (adaptive when 0). */
export function numFeasibleNodesToFind(percentage: number | undefined, numAllNodes: number): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let p = percentage ?? 0;
  if (p === 0) {
    p = Math.trunc(50 - numAllNodes / 125);
    if (p < minFeasibleNodesPercentageToFind) p = minFeasibleNodesPercentageToFind;
  }
  const n = Math.trunc((numAllNodes * p) / 100);
  return n < minFeasibleNodesToFind ? minFeasibleNodesToFind : n;
}

export interface CycleDeps {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  cache: SchedulerCache;
  queue: SchedulingQueue;
  recorder: EventRecorder;
  waiting: Map<string, WaitingPodEntry>;
  percentageOfNodesToScore: number | undefined;
  /** The informer's current copy of a pod (to skip pods bound or deleted meanwhile). */
  currentPod: (key: string) => PodInfo['pod'] | undefined;
  /** Called when a binding cycle ends (for tests and the benchmark). */
  onBound?: (pod: PodInfo, nodeName: string) => void;
}

/** One findNodesThatPassFilters pass, which a waiting Filter may carry over several turns. */
interface FilterPass {
  readonly profile: Profile;
  readonly state: CycleState;
  readonly pi: PodInfo;
  readonly diagnosis: Diagnosis;
  readonly nodes: readonly NodeInfo[];
  readonly want: number;
  readonly start: number;
  readonly feasible: NodeInfo[];
  processed: number;
}

type ScheduleResult = { kind: 'host'; host: string; evaluated: number; feasible: number } | { kind: 'fit'; diagnosis: Diagnosis; numAllNodes: number } | { kind: 'error'; status: Status };

export class Scheduling {
  readonly #d: CycleDeps;
  #nextStartNodeIndex = 0;

  constructor(deps: CycleDeps) {
    this.#d = deps;
  }

  /** ScheduleOne. Resolves when the scheduling cycle is over (binding continues on its own). */
  async scheduleOne(profile: Profile, q: QueuedPodInfo): Promise<void> {
    const d = this.#d;
    const pi = q.podInfo;
    const current = d.currentPod(pi.key);
    if (!current || current.metadata.uid !== pi.pod.metadata.uid || current.metadata.deletionTimestamp || current.spec.nodeName || d.cache.isAssumed(pi.uid)) {
      d.queue.done(pi.uid);
      return;
    }
    const state = new CycleState();
    const result = await this.#schedulePod(profile, state, pi);
    switch (result.kind) {
      case 'host':
        this.#assumeAndBind(profile, state, q, result.host);
        return;
      case 'error':
        await this.#fail(profile, q, result.status, undefined, undefined);
        return;
      case 'fit': {
        const diagnosis = result.diagnosis;
        let nominated: string | undefined;
        if (profile.points.postFilter.length > 0 && result.numAllNodes > 0) {
          const r = await profile.runPostFilter(state, pi, diagnosis.nodeToStatus);
          diagnosis.postFilterMsg = statusMessage(r.status);
          nominated = r.nominatedNodeName;
        }
        const message = result.numAllNodes === 0 ? errNoNodesAvailable : fitErrorMessage(result.numAllNodes, diagnosis);
        q.unschedulablePlugins = diagnosis.unschedulablePlugins;
        q.pendingPlugins = diagnosis.pendingPlugins;
        await this.#fail(profile, q, { code: 'Unschedulable', reasons: [message] }, nominated, message);
        return;
      }
      default: {
        const never: never = result;
        throw new Error(`unexpected result ${String(never)}`);
      }
    }
  }

  async #schedulePod(profile: Profile, state: CycleState, pi: PodInfo): Promise<ScheduleResult> {
    const all = this.#d.cache.list();
    if (all.length === 0) return { kind: 'fit', diagnosis: newDiagnosis(), numAllNodes: 0 };
    const diagnosis = newDiagnosis();
    const pre = profile.runPreFilter(state, pi, all);
    if (pre.status.code !== 'Success') {
      if (!isRejected(pre.status)) return { kind: 'error', status: pre.status };
      diagnosis.nodeToStatus.absent = pre.status;
      diagnosis.preFilterMsg = statusMessage(pre.status);
      addPluginStatus(diagnosis, pre.status);
      return { kind: 'fit', diagnosis, numAllNodes: all.length };
    }
    let nodes = all;
    if (pre.nodeNames) {
      nodes = [];
      for (const n of pre.nodeNames) {
        const ni = this.#d.cache.get(n);
        if (ni) (nodes as NodeInfo[]).push(ni);
      }
      diagnosis.nodeToStatus.absent = unresolvable(`node(s) didn't satisfy plugin(s) [${[...pre.plugins].sort().join(' ')}]`);
    }
    // A nominated node (from an earlier preemption) is tried first.
    const nominated = pi.pod.status?.nominatedNodeName;
    let feasible: NodeInfo[] = [];
    state.filterMayWait = true;
    try {
      if (nominated) {
        const ni = this.#d.cache.get(nominated);
        if (ni && (!pre.nodeNames || pre.nodeNames.has(nominated))) {
          const s = await profile.runFilterWithNominated(state, pi, ni);
          if (s.code === 'Success') feasible = [ni];
          else if (s.code === 'Error') return { kind: 'error', status: s };
        }
      }
      if (feasible.length === 0) {
        let r = this.#findNodesThatPassFilters(profile, state, pi, diagnosis, nodes);
        if (r instanceof Promise) r = await r;
        if (!Array.isArray(r)) return { kind: 'error', status: r };
        feasible = r;
      }
    } finally {
      state.filterMayWait = false;
    }
    if (feasible.length === 0) return { kind: 'fit', diagnosis, numAllNodes: all.length };
    if (feasible.length === 1) return { kind: 'host', host: (feasible[0] as NodeInfo).name, evaluated: 1 + diagnosis.nodeToStatus.explicit.size, feasible: 1 };
    const pre2 = profile.runPreScore(state, pi, feasible);
    if (pre2.code !== 'Success') return { kind: 'error', status: pre2 };
    let scores: number[];
    try {
      scores = profile.points.score.length === 0 ? feasible.map(() => 1) : profile.runScore(state, pi, feasible);
    } catch (error) {
      return { kind: 'error', status: { code: 'Error', error: error instanceof Error ? error : new Error(String(error)) } };
    }
    return { kind: 'host', host: (feasible[this.#selectHost(scores)] as NodeInfo).name, evaluated: feasible.length + diagnosis.nodeToStatus.explicit.size, feasible: feasible.length };
  }

  /**
   * findNodesThatPassFilters, from the node after the last cycle's; synchronous unless a Filter waits,
   * and then the rest of the nodes are filtered on later turns.
   */
  #findNodesThatPassFilters(profile: Profile, state: CycleState, pi: PodInfo, diagnosis: Diagnosis, nodes: readonly NodeInfo[]): NodeInfo[] | Status | Promise<NodeInfo[] | Status> {
    const numAll = nodes.length;
    if (numAll === 0) return [];
    let want = numFeasibleNodesToFind(profile.percentageOfNodesToScore ?? this.#d.percentageOfNodesToScore, numAll);
    if (profile.points.score.length === 0) want = 1;
    const pass: FilterPass = { profile, state, pi, diagnosis, nodes, want, start: this.#nextStartNodeIndex % numAll, feasible: [], processed: 0 };
    return this.#filterNodes(pass, 0);
  }

  /** Filters the pass's nodes from its `offset`-th on (counted from its start node). */
  #filterNodes(pass: FilterPass, offset: number): NodeInfo[] | Status | Promise<NodeInfo[] | Status> {
    const { profile, state, pi, nodes, want, start, feasible } = pass;
    const numAll = nodes.length;
    const withNominated = this.#d.queue.hasNominatedPods;
    for (let i = offset; i < numAll && feasible.length < want; i++) {
      const ni = nodes[(start + i) % numAll] as NodeInfo;
      pass.processed++;
      const s = withNominated ? profile.runFilterWithNominated(state, pi, ni) : profile.runFilter(state, pi, ni);
      if (s instanceof Promise) {
        return s.then((done) => {
          const stop = this.#record(pass, ni, done);
          return stop ?? this.#filterNodes(pass, i + 1);
        });
      }
      const stop = this.#record(pass, ni, s);
      if (stop) return stop;
    }
    this.#nextStartNodeIndex = (start + pass.processed) % numAll;
    return feasible;
  }

  /** One node's Filter verdict into the pass; an Error status stops the pass. */
  #record(pass: FilterPass, ni: NodeInfo, s: Status): Status | undefined {
    if (s.code === 'Success') pass.feasible.push(ni);
    else if (s.code === 'Error') return s;
    else {
      pass.diagnosis.nodeToStatus.set(ni.name, s);
      addPluginStatus(pass.diagnosis, s);
    }
    return undefined;
  }

  /** selectHost: the highest total; ties broken uniformly at random (reservoir sampling). */
  #selectHost(scores: readonly number[]): number {
    let best = 0;
    let max = scores[0] ?? 0;
    let ties = 1;
    for (let i = 1; i < scores.length; i++) {
      const s = scores[i] ?? 0;
      if (s > max) {
        max = s;
        best = i;
        ties = 1;
      } else if (s === max) {
        ties++;
        if (this.#d.random.int(ties) === 0) best = i;
      }
    }
    return best;
  }

  #assumeAndBind(profile: Profile, state: CycleState, q: QueuedPodInfo, host: string): void {
    const d = this.#d;
    const pi = q.podInfo;
    d.cache.assumePod(pi, host);
    d.queue.deleteNominated(pi.uid);
    const reserve = profile.runReserve(state, pi, host);
    if (reserve.code !== 'Success') {
      void this.#rollback(profile, state, q, host, reserve, false);
      return;
    }
    const waits = new Map<string, number>();
    for (const p of profile.points.permit) {
      let r;
      try {
        r = (p.permit as NonNullable<typeof p.permit>)(state, pi, host);
      } catch (error) {
        r = { status: { code: 'Error', error: error instanceof Error ? error : new Error(String(error)) } as Status };
      }
      if (r.status.code === 'Wait') {
        waits.set(p.name, r.timeoutMs ?? 0);
        continue;
      }
      if (r.status.code !== 'Success' && r.status.code !== 'Skip') {
        void this.#rollback(profile, state, q, host, { ...r.status, plugin: p.name }, false);
        return;
      }
    }
    let wait: WaitingPodEntry | undefined;
    if (waits.size > 0) {
      wait = new WaitingPodEntry(pi.pod, host, waits, (ms, fn) => d.clock.after(ms, fn));
      d.waiting.set(pi.uid, wait);
    }
    void this.#bindingCycle(profile, state, q, host, wait);
  }

  async #bindingCycle(profile: Profile, state: CycleState, q: QueuedPodInfo, host: string, wait: WaitingPodEntry | undefined): Promise<void> {
    const d = this.#d;
    const pi = q.podInfo;
    // The queue's in-flight record ends with the scheduling cycle unless we wait or bind.
    try {
      if (wait) {
        const s = await wait.done;
        d.waiting.delete(pi.uid);
        if (s.code !== 'Success') return await this.#rollback(profile, state, q, host, s, true);
      }
      const pre = await profile.runPreBind(state, pi, host);
      if (pre.code !== 'Success') return await this.#rollback(profile, state, q, host, pre, true);
      const bound = await profile.runBind(state, pi, host);
      if (bound.code !== 'Success') return await this.#rollback(profile, state, q, host, bound, true);
      profile.handle.recordEvent(pi.pod, { type: 'Normal', reason: 'Scheduled', action: 'Binding', message: `Successfully assigned ${pi.pod.metadata.namespace ?? ''}/${pi.pod.metadata.name ?? ''} to ${host}` });
      profile.runPostBind(state, pi, host);
      d.queue.done(pi.uid);
      d.onBound?.(pi, host);
    } catch (error) {
      d.log(`binding cycle for ${pi.key}: ${String(error)}`);
      await this.#rollback(profile, state, q, host, { code: 'Error', error: error instanceof Error ? error : new Error(String(error)) }, true);
    }
  }

  /** Reserve/permit/bind failed: unreserve, forget the assumption, record the failure. */
  async #rollback(profile: Profile, state: CycleState, q: QueuedPodInfo, host: string, s: Status, binding: boolean): Promise<void> {
    const d = this.#d;
    const pi = q.podInfo;
    await profile.runUnreserve(state, pi, host);
    d.cache.forgetPod(pi);
    // Forgetting frees the node's resources: that is an assigned-pod delete for other pods.
    if (binding) d.queue.onEvent({ resource: 'AssignedPod', actionType: ActionType.Delete }, pi.pod, undefined);
    if (isRejected(s)) {
      const diagnosis = newDiagnosis();
      diagnosis.nodeToStatus.set(host, s);
      addPluginStatus(diagnosis, s);
      q.unschedulablePlugins = diagnosis.unschedulablePlugins;
      q.pendingPlugins = diagnosis.pendingPlugins;
      const message = fitErrorMessage(1, diagnosis);
      await this.#fail(profile, q, { code: s.code, reasons: [message] }, '', message);
      return;
    }
    q.unschedulablePlugins = new Set();
    q.pendingPlugins = new Set();
    await this.#fail(profile, q, s, '', undefined);
  }

  /** handleSchedulingFailure: requeue, nominate, event, PodScheduled=False. */
  async #fail(profile: Profile, q: QueuedPodInfo, s: Status, nominated: string | undefined, message: string | undefined): Promise<void> {
    const d = this.#d;
    const pi = q.podInfo;
    const reason = isRejected(s) ? 'Unschedulable' : 'SchedulerError';
    const errMsg = message ?? statusMessage(s);
    if (s.code === 'Error') d.log(`scheduling ${pi.key}: ${errMsg}`);
    const current = d.currentPod(pi.key);
    if (current && current.metadata.uid === pi.pod.metadata.uid && !current.spec.nodeName) d.queue.addUnschedulable(q);
    d.queue.done(pi.uid);
    if (!current || current.metadata.uid !== pi.pod.metadata.uid) return;
    if (nominated !== undefined) d.queue.addNominated(pi, nominated);
    profile.handle.recordEvent(current, { type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', message: errMsg });
    await this.#updatePodStatus(current, reason, errMsg, nominated);
  }

  async #updatePodStatus(pod: PodInfo['pod'], reason: string, message: string, nominated: string | undefined): Promise<void> {
    const d = this.#d;
    const old = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const conditionChanged = !old || old.status !== 'False' || old.reason !== reason || old.message !== message;
    const nnnChanged = nominated !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominated;
    if (!conditionChanged && !nnnChanged) return;
    const status: Record<string, unknown> = {};
    if (conditionChanged) {
      const lastTransitionTime = old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : formatTime(d.clock.now());
      // PodObservedGenerationTracking: the generation the condition was written against.
      const generation = pod.metadata.generation;
      status.conditions = [{ type: 'PodScheduled', ...(generation !== undefined ? { observedGeneration: generation } : {}), status: 'False', lastProbeTime: null, lastTransitionTime, reason, message }];
    }
    if (nnnChanged) status.nominatedNodeName = nominated === '' ? null : nominated;
    try {
      await d.client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'strategic', { status }, { subresource: 'status' });
    } catch (error) {
      d.log(`updating status of ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function addPluginStatus(d: Diagnosis, s: Status): void {
  if (!s.plugin) return;
  if (s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable') d.unschedulablePlugins.add(s.plugin);
  if (s.code === 'Pending') d.pendingPlugins.add(s.plugin);
}
