// DefaultPreemption (PostFilter): when no node fits, find nodes where evicting lower-priority
// pods would make room, pick the best candidate, evict the victims gracefully (DisruptionTarget
// condition, then DELETE) and nominate the node. Its message is the inner FitError, prefixed
// "preemption: ".
// Upstream: pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go,
// pkg/scheduler/framework/preemption/preemption.go, pkg/scheduler/util/utils.go (MoreImportantPod).
import type { Pod } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import { formatTime } from '../../core/index.ts';
import type { CycleState, NodeToStatus, Plugin, PluginFactory, PodRO, PostFilterResult, Status } from '../framework.ts';
import { success, unresolvable, unschedulable } from '../framework.ts';
import { fitErrorMessage, NodeStatusMap } from '../fit-error.ts';
import type { NodeInfo } from '../node-info.ts';
import { PodInfo } from '../node-info.ts';

export const name = 'DefaultPreemption';
export const noVictims = 'No preemption victims found for incoming pod';
export const notHelpful = 'Preemption is not helpful for scheduling';
export const preemptionPolicyNever = 'not eligible due to preemptionPolicy=Never.';
export const terminatingOnNominated = 'not eligible due to a terminating pod on the nominated node.';

interface Candidate {
  node: string;
  victims: PodInfo[];
  numPDBViolations: number;
}

/** Higher priority first; equal priority: the one running longer (earlier start) first. */
export function moreImportantPod(a: PodRO, b: PodRO): boolean {
  const p1 = a.spec.priority ?? 0;
  const p2 = b.spec.priority ?? 0;
  if (p1 !== p2) return p1 > p2;
  const t1 = a.status?.startTime ?? a.metadata.creationTimestamp;
  const t2 = b.status?.startTime ?? b.metadata.creationTimestamp;
  if (!t1 || !t2) return false;
  return Date.parse(t1) < Date.parse(t2);
}

function podTerminatingByPreemption(p: PodRO): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  const c = p.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
  return c?.status === 'True' && c.reason === 'PreemptionByScheduler';
}

export const newDefaultPreemption: PluginFactory = (raw, handle) => {
  const minPct = typeof raw.minCandidateNodesPercentage === 'number' ? raw.minCandidateNodesPercentage : 10;
  const minAbs = typeof raw.minCandidateNodesAbsolute === 'number' ? raw.minCandidateNodesAbsolute : 100;
  const numCandidates = (n: number): number => Math.min(n, Math.max(Math.trunc((n * minPct) / 100), minAbs));

  const selectVictimsOnNode = (state: CycleState, pod: PodInfo, ni: NodeInfo): { victims: PodInfo[]; status: Status } => {
    const potential = ni.pods.filter((p) => p.priority < pod.priority);
    for (const v of potential) {
      ni.removePod(v);
      const s = handle.runPreFilterExtensionRemovePod(state, pod, v, ni);
      if (s.code !== 'Success') return { victims: [], status: s };
    }
    if (potential.length === 0) return { victims: [], status: unresolvable(noVictims) };
    const fits = handle.runFilterPluginsWithNominatedPods(state, pod, ni);
    if (fits.code !== 'Success') return { victims: [], status: fits };
    potential.sort((a, b) => (moreImportantPod(a.pod, b.pod) ? -1 : moreImportantPod(b.pod, a.pod) ? 1 : 0));
    // Reprieve as many as possible, most important first (no PDBs considered: none violated).
    const victims: PodInfo[] = [];
    for (const v of potential) {
      ni.addPod(v);
      handle.runPreFilterExtensionAddPod(state, pod, v, ni);
      if (handle.runFilterPluginsWithNominatedPods(state, pod, ni).code !== 'Success') {
        ni.removePod(v);
        handle.runPreFilterExtensionRemovePod(state, pod, v, ni);
        victims.push(v);
      }
    }
    return { victims, status: success };
  };

  const pickOne = (cands: readonly Candidate[]): Candidate => {
    let pool = [...cands];
    const earliest = (c: Candidate): number => Math.min(...c.victims.filter((v) => v.priority === (c.victims[0]?.priority ?? 0)).map((v) => Date.parse(v.pod.status?.startTime ?? v.pod.metadata.creationTimestamp ?? '') || 0));
    const scorers: ((c: Candidate) => number)[] = [
      (c) => -c.numPDBViolations,
      (c) => -(c.victims[0]?.priority ?? 0),
      (c) => -c.victims.reduce((s, v) => s + v.priority + 2 ** 31, 0),
      (c) => -c.victims.length,
      (c) => earliest(c),
    ];
    for (const f of scorers) {
      let max = -Infinity;
      let best: Candidate[] = [];
      for (const c of pool) {
        const s = f(c);
        if (s > max) {
          max = s;
          best = [c];
        } else if (s === max) best.push(c);
      }
      if (best.length === 1) return best[0] as Candidate;
      pool = best;
    }
    return pool[0] as Candidate;
  };

  const evict = async (pod: PodInfo, c: Candidate): Promise<void> => {
    const schedulerName = pod.pod.spec.schedulerName ?? 'default-scheduler';
    for (const v of c.victims) {
      if (v.pod.metadata.deletionTimestamp) continue;
      const waiting = handle.waitingPod(v.uid);
      if (waiting) {
        waiting.reject(name, 'preempted');
      } else {
        const ns = v.pod.metadata.namespace;
        const vname = v.pod.metadata.name ?? '';
        const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: formatTime(handle.clock.now()), reason: 'PreemptionByScheduler', message: `${schedulerName}: preempting to accommodate a higher priority pod` };
        try {
          await handle.client.patch(refs.pods, ns, vname, 'strategic', { status: { conditions: [condition] } }, { subresource: 'status' });
          await handle.client.delete(refs.pods, ns, vname, { preconditions: { ...(v.pod.metadata.uid ? { uid: v.pod.metadata.uid } : {}) } });
        } catch (error) {
          if ((error as { code?: number }).code !== 404) throw error;
          continue;
        }
      }
      handle.recordEvent(v.pod, { type: 'Normal', reason: 'Preempted', action: 'Preempting', message: `Preempted by pod ${pod.uid} on node ${c.node}` });
    }
    // Lower-priority pods nominated to this node may no longer fit: clear their nomination.
    for (const p of handle.nominatedPodsForNode(c.node)) {
      if (p.priority >= pod.priority || !p.pod.status?.nominatedNodeName) continue;
      await handle.client.patch(refs.pods, p.pod.metadata.namespace, p.pod.metadata.name ?? '', 'merge', { status: { nominatedNodeName: null } }, { subresource: 'status' }).catch(() => undefined);
    }
  };

  const preempt = async (state: CycleState, pod: PodInfo, m: NodeToStatus): Promise<PostFilterResult> => {
    const latest = handle.informer<Pod>(refs.pods).get(pod.key) ?? pod.pod;
    const pi = PodInfo.of(latest);
    if (latest.spec.preemptionPolicy === 'Never') return { status: unschedulable(preemptionPolicyNever) };
    const snapshot = handle.snapshot();
    const nnn = latest.status?.nominatedNodeName;
    if (nnn && m.get(nnn)?.code !== 'UnschedulableAndUnresolvable') {
      const ni = snapshot.get(nnn);
      if (ni && ni.pods.some((p) => p.priority < pi.priority && podTerminatingByPreemption(p.pod))) return { status: unschedulable(terminatingOnNominated) };
    }
    const all = snapshot.list();
    const potential = all.filter((n) => m.get(n.name)?.code === 'Unschedulable');
    const statuses = new NodeStatusMap(unresolvable(notHelpful));
    const nonViolating: Candidate[] = [];
    if (potential.length > 0) {
      const offset = handle.random.int(potential.length);
      const want = numCandidates(potential.length);
      for (let i = 0; i < potential.length; i++) {
        const ni = (potential[(offset + i) % potential.length] as NodeInfo).clone();
        const { victims, status } = selectVictimsOnNode(state.clone(), pi, ni);
        if (status.code === 'Success' && victims.length > 0) {
          nonViolating.push({ node: ni.name, victims, numPDBViolations: 0 });
          if (nonViolating.length >= want) break;
          continue;
        }
        statuses.set(ni.name, status.code === 'Success' ? { code: 'Error', error: new Error(`expected at least one victim pod on node "${ni.name}"`) } : status);
      }
    }
    if (nonViolating.length === 0) {
      return { status: unschedulable(fitErrorMessage(all.length, { nodeToStatus: statuses, preFilterMsg: '', postFilterMsg: '' })), nominatedNodeName: '' };
    }
    const best = pickOne(nonViolating);
    await evict(pi, best);
    return { status: success, nominatedNodeName: best.node };
  };

  return {
    name,
    async postFilter(state, pod, m) {
      const r = await preempt(state, pod, m);
      const s = r.status;
      if (s.code === 'Unschedulable' && s.reasons.length > 0) return { ...r, status: unschedulable(`preemption: ${s.reasons.join(', ')}`) };
      return r;
    },
  } satisfies Plugin;
};
