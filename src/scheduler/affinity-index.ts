// Incremental counts for InterPodAffinity's PreFilter, kept by the scheduler cache as pods are
// placed and nodes relabelled, so a cycle reads counts instead of rescanning every pod:
// - existing pods' required anti-affinity terms, grouped by identical term, counted per
//   topology pair of the owner's node (upstream's existingAntiAffinityCounts, from
//   NodeInfo.PodsWithRequiredAntiAffinity);
// - for term lists incoming pods have asked about, the placed pods they match, per topology
//   pair (upstream's affinityCounts / antiAffinityCounts).
// Upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (the same counts,
// computed there by a parallel scan each cycle).
import type { DeepReadonly, LabelSelectorMatcher } from '../core/index.ts';
import { nothingSelector } from '../core/index.ts';
import type { Pod } from '../api/index.ts';
import type { AffinityTerm, PodInfo } from './node-info.ts';
import { affinityTermMatches } from './node-info.ts';

type PodRO = DeepReadonly<Pod>;
type Labels = Readonly<Record<string, string>> | undefined;
/** topologyKey + "\0" + value -> count. */
export type Counts = Map<string, number>;
export const topologyPair = (k: string, v: string): string => `${k}\u0000${v}`;

function bump(m: Counts, k: string, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v === 0) m.delete(k);
  else m.set(k, v);
}

const selectorKey = (s: LabelSelectorMatcher): string => (s === nothingSelector ? '\u0001' : s.toString());
const termKeys = new WeakMap<AffinityTerm, string>();

/** Two terms with one key select the same pods in the same topology. */
export function affinityTermKey(t: AffinityTerm): string {
  let k = termKeys.get(t);
  if (k === undefined) {
    k = `${[...t.namespaces].sort().join(',')}|${selectorKey(t.selector)}|${selectorKey(t.namespaceSelector)}|${t.topologyKey}`;
    termKeys.set(t, k);
  }
  return k;
}

/** How a watched list counts a placed pod: every term must match it (affinity), or each term on its own (anti-affinity). */
export type WatchMode = 'all' | 'each';

interface Watched {
  terms: readonly AffinityTerm[];
  mode: WatchMode;
  counts: Counts;
}

/** Above this many watched lists the index forgets them all and re-learns the ones in use. */
const maxWatched = 256;

export class AffinityIndex {
  readonly #existing = new Map<string, { term: AffinityTerm; counts: Counts }>();
  readonly #watched = new Map<string, Watched>();

  /** A pod placed on (by 1) or taken off (by -1) a node with these labels. */
  add(pi: PodInfo, labels: Labels, by: 1 | -1): void {
    if (!labels) return;
    for (const t of pi.requiredAntiAffinityTerms) {
      const v = labels[t.topologyKey];
      if (v === undefined) continue;
      const k = affinityTermKey(t);
      let e = this.#existing.get(k);
      if (!e) this.#existing.set(k, (e = { term: t, counts: new Map() }));
      bump(e.counts, topologyPair(t.topologyKey, v), by);
      if (e.counts.size === 0) this.#existing.delete(k);
    }
    for (const w of this.#watched.values()) count(w, pi.pod, labels, by);
  }

  /** existingAntiAffinityCounts for an incoming pod: a fresh map the cycle may change. */
  existingAntiCounts(pod: PodRO): Counts {
    const out: Counts = new Map();
    for (const { term, counts } of this.#existing.values()) {
      if (!affinityTermMatches(term, pod, undefined)) continue;
      for (const [k, v] of counts) bump(out, k, v);
    }
    return out;
  }

  /**
   * Counts of placed pods matching `terms` per topology pair, a fresh map. `scan` lists every
   * placed pod with its node's labels; it runs once, when a list is first asked about.
   */
  incomingCounts(terms: readonly AffinityTerm[], mode: WatchMode, scan: () => Iterable<readonly [PodInfo, Labels]>): Counts {
    const k = `${mode}\u0002${terms.map(affinityTermKey).join('\u0002')}`;
    let w = this.#watched.get(k);
    if (!w) {
      if (this.#watched.size >= maxWatched) this.#watched.clear();
      w = { terms, mode, counts: new Map() };
      for (const [pi, labels] of scan()) count(w, pi.pod, labels, 1);
      this.#watched.set(k, w);
    }
    return new Map(w.counts);
  }
}

function count(w: Watched, pod: PodRO, labels: Labels, by: number): void {
  if (!labels) return;
  if (w.mode === 'all') {
    for (const t of w.terms) if (!affinityTermMatches(t, pod, undefined)) return;
  }
  for (const t of w.terms) {
    if (w.mode === 'each' && !affinityTermMatches(t, pod, undefined)) continue;
    const v = labels[t.topologyKey];
    if (v !== undefined) bump(w.counts, topologyPair(t.topologyKey, v), by);
  }
}
