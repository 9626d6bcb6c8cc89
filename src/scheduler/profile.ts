// A profile's framework runtime: the plugin list of each extension point and the functions
// that run them with upstream's semantics (first filter failure wins, weighted score sums,
// unreserve in reverse, PostFilter chains, permit waiting on the Clock).
// Upstream: pkg/scheduler/framework/runtime/framework.go, waiting_pods_map.go.
import type {
  CycleState, Handle, NodeScore, NodeToStatus, Plugin, PodRO, PostFilterResult, PreFilterResult, Status, WaitingPod,
} from './framework.ts';
import { errorStatus, isRejected, statusMessage, success, unresolvable, withPlugin } from './framework.ts';
import type { NodeInfo, PodInfo } from './node-info.ts';

export interface ScorePlugin {
  plugin: Plugin;
  weight: number;
}

/** The plugins enabled at each point, in order. */
export interface PointLists {
  preEnqueue: Plugin[];
  queueSort: Plugin | undefined;
  preFilter: Plugin[];
  filter: Plugin[];
  postFilter: Plugin[];
  preScore: Plugin[];
  score: ScorePlugin[];
  reserve: Plugin[];
  permit: Plugin[];
  preBind: Plugin[];
  bind: Plugin[];
  postBind: Plugin[];
}

export class Profile {
  readonly name: string;
  readonly points: PointLists;
  readonly plugins: ReadonlyMap<string, Plugin>;
  readonly percentageOfNodesToScore: number | undefined;
  handle!: Handle;
  readonly #scoreBuffers: NodeScore[][] = [];

  constructor(name: string, plugins: ReadonlyMap<string, Plugin>, points: PointLists, percentageOfNodesToScore: number | undefined) {
    this.name = name;
    this.plugins = plugins;
    this.points = points;
    this.percentageOfNodesToScore = percentageOfNodesToScore;
  }

  runPreEnqueue(pod: PodRO): Status {
    for (const p of this.points.preEnqueue) {
      const s = guard(p, () => (p.preEnqueue as NonNullable<Plugin['preEnqueue']>)(pod));
      if (s.code !== 'Success') return filterFailure(s, p.name);
    }
    return success;
  }

  /**
   * PreFilter: Skip marks the plugin's Filter skipped; rejections stop at once. nodeNames of
   * several plugins intersect; an empty intersection is a rejection of its own.
   */
  runPreFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): { status: Status; nodeNames?: ReadonlySet<string>; plugins: string[] } {
    let names: Set<string> | undefined;
    const narrowing: string[] = [];
    for (const p of this.points.preFilter) {
      let r: PreFilterResult | Status;
      try {
        r = (p.preFilter as NonNullable<Plugin['preFilter']>)(state, pod, nodes);
      } catch (error) {
        return { status: withPlugin(errorStatus(error), p.name), plugins: [] };
      }
      const st = 'status' in r ? r.status : r;
      const nodeNames = 'status' in r ? r.nodeNames : undefined;
      if (st.code === 'Skip') {
        state.skipFilterPlugins.add(p.name);
        continue;
      }
      if (st.code !== 'Success') return { status: withPlugin(st, p.name), plugins: [] };
      if (nodeNames) {
        narrowing.push(p.name);
        names = names ? new Set([...names].filter((n) => nodeNames.has(n))) : new Set(nodeNames);
        if (names.size === 0) {
          const msg = narrowing.length === 1 ? `node(s) didn't satisfy plugin ${p.name}` : `node(s) didn't satisfy plugin(s) [${[...narrowing].sort().join(' ')}] simultaneously`;
          return { status: withPlugin(unresolvable(msg), p.name), plugins: [] };
        }
      }
    }
    return names ? { status: success, nodeNames: names, plugins: narrowing } : { status: success, plugins: narrowing };
  }

  /** Filter: the first non-Success status, with its plugin; a promise once a Filter waits (CycleState.filterMayWait). */
  runFilter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | Promise<Status> {
    return this.#runFiltersFrom(this.#activeFilters(state), 0, state, pod, nodeInfo);
  }

  #runFiltersFrom(filters: readonly Plugin[], from: number, state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | Promise<Status> {
    for (let i = from; i < filters.length; i++) {
      const p = filters[i] as Plugin;
      let s: Status | Promise<Status>;
      try {
        s = (p.filter as NonNullable<Plugin['filter']>)(state, pod, nodeInfo);
      } catch (error) {
        s = errorStatus(error);
      }
      if (s instanceof Promise) {
        return s.then(
          (done) => (done.code !== 'Success' ? filterFailure(done, p.name) : this.#runFiltersFrom(filters, i + 1, state, pod, nodeInfo)),
          (error: unknown) => filterFailure(errorStatus(error), p.name),
        );
      }
      if (s.code !== 'Success') return filterFailure(s, p.name);
    }
    return success;
  }

  // The filters PreFilter did not skip, worked out once per cycle state rather than per node
  // (Skip is only set by PreFilter, so the skip set's size tells whether the list is current).
  #filterFor: CycleState | undefined;
  #filterSkips = -1;
  #filterList: readonly Plugin[] = [];
  #activeFilters(state: CycleState): readonly Plugin[] {
    if (state !== this.#filterFor || state.skipFilterPlugins.size !== this.#filterSkips) {
      this.#filterFor = state;
      this.#filterSkips = state.skipFilterPlugins.size;
      this.#filterList = state.skipFilterPlugins.size === 0 ? this.points.filter : this.points.filter.filter((p) => !state.skipFilterPlugins.has(p.name));
    }
    return this.#filterList;
  }

  /**
   * RunFilterPluginsWithNominatedPods: a node must fit with and without the nominated pods of
   * priority >= the pod's (they are about to land there).
   */
  runFilterWithNominated(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | Promise<Status> {
    const nominated = this.handle.nominatedPodsForNode(nodeInfo.name).filter((n) => n.uid !== pod.uid && n.priority >= pod.priority);
    if (nominated.length > 0) {
      const ni = nodeInfo.clone();
      const st = state.clone();
      for (const n of nominated) {
        ni.addPod(n);
        const s = this.runAddPod(st, pod, n, ni);
        if (s.code !== 'Success') return s;
      }
      const s = this.runFilter(st, pod, ni);
      if (s instanceof Promise) return s.then((done) => (done.code !== 'Success' ? done : this.runFilter(state, pod, nodeInfo)));
      if (s.code !== 'Success') return s;
    }
    return this.runFilter(state, pod, nodeInfo);
  }

  runAddPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, nodeInfo: NodeInfo): Status {
    for (const p of this.points.preFilter) {
      if (!p.preFilterExtensions || state.skipFilterPlugins.has(p.name)) continue;
      const s = guard(p, () => (p.preFilterExtensions as NonNullable<Plugin['preFilterExtensions']>).addPod(state, pod, toAdd, nodeInfo));
      if (s.code !== 'Success') return filterFailure(s, p.name);
    }
    return success;
  }

  runRemovePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, nodeInfo: NodeInfo): Status {
    for (const p of this.points.preFilter) {
      if (!p.preFilterExtensions || state.skipFilterPlugins.has(p.name)) continue;
      const s = guard(p, () => (p.preFilterExtensions as NonNullable<Plugin['preFilterExtensions']>).removePod(state, pod, toRemove, nodeInfo));
      if (s.code !== 'Success') return filterFailure(s, p.name);
    }
    return success;
  }

  /**
   * PostFilter: the first Success or UnschedulableAndUnresolvable ends the chain; otherwise the
   * reasons of all plugins are joined (", ") into the message appended to the FitError.
   */
  async runPostFilter(state: CycleState, pod: PodInfo, filtered: NodeToStatus): Promise<PostFilterResult> {
    let nominated: string | undefined;
    const reasons: string[] = [];
    let rejector: string | undefined;
    for (const p of this.points.postFilter) {
      let r: PostFilterResult;
      try {
        r = await (p.postFilter as NonNullable<Plugin['postFilter']>)(state, pod, filtered);
      } catch (error) {
        return { status: withPlugin(errorStatus(error), p.name) };
      }
      const s = r.status;
      if (s.code === 'Success') return r;
      if (s.code === 'UnschedulableAndUnresolvable') return { ...r, status: withPlugin(s, p.name) };
      if (!isRejected(s)) return { status: withPlugin(s.code === 'Error' ? s : errorStatus(new Error(statusMessage(s))), p.name) };
      if (r.nominatedNodeName !== undefined) nominated = r.nominatedNodeName;
      reasons.push(...s.reasons);
      rejector ??= p.name;
    }
    const status: Status = { code: 'Unschedulable', reasons, ...(rejector ? { plugin: rejector } : {}) };
    return nominated === undefined ? { status } : { status, nominatedNodeName: nominated };
  }

  runPreScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status {
    for (const p of this.points.preScore) {
      const s = guard(p, () => (p.preScore as NonNullable<Plugin['preScore']>)(state, pod, nodes));
      if (s.code === 'Skip') state.skipScorePlugins.add(p.name);
      else if (s.code !== 'Success') return withPlugin(s, p.name);
    }
    return success;
  }

  /** Score, NormalizeScore and weights: the total per node, in `nodes` order. */
  runScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): number[] {
    const totals = new Array<number>(nodes.length).fill(0);
    const points = this.points.score;
    for (let k = 0; k < points.length; k++) {
      const { plugin: p, weight } = points[k] as ScorePlugin;
      if (state.skipScorePlugins.has(p.name)) continue;
      const score = p.score as NonNullable<Plugin['score']>;
      // NodeScore objects are reused across cycles (one list per plugin) to spare the GC.
      const scores = (this.#scoreBuffers[k] ??= []);
      scores.length = nodes.length;
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i] as NodeInfo;
        const v = score.call(p, state, pod, n);
        const entry = scores[i];
        if (entry) {
          entry.name = n.name;
          entry.score = v;
        } else scores[i] = { name: n.name, score: v };
      }
      p.normalizeScore?.(state, pod, scores);
      for (let i = 0; i < scores.length; i++) {
        const s = (scores[i] as NodeScore).score;
        if (s < 0 || s > 100) throw new Error(`plugin "${p.name}" returns an invalid score ${s}, it should in the range of [0, 100] after normalizing`);
        totals[i] = (totals[i] ?? 0) + s * weight;
      }
    }
    return totals;
  }

  runReserve(state: CycleState, pod: PodInfo, nodeName: string): Status {
    for (const p of this.points.reserve) {
      if (!p.reserve) continue;
      const s = guard(p, () => (p.reserve as NonNullable<Plugin['reserve']>)(state, pod, nodeName));
      if (s.code !== 'Success') return filterFailure(s, p.name);
    }
    return success;
  }

  async runUnreserve(state: CycleState, pod: PodInfo, nodeName: string): Promise<void> {
    for (const p of [...this.points.reserve].reverse()) {
      try {
        await p.unreserve?.(state, pod, nodeName);
      } catch (error) {
        this.handle.log(`unreserve ${p.name} for ${pod.key}: ${String(error)}`);
      }
    }
  }

  async runBind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    for (const p of this.points.bind) {
      let s: Status;
      try {
        s = await (p.bind as NonNullable<Plugin['bind']>)(state, pod, nodeName);
      } catch (error) {
        s = errorStatus(error);
      }
      if (s.code === 'Skip') continue;
      if (s.code === 'Success' || isRejected(s)) return withPlugin(s, p.name);
      // RunBindPlugins wraps any other failure (a refused POST of pods/binding) with the plugin's name.
      return withPlugin(errorStatus(new Error(`running Bind plugin ${JSON.stringify(p.name)}: ${statusMessage(s)}`)), p.name);
    }
    return errorStatus(new Error('no bind plugin bound the pod'));
  }

  async runPreBind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    for (const p of this.points.preBind) {
      let s: Status;
      try {
        s = await (p.preBind as NonNullable<Plugin['preBind']>)(state, pod, nodeName);
      } catch (error) {
        s = errorStatus(error);
      }
      if (s.code !== 'Success' && s.code !== 'Skip') return withPlugin(s, p.name);
    }
    return success;
  }

  runPostBind(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (const p of this.points.postBind) {
      try {
        p.postBind?.(state, pod, nodeName);
      } catch (error) {
        this.handle.log(`postBind ${p.name}: ${String(error)}`);
      }
    }
  }
}

function guard(p: Plugin, fn: () => Status): Status {
  try {
    return fn();
  } catch (error) {
    return withPlugin(errorStatus(error), p.name);
  }
}

// ---- Permit waiting -------------------------------------------------------------------

/** Upstream's maxTimeout for a Permit Wait. */
export const maxPermitTimeoutMs = 15 * 60_000;

/**
 * A pod held at Permit: resolves with Success once every waiting plugin allowed it, or with the
 * first rejection / timeout (`rejected due to timeout after waiting <d> at plugin <p>`).
 */
export class WaitingPodEntry implements WaitingPod {
  readonly pod: PodRO;
  readonly nodeName: string;
  readonly #pending: Map<string, { cancel(): void }>;
  readonly #resolve: (s: Status) => void;
  readonly done: Promise<Status>;
  #settled = false;

  constructor(pod: PodRO, nodeName: string, waits: Map<string, number>, after: (ms: number, fn: () => void) => { cancel(): void }) {
    this.pod = pod;
    this.nodeName = nodeName;
    let resolve!: (s: Status) => void;
    this.done = new Promise((r) => (resolve = r));
    this.#resolve = resolve;
    this.#pending = new Map();
    for (const [plugin, ms] of waits) {
      const timeout = Math.min(ms, maxPermitTimeoutMs);
      this.#pending.set(plugin, after(timeout, () => this.reject(plugin, `rejected due to timeout after waiting ${formatGoDuration(timeout)} at plugin ${plugin}`)));
    }
  }

  pendingPlugins(): string[] {
    return [...this.#pending.keys()];
  }

  allow(plugin: string): void {
    const t = this.#pending.get(plugin);
    if (!t || this.#settled) return;
    t.cancel();
    this.#pending.delete(plugin);
    if (this.#pending.size === 0) this.#settle(success);
  }

  reject(plugin: string, message: string): void {
    if (this.#settled) return;
    this.#settle({ code: 'Unschedulable', reasons: [message], plugin });
  }

  #settle(s: Status): void {
    this.#settled = true;
    for (const t of this.#pending.values()) t.cancel();
    this.#pending.clear();
    this.#resolve(s);
  }
}

/** Go's time.Duration.String() for whole-millisecond values (5m0s, 1m30s, 10s, 1.5s). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h === 0 && m === 0 && ms < 1000) return `${ms}ms`;
  const sec = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

/**
 * A Filter's failure, with its plugin. Filters should only reject; an error is wrapped as
 * RunFilterPlugins does (`running "DynamicResources" filter plugin: ...`), the text the pod's
 * PodScheduled condition and FailedScheduling event then show.
 */
function filterFailure(s: Status, plugin: string): Status {
  if (s.code !== 'Error') return withPlugin(s, plugin);
  return { code: 'Error', error: new Error(`running ${JSON.stringify(plugin)} filter plugin: ${s.error.message}`, { cause: s.error }), plugin };
}
