// PodTopologySpread: DoNotSchedule constraints filter nodes by skew across topology domains;
// ScheduleAnyway constraints (or the system defaults, hostname maxSkew 3 and zone maxSkew 5, for
// pods owned by a ReplicaSet or selected by a Service) score them.
// Upstream: pkg/scheduler/framework/plugins/podtopologyspread/{filtering,scoring,common,plugin}.go.
import type { Pod, TopologySpreadConstraint } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { DeepReadonly, KubeObject, LabelSelector, LabelSelectorMatcher } from '../../core/index.ts';
import { labelSelectorFromObject } from '../../core/index.ts';
import type { Cloneable, Plugin, PluginFactory, PodRO, SnapshotLister } from '../framework.ts';
import { ActionType, maxNodeScore, skip, stateKey, success, unresolvable, unschedulable } from '../framework.ts';
import type { NodeInfo, PodInfo } from '../node-info.ts';
import { labelCountKey } from '../node-info.ts';
import { podMatchesNodeSelectorAndAffinity } from '../../api/index.ts';
import { findUntoleratedTaint } from './taint-toleration.ts';

export const name = 'PodTopologySpread';
export const errReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const errReasonNodeLabelNotMatch = `${errReasonConstraintsNotMatch} (missing required label)`;

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  selector: LabelSelectorMatcher;
  minDomains: number;
  honorAffinity: boolean;
  honorTaints: boolean;
}

const hostnameKey = 'kubernetes.io/hostname';

export const systemDefaultConstraints = [
  { maxSkew: 3, topologyKey: hostnameKey, whenUnsatisfiable: 'ScheduleAnyway' },
  { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
] as const;

function toConstraint(c: DeepReadonly<Pick<TopologySpreadConstraint, 'maxSkew' | 'topologyKey'> & Partial<TopologySpreadConstraint>>, selector: LabelSelectorMatcher): Constraint {
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector,
    minDomains: c.minDomains ?? 1,
    honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
    honorTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
  };
}

function parseSelector(ls: DeepReadonly<LabelSelector> | undefined): LabelSelectorMatcher {
  const s = labelSelectorFromObject(ls as LabelSelector | undefined);
  return 'error' in s ? labelSelectorFromObject(undefined) as LabelSelectorMatcher : s;
}

function nodeIncluded(cs: readonly Constraint[], pod: PodRO, ni: NodeInfo): boolean {
  const node = ni.node;
  if (!node) return false;
  for (const c of cs) {
    if (ni.labels?.[c.topologyKey] === undefined) return false;
    if (c.honorAffinity && !podMatchesNodeSelectorAndAffinity(pod, node)) return false;
    if (c.honorTaints && findUntoleratedTaint(ni.taints, pod.spec.tolerations)) return false;
  }
  return true;
}

/**
 * The labelCounts keys a matching pod must have: one per equality requirement (`=`, `==`, or `in`
 * with one value). A node missing any of them holds no matching pod.
 */
function requiredLabelKeys(selector: LabelSelectorMatcher, ns: string): string[] {
  const keys: string[] = [];
  for (const r of selector.requirements) {
    const single = r.operator === '=' || r.operator === '==' || (r.operator === 'in' && r.values.length === 1);
    if (single && r.values[0] !== undefined) keys.push(labelCountKey(ns, r.key, r.values[0]));
  }
  return keys;
}

/**
 * The nodes preScore must count on: with an index, for each constraint those holding pods with its
 * rarest required label; every node when a constraint has no equality requirement.
 */
function nodesToCount(snapshot: SnapshotLister, keys: readonly (readonly string[])[]): Iterable<NodeInfo> {
  if (!snapshot.nodesWithPodLabel || keys.some((k) => k.length === 0)) return snapshot.list();
  const lister = snapshot.nodesWithPodLabel.bind(snapshot);
  const sets = keys.map((ks) => ks.map(lister).reduce((a, b) => (b.size < a.size ? b : a)));
  if (sets.every((s) => s === sets[0])) return sets[0] as ReadonlySet<NodeInfo>;
  return new Set(sets.flatMap((s) => [...s]));
}

/**
 * The names of the candidate nodes among those to count: with the index, the candidates found in its
 * few nodes (both are the cache's NodeInfos) rather than a set of every candidate for each pod.
 */
function candidateNames(candidates: readonly NodeInfo[], toCount: Iterable<NodeInfo>): ReadonlySet<string> {
  if (!(toCount instanceof Set)) return new Set(candidates.map((ni) => ni.name));
  const out = new Set<string>();
  for (const ni of candidates) if (toCount.has(ni)) out.add(ni.name);
  return out;
}

function countMatching(c: Constraint, ns: string, ni: NodeInfo, requiredKeys: readonly string[]): number {
  for (const k of requiredKeys) if (!ni.labelCounts.has(k)) return 0;
  let n = 0;
  for (const p of ni.pods) {
    if ((p.pod.metadata.namespace ?? '') !== ns || p.pod.metadata.deletionTimestamp) continue;
    if (c.selector.matches(p.pod.metadata.labels)) n++;
  }
  return n;
}

/**
 * The distinct values of a topology key among one preScore's candidates, without a new set for each
 * pod (hundreds of candidates, every pod): each value keeps the stamp of the last tally that saw it,
 * so a pass does lookups in a table that stays allocated.
 */
class DomainTally {
  readonly #seen = new Map<string, number>();
  #stamp = 0;
  size = 0;
  begin(nodes: number): this {
    this.#stamp++;
    this.size = 0;
    // Values of nodes long gone would otherwise stay.
    if (this.#seen.size > 2 * nodes + 64) this.#seen.clear();
    return this;
  }
  add(value: string): void {
    if (this.#seen.get(value) === this.#stamp) return;
    this.#seen.set(value, this.#stamp);
    this.size++;
  }
  has(value: string): boolean {
    return this.#seen.get(value) === this.#stamp;
  }
}

class FilterState implements Cloneable<FilterState> {
  constraints: readonly Constraint[];
  counts: Map<string, number>[];
  constructor(constraints: readonly Constraint[], counts: Map<string, number>[]) {
    this.constraints = constraints;
    this.counts = counts;
  }
  clone(): FilterState {
    return new FilterState(this.constraints, this.counts.map((m) => new Map(m)));
  }
}
const filterKey = stateKey<FilterState>('PreFilterPodTopologySpread');
interface ScoreState {
  constraints: readonly Constraint[];
  ignored: Set<string>;
  counts: Map<string, number>[];
  weights: number[];
}
const scoreKey = stateKey<ScoreState>('PreScorePodTopologySpread');

export const newPodTopologySpread: PluginFactory = (raw, handle) => {
  const systemDefaulting = (raw.defaultingType ?? 'System') === 'System';
  const replicaSets = systemDefaulting ? handle.informer<KubeObject & { spec?: { selector?: LabelSelector } }>(refs.replicaSets) : undefined;
  const services = systemDefaulting ? handle.informer<KubeObject & { spec?: { selector?: Record<string, string> } }>(refs.services) : undefined;
  const replicationControllers = systemDefaulting ? handle.informer<KubeObject & { spec?: { selector?: Record<string, string> } }>(refs.replicationControllers) : undefined;

  // One per constraint position, reused by every preScore (the scheduling cycle is synchronous).
  const tallies: DomainTally[] = [];

  /** helper.DefaultSelector: the selectors of the pod's Services and owning ReplicationController or ReplicaSet, merged. */
  const defaultSelector = (pod: DeepReadonly<Pod>): LabelSelectorMatcher | undefined => {
    const matchLabels: Record<string, string> = {};
    const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
    const ns = pod.metadata.namespace ?? '';
    const labels = pod.metadata.labels ?? {};
    for (const svc of services?.list() ?? []) {
      const sel = svc.spec?.selector;
      if (svc.metadata.namespace !== ns || !sel || Object.keys(sel).length === 0) continue;
      if (Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(matchLabels, sel);
    }
    const owner = pod.metadata.ownerReferences?.find((o) => o.controller);
    if (owner?.kind === 'ReplicationController') Object.assign(matchLabels, replicationControllers?.getByName(ns, owner.name)?.spec?.selector ?? {});
    if (owner?.kind === 'ReplicaSet') {
      const rs = replicaSets?.getByName(ns, owner.name);
      Object.assign(matchLabels, rs?.spec?.selector?.matchLabels ?? {});
      matchExpressions.push(...(rs?.spec?.selector?.matchExpressions ?? []));
    }
    if (Object.keys(matchLabels).length + matchExpressions.length === 0) return undefined;
    return parseSelector({ matchLabels, matchExpressions });
  };

  return {
    name,
    preFilter(state, pod, nodes) {
      const hard = (pod.pod.spec.topologySpreadConstraints ?? []).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
      if (hard.length === 0) return skip;
      const cs = hard.map((c) => toConstraint(c, parseSelector(c.labelSelector)));
      const counts = cs.map(() => new Map<string, number>());
      const ns = pod.pod.metadata.namespace ?? '';
      const keys = cs.map((c) => requiredLabelKeys(c.selector, ns));
      for (const ni of nodes) {
        if (!nodeIncluded(cs, pod.pod, ni)) continue;
        cs.forEach((c, i) => {
          const v = ni.labels?.[c.topologyKey] as string;
          const m = counts[i] as Map<string, number>;
          m.set(v, (m.get(v) ?? 0) + countMatching(c, ns, ni, keys[i] ?? []));
        });
      }
      state.write(filterKey, new FilterState(cs, counts));
      return success;
    },
    preFilterExtensions: {
      addPod: (state, pod, toAdd, ni) => update(state.read(filterKey), pod, toAdd, ni, 1),
      removePod: (state, pod, toRemove, ni) => update(state.read(filterKey), pod, toRemove, ni, -1),
    },
    filter(state, pod, nodeInfo) {
      const s = state.read(filterKey);
      if (!s) return success;
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i] as Constraint;
        const v = nodeInfo.labels?.[c.topologyKey];
        if (v === undefined) return unresolvable(errReasonNodeLabelNotMatch);
        const m = s.counts[i] as Map<string, number>;
        let min = Infinity;
        for (const n of m.values()) if (n < min) min = n;
        if (m.size < c.minDomains || min === Infinity) min = 0;
        const self = c.selector.matches(pod.pod.metadata.labels) ? 1 : 0;
        if ((m.get(v) ?? 0) + self - min > c.maxSkew) return unschedulable(errReasonConstraintsNotMatch);
      }
      return success;
    },
    preScore(state, pod, nodes) {
      const own = pod.pod.spec.topologySpreadConstraints ?? [];
      let cs: Constraint[];
      if (own.length > 0) {
        cs = own.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway').map((c) => toConstraint(c, parseSelector(c.labelSelector)));
      } else {
        const sel = systemDefaulting ? defaultSelector(pod.pod) : undefined;
        cs = sel ? systemDefaultConstraints.map((c) => toConstraint(c, sel)) : [];
      }
      if (cs.length === 0) return skip;
      const ignored = new Set<string>();
      const allNodes = handle.snapshot().list().length;
      const sizes = cs.map((_, i) => (tallies[i] ??= new DomainTally()).begin(allNodes));
      // Plain loops: this one runs over every candidate node for each pod.
      for (const ni of nodes) {
        const labels = ni.labels;
        let labelled = labels !== undefined;
        for (let i = 0; labelled && i < cs.length; i++) labelled = labels?.[(cs[i] as Constraint).topologyKey] !== undefined;
        if (!labelled || labels === undefined) {
          ignored.add(ni.name);
          continue;
        }
        for (let i = 0; i < cs.length; i++) (sizes[i] as DomainTally).add(labels[(cs[i] as Constraint).topologyKey] as string);
      }
      if (ignored.size === nodes.length) return skip;
      const ns = pod.pod.metadata.namespace ?? '';
      const counts = cs.map(() => new Map<string, number>());
      const keys = cs.map((c) => requiredLabelKeys(c.selector, ns));
      // One pass over the nodes that may hold a matching pod (a node without one adds nothing to any
      // count), each node's pods counted once per distinct selector (the system defaults' two
      // constraints share one) and its affinity checked once; countMatching visits the pods only of
      // nodes whose label counts allow a match.
      const toCount = nodesToCount(handle.snapshot(), keys);
      // Hostname domains are counted on the candidate nodes only; others on every node.
      const candidates = candidateNames(nodes, toCount);
      for (const ni of toCount) {
        const node = ni.node;
        if (!node) continue;
        let affinity: boolean | undefined;
        let counted: { selector: LabelSelectorMatcher; n: number } | undefined;
        for (let i = 0; i < cs.length; i++) {
          const c = cs[i] as Constraint;
          if (c.topologyKey === hostnameKey && !candidates.has(ni.name)) continue;
          const v = ni.labels?.[c.topologyKey];
          if (v === undefined || !(sizes[i] as DomainTally).has(v)) continue;
          if (c.honorAffinity && !(affinity ??= podMatchesNodeSelectorAndAffinity(pod.pod, node))) continue;
          if (c.honorTaints && findUntoleratedTaint(ni.taints, pod.pod.spec.tolerations)) continue;
          if (counted?.selector !== c.selector) counted = { selector: c.selector, n: countMatching(c, ns, ni, keys[i] ?? []) };
          const m = counts[i] as Map<string, number>;
          m.set(v, (m.get(v) ?? 0) + counted.n);
        }
      }
      state.write(scoreKey, { constraints: cs, ignored, counts, weights: sizes.map((s) => Math.log(s.size + 2)) });
      return success;
    },
    score(state, _pod, nodeInfo) {
      const s = state.read(scoreKey);
      if (!s || s.ignored.has(nodeInfo.name)) return 0;
      let score = 0;
      const labels = nodeInfo.labels;
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i] as Constraint;
        const v = labels?.[c.topologyKey];
        if (v === undefined) continue;
        score += ((s.counts[i] as Map<string, number>).get(v) ?? 0) * (s.weights[i] as number) + (c.maxSkew - 1);
      }
      return Math.round(score);
    },
    normalizeScore(state, _pod, scores) {
      const s = state.read(scoreKey);
      if (!s) return;
      let min = Infinity;
      let max = -Infinity;
      for (const x of scores) {
        if (s.ignored.has(x.name)) continue;
        min = Math.min(min, x.score);
        max = Math.max(max, x.score);
      }
      for (const x of scores) {
        if (s.ignored.has(x.name)) x.score = 0;
        else if (max === 0) x.score = maxNodeScore;
        else x.score = Math.trunc((maxNodeScore * (max + min - x.score)) / max);
      }
    },
    eventsToRegister: () => [
      { event: { resource: 'AssignedPod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint } },
    ],
  } satisfies Plugin;
};

function update(s: FilterState | undefined, pod: PodInfo, other: PodInfo, ni: NodeInfo, by: number): typeof success {
  if (!s || !nodeIncluded(s.constraints, pod.pod, ni)) return success;
  if ((other.pod.metadata.namespace ?? '') !== (pod.pod.metadata.namespace ?? '')) return success;
  s.constraints.forEach((c, i) => {
    if (!c.selector.matches(other.pod.metadata.labels)) return;
    const v = ni.labels?.[c.topologyKey] as string;
    const m = s.counts[i] as Map<string, number>;
    m.set(v, (m.get(v) ?? 0) + by);
  });
  return success;
}
