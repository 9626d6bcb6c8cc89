// InterPodAffinity: required pod affinity / anti-affinity of the incoming pod, and required
// anti-affinity of pods already running, filter nodes by topology domain; preferred terms (both
// ways) score them. Counts live in CycleState so preemption can add/remove pods.
// Upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go, scoring.go, plugin.go.
import type { Node } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { jsonEqual } from '../../core/index.ts';
import type { Cloneable, CycleState, Plugin, PluginFactory, PodRO } from '../framework.ts';
import { ActionType, maxNodeScore, skip, stateKey, success, unresolvable, unschedulable } from '../framework.ts';
import type { AffinityTerm, NodeInfo, PodInfo, WeightedAffinityTerm } from '../node-info.ts';
import { affinityTermMatches } from '../node-info.ts';
import { topologyPair } from '../affinity-index.ts';

export const name = 'InterPodAffinity';
export const errReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";
export const errReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const errReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

type Labels = Readonly<Record<string, string>> | undefined;
/** topologyKey + "\0" + value -> matching count. */
type Counts = Map<string, number>;
const pair = topologyPair;

function bump(m: Counts, k: string, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v === 0) m.delete(k);
  else m.set(k, v);
}

function matchesAll(terms: readonly AffinityTerm[], pod: PodRO): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!affinityTermMatches(t, pod, undefined)) return false;
  return true;
}

function addAffinity(m: Counts, terms: readonly AffinityTerm[], pod: PodRO, labels: Labels, by: number): void {
  if (!matchesAll(terms, pod)) return;
  for (const t of terms) {
    const v = labels?.[t.topologyKey];
    if (v !== undefined) bump(m, pair(t.topologyKey, v), by);
  }
}
function addAntiAffinity(m: Counts, terms: readonly AffinityTerm[], pod: PodRO, labels: Labels, by: number): void {
  for (const t of terms) {
    if (!affinityTermMatches(t, pod, undefined)) continue;
    const v = labels?.[t.topologyKey];
    if (v !== undefined) bump(m, pair(t.topologyKey, v), by);
  }
}

class FilterState implements Cloneable<FilterState> {
  pod: PodInfo;
  existingAnti: Counts;
  affinity: Counts;
  anti: Counts;
  constructor(pod: PodInfo, existingAnti: Counts, affinity: Counts, anti: Counts) {
    this.pod = pod;
    this.existingAnti = existingAnti;
    this.affinity = affinity;
    this.anti = anti;
  }
  clone(): FilterState {
    return new FilterState(this.pod, new Map(this.existingAnti), new Map(this.affinity), new Map(this.anti));
  }
  update(other: PodInfo, labels: Labels, by: number): void {
    addAntiAffinity(this.existingAnti, other.requiredAntiAffinityTerms, this.pod.pod, labels, by);
    addAffinity(this.affinity, this.pod.requiredAffinityTerms, other.pod, labels, by);
    addAntiAffinity(this.anti, this.pod.requiredAntiAffinityTerms, other.pod, labels, by);
  }
}
const filterKey = stateKey<FilterState>('PreFilterInterPodAffinity');
const scoreKey = stateKey<Map<string, Map<string, number>>>('PreScoreInterPodAffinity');

function satisfyAffinity(s: FilterState, labels: Labels): boolean {
  let exist = true;
  for (const t of s.pod.requiredAffinityTerms) {
    const v = labels?.[t.topologyKey];
    if (v === undefined) return false;
    if ((s.affinity.get(pair(t.topologyKey, v)) ?? 0) <= 0) exist = false;
  }
  // The first pod of a group with affinity to itself may go anywhere its terms can match.
  if (!exist) return s.affinity.size === 0 && matchesAll(s.pod.requiredAffinityTerms, s.pod.pod);
  return true;
}
function satisfyAnti(s: FilterState, labels: Labels): boolean {
  if (s.anti.size === 0) return true;
  for (const t of s.pod.requiredAntiAffinityTerms) {
    const v = labels?.[t.topologyKey];
    if (v !== undefined && (s.anti.get(pair(t.topologyKey, v)) ?? 0) > 0) return false;
  }
  return true;
}
function satisfyExistingAnti(s: FilterState, labels: Labels): boolean {
  if (s.existingAnti.size === 0 || !labels) return true;
  for (const k in labels) if ((s.existingAnti.get(pair(k, labels[k] as string)) ?? 0) > 0) return false;
  return true;
}

export const newInterPodAffinity: PluginFactory = (raw, handle) => {
  const hardPodAffinityWeight = typeof raw.hardPodAffinityWeight === 'number' ? raw.hardPodAffinityWeight : 1;
  return {
    name,
    preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]) {
      const snap = handle.snapshot();
      const withAnti = snap.havePodsWithRequiredAntiAffinity();
      if (pod.requiredAffinityTerms.length === 0 && pod.requiredAntiAffinityTerms.length === 0 && withAnti.length === 0) return skip;
      // The cache's incremental counts cover exactly list()'s pods; other node lists are scanned.
      const index = nodes === snap.list() ? snap.affinityIndex?.() : undefined;
      if (index) {
        const scan = function* (): Generator<readonly [PodInfo, Labels]> {
          for (const ni of nodes) for (const e of ni.pods) yield [e, ni.labels];
        };
        const affinity = pod.requiredAffinityTerms.length > 0 ? index.incomingCounts(pod.requiredAffinityTerms, 'all', scan) : new Map<string, number>();
        const anti = pod.requiredAntiAffinityTerms.length > 0 ? index.incomingCounts(pod.requiredAntiAffinityTerms, 'each', scan) : new Map<string, number>();
        state.write(filterKey, new FilterState(pod, index.existingAntiCounts(pod.pod), affinity, anti));
        return success;
      }
      const existingAnti: Counts = new Map();
      for (const ni of withAnti) for (const e of ni.podsWithRequiredAntiAffinity) addAntiAffinity(existingAnti, e.requiredAntiAffinityTerms, pod.pod, ni.labels, 1);
      const affinity: Counts = new Map();
      const anti: Counts = new Map();
      if (pod.requiredAffinityTerms.length > 0 || pod.requiredAntiAffinityTerms.length > 0) {
        for (const ni of nodes) {
          for (const e of ni.pods) {
            if (pod.requiredAffinityTerms.length > 0) addAffinity(affinity, pod.requiredAffinityTerms, e.pod, ni.labels, 1);
            if (pod.requiredAntiAffinityTerms.length > 0) addAntiAffinity(anti, pod.requiredAntiAffinityTerms, e.pod, ni.labels, 1);
          }
        }
      }
      state.write(filterKey, new FilterState(pod, existingAnti, affinity, anti));
      return success;
    },
    preFilterExtensions: {
      addPod(state, _pod, toAdd, nodeInfo) {
        state.read(filterKey)?.update(toAdd, nodeInfo.labels, 1);
        return success;
      },
      removePod(state, _pod, toRemove, nodeInfo) {
        state.read(filterKey)?.update(toRemove, nodeInfo.labels, -1);
        return success;
      },
    },
    filter(state, _pod, nodeInfo) {
      const s = state.read(filterKey);
      if (!s) return success;
      const labels = nodeInfo.labels;
      if (!satisfyAffinity(s, labels)) return unresolvable(errReasonAffinityRulesNotMatch);
      if (!satisfyAnti(s, labels)) return unschedulable(errReasonAntiAffinityRulesNotMatch);
      if (!satisfyExistingAnti(s, labels)) return unschedulable(errReasonExistingAntiAffinityRulesNotMatch);
      return success;
    },
    preScore(state, pod) {
      const hasPreferred = pod.preferredAffinityTerms.length + pod.preferredAntiAffinityTerms.length > 0;
      const snap = handle.snapshot();
      const nodes = hasPreferred ? snap.list() : snap.havePodsWithAffinity();
      if (nodes.length === 0) return skip;
      const scores = new Map<string, Map<string, number>>();
      const add = (terms: readonly WeightedAffinityTerm[], target: PodRO, labels: Labels, sign: number): void => {
        for (const t of terms) {
          if (!affinityTermMatches(t, target, undefined)) continue;
          const v = labels?.[t.topologyKey];
          if (v === undefined) continue;
          let m = scores.get(t.topologyKey);
          if (!m) scores.set(t.topologyKey, (m = new Map()));
          m.set(v, (m.get(v) ?? 0) + sign * t.weight);
        }
      };
      for (const ni of nodes) {
        const labels = ni.labels;
        for (const e of hasPreferred ? ni.pods : ni.podsWithAffinity) {
          // A pod whose only terms are required anti-affinity adds nothing to any score.
          if (!hasPreferred && e.requiredAffinityTerms.length + e.preferredAffinityTerms.length + e.preferredAntiAffinityTerms.length === 0) continue;
          add(pod.preferredAffinityTerms, e.pod, labels, 1);
          add(pod.preferredAntiAffinityTerms, e.pod, labels, -1);
          if (hardPodAffinityWeight > 0 && e.requiredAffinityTerms.length > 0) add(e.requiredAffinityTerms.map((t) => ({ ...t, weight: hardPodAffinityWeight })), pod.pod, labels, 1);
          add(e.preferredAffinityTerms, pod.pod, labels, 1);
          add(e.preferredAntiAffinityTerms, pod.pod, labels, -1);
        }
      }
      if (scores.size === 0) return skip;
      state.write(scoreKey, scores);
      return success;
    },
    score(state, _pod, nodeInfo) {
      const scores = state.read(scoreKey);
      const labels = nodeInfo.labels;
      let total = 0;
      if (scores && labels) for (const [k, m] of scores) total += m.get(labels[k] ?? '\u0000none') ?? 0;
      return total;
    },
    normalizeScore(_state, _pod, scores) {
      let min = Infinity;
      let max = -Infinity;
      for (const s of scores) {
        if (s.score < min) min = s.score;
        if (s.score > max) max = s.score;
      }
      const diff = max - min;
      for (const s of scores) s.score = diff > 0 ? Math.trunc((maxNodeScore * (s.score - min)) / diff) : 0;
    },
    eventsToRegister: () => [
      { event: { resource: 'AssignedPod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel }, hint: (_pod, oldObj, newObj) => (newObj && (!oldObj || !jsonEqual((oldObj as DeepReadonly<Node>).metadata.labels, (newObj as DeepReadonly<Node>).metadata.labels)) ? 'Queue' : 'QueueSkip') },
    ],
  } satisfies Plugin;
};
