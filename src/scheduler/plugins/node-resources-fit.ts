// NodeResourcesFit: the pod's effective requests (sidecars, init max, overhead, resize) must fit
// the node's allocatable minus what its pods (bound and assumed) request; scores by
// LeastAllocated (default), MostAllocated (bin packing) or RequestedToCapacityRatio.
// Upstream: pkg/scheduler/framework/plugins/noderesources/fit.go, least_allocated.go,
// most_allocated.go, requested_to_capacity_ratio.go, resource_allocation.go.
import { refs } from '../../api/index.ts';
import type { Node, resourceV1 } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { jsonEqual } from '../../core/index.ts';
import type { Plugin, PluginFactory, PodRO, Status } from '../framework.ts';
import { ActionType, maxNodeScore, success, unresolvable, unschedulable } from '../framework.ts';
import type { NodeInfo, PodInfo } from '../node-info.ts';
import { isExtendedResourceName, PodInfo as PodInfoClass } from '../node-info.ts';
import { deviceClassMapping } from './dynamic-resources-extended.ts';

export const name = 'NodeResourcesFit';

export interface ResourceSpec {
  name: string;
  weight: number;
}
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}
export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

export interface NodeResourcesFitArgs {
  ignoredResources: string[];
  ignoredResourceGroups: string[];
  scoringStrategy: { type: ScoringStrategyType; resources: ResourceSpec[]; shape: UtilizationShapePoint[] };
}

export const defaultResources: ResourceSpec[] = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];

/** Parses pluginConfig args (v1 field names), applying upstream defaults. */
export function parseFitArgs(raw: Readonly<Record<string, unknown>>): NodeResourcesFitArgs {
  const ss = (raw.scoringStrategy ?? {}) as { type?: unknown; resources?: unknown; requestedToCapacityRatio?: { shape?: unknown } };
  const type = (ss.type ?? 'LeastAllocated') as ScoringStrategyType;
  if (type !== 'LeastAllocated' && type !== 'MostAllocated' && type !== 'RequestedToCapacityRatio') {
    throw new Error(`scoringStrategy.type: Unsupported value: "${String(type)}": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`);
  }
  const resources = Array.isArray(ss.resources) && ss.resources.length > 0
    ? (ss.resources as { name: string; weight?: number }[]).map((r) => ({ name: r.name, weight: r.weight ?? 1 }))
    : defaultResources;
  const shape = Array.isArray(ss.requestedToCapacityRatio?.shape)
    ? (ss.requestedToCapacityRatio.shape as UtilizationShapePoint[])
    : [{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }];
  return {
    ignoredResources: Array.isArray(raw.ignoredResources) ? (raw.ignoredResources as string[]) : [],
    ignoredResourceGroups: Array.isArray(raw.ignoredResourceGroups) ? (raw.ignoredResourceGroups as string[]) : [],
    scoringStrategy: { type, resources, shape },
  };
}

export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's whole allocatable: preemption cannot help. */
  unresolvable: boolean;
}

/** fitsRequest: every resource the pod asks for and the node lacks, in upstream's order. */
export function fitsRequest(pod: PodInfo, nodeInfo: NodeInfo, ignored?: ReadonlySet<string>, ignoredGroups?: ReadonlySet<string>): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > alloc.allowedPodNumber) {
    out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: nodeInfo.pods.length, capacity: alloc.allowedPodNumber, unresolvable: false });
  }
  const req = pod.requests;
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && (req.scalar?.size ?? 0) === 0) return out;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) {
    out.push({ resourceName: 'cpu', reason: 'Insufficient cpu', requested: req.milliCPU, used: used.milliCPU, capacity: alloc.milliCPU, unresolvable: req.milliCPU > alloc.milliCPU });
  }
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) {
    out.push({ resourceName: 'memory', reason: 'Insufficient memory', requested: req.memory, used: used.memory, capacity: alloc.memory, unresolvable: req.memory > alloc.memory });
  }
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    out.push({ resourceName: 'ephemeral-storage', reason: 'Insufficient ephemeral-storage', requested: req.ephemeralStorage, used: used.ephemeralStorage, capacity: alloc.ephemeralStorage, unresolvable: req.ephemeralStorage > alloc.ephemeralStorage });
  }
  if (req.scalar) {
    for (const [rName, q] of req.scalar) {
      if (q === 0) continue;
      if (isExtendedResourceName(rName)) {
        if (ignored?.has(rName)) continue;
        if (ignoredGroups && ignoredGroups.size > 0 && ignoredGroups.has(rName.slice(0, rName.indexOf('/')))) continue;
      }
      const cap = alloc.scalar?.get(rName) ?? 0;
      const u = used.scalar?.get(rName) ?? 0;
      if (q > cap - u) out.push({ resourceName: rName, reason: `Insufficient ${rName}`, requested: q, used: u, capacity: cap, unresolvable: q > cap });
    }
  }
  return out;
}

/**
 * fitsRequest without building the list: true when the pod fits. The filter runs on hundreds of
 * nodes per pod and most of them fit, so the reasons are computed only for those that do not.
 */
export function fitsFast(pod: PodInfo, nodeInfo: NodeInfo, ignored?: ReadonlySet<string>, ignoredGroups?: ReadonlySet<string>): boolean {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > alloc.allowedPodNumber) return false;
  const req = pod.requests;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) return false;
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) return false;
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) return false;
  if (req.scalar) return fitsRequest(pod, nodeInfo, ignored, ignoredGroups).length === 0;
  return true;
}

function fitStatus(insufficient: readonly InsufficientResource[]): Status {
  if (insufficient.length === 0) return success;
  const reasons = insufficient.map((r) => r.reason);
  return insufficient.some((r) => r.unresolvable) ? unresolvable(...reasons) : unschedulable(...reasons);
}

// ---- scoring

type Scorer = (requested: readonly number[], allocatable: readonly number[], resources: readonly ResourceSpec[]) => number;

export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * maxNodeScore) / capacity);
}
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  return Math.trunc((Math.min(requested, capacity) * maxNodeScore) / capacity);
}

function weighted(fn: (r: number, c: number) => number): Scorer {
  return (requested, allocatable, resources) => {
    let score = 0;
    let weights = 0;
    for (let i = 0; i < requested.length; i++) {
      const cap = allocatable[i] ?? 0;
      if (cap === 0) continue;
      const w = resources[i]?.weight ?? 1;
      score += fn(requested[i] ?? 0, cap) * w;
      weights += w;
    }
    return weights === 0 ? 0 : Math.trunc(score / weights);
  };
}

/** buildBrokenLinearFunction over shape points scaled to [0, 100]. */
export function requestedToCapacityRatioScorer(shape: readonly UtilizationShapePoint[]): Scorer {
  const pts = shape.map((p) => ({ u: p.utilization, s: p.score * (maxNodeScore / 10) }));
  const f = (p: number): number => {
    for (let i = 0; i < pts.length; i++) {
      const cur = pts[i] as { u: number; s: number };
      if (p <= cur.u) {
        if (i === 0) return (pts[0] as { s: number }).s;
        const prev = pts[i - 1] as { u: number; s: number };
        return prev.s + Math.trunc(((cur.s - prev.s) * (p - prev.u)) / (cur.u - prev.u));
      }
    }
    return (pts[pts.length - 1] as { s: number }).s;
  };
  return weighted((requested, capacity) => (requested > capacity ? f(maxUtilization) : f(Math.trunc((requested * maxUtilization) / capacity))));
}
const maxUtilization = 100;

export interface AllocationScorer {
  resources: readonly ResourceSpec[];
  /** Use actual requests (BalancedAllocation) rather than the 100m/200Mi non-zero defaults. */
  useRequested: boolean;
  scorer: Scorer;
}

/** resourceAllocationScorer.score: requested (node + pod) vs allocatable per configured resource. */
// Scratch arrays, one pair per scorer and sized once: scoring is synchronous and single-threaded,
// and resizing a shared pair on every call showed up in profiles.
const scratch = new WeakMap<AllocationScorer, { requested: number[]; allocatable: number[] }>();

export function allocationScore(s: AllocationScorer, pod: PodInfo, nodeInfo: NodeInfo): number {
  const n = s.resources.length;
  let buffers = scratch.get(s);
  if (!buffers || buffers.requested.length !== n) scratch.set(s, (buffers = { requested: new Array<number>(n).fill(0), allocatable: new Array<number>(n).fill(0) }));
  const { requested, allocatable } = buffers;
  for (let i = 0; i < n; i++) {
    const r = (s.resources[i] as ResourceSpec).name;
    const podReq = podRequestFor(s, pod, r);
    // Extended resources the pod does not ask for do not count (nor their weight).
    if (podReq === 0 && r !== 'cpu' && r !== 'memory' && r !== 'ephemeral-storage' && r !== 'pods') {
      requested[i] = 0;
      allocatable[i] = 0;
      continue;
    }
    allocatable[i] = nodeInfo.allocatable.get(r);
    const nodeReq = !s.useRequested && (r === 'cpu' || r === 'memory') ? nodeInfo.nonZeroRequested.get(r) : nodeInfo.requested.get(r);
    requested[i] = nodeReq + podReq;
  }
  return s.scorer(requested, allocatable, s.resources);
}

export function podRequestFor(s: Pick<AllocationScorer, 'useRequested'>, pod: PodInfo, r: string): number {
  if (!s.useRequested) {
    if (r === 'cpu') return pod.nonZeroMilliCPU;
    if (r === 'memory') return pod.nonZeroMemory;
  }
  return pod.requests.get(r);
}

export const newNodeResourcesFit: PluginFactory = (rawArgs, handle, features) => {
  const args = parseFitArgs(rawArgs);
  const ignored = new Set(args.ignoredResources);
  // DRAExtendedResource: a resource some DeviceClass maps is left to DynamicResources on nodes
  // whose allocatable lacks it (the node exposes those devices through DRA, not a device plugin).
  // With the gate off nothing is mapped, so such a request is `Insufficient <resource>` there.
  const classes = features.DRAExtendedResource ? handle.informer<resourceV1.DeviceClass>(refs.deviceClasses) : undefined;
  let mapped: ReadonlyMap<string, string> | undefined;
  classes?.addHandlers({ onAdd: () => (mapped = undefined), onUpdate: () => (mapped = undefined), onDelete: () => (mapped = undefined) });
  const ignoredOn = (pod: PodInfo, nodeInfo: NodeInfo): ReadonlySet<string> => {
    if (!pod.requests.scalar || !classes) return ignored;
    mapped ??= deviceClassMapping(classes.list());
    let out: Set<string> | undefined;
    for (const [r, q] of pod.requests.scalar) {
      if (q > 0 && mapped.has(r) && !((nodeInfo.allocatable.scalar?.get(r) ?? 0) > 0)) (out ??= new Set(ignored)).add(r);
    }
    return out ?? ignored;
  };
  const ignoredGroups = new Set(args.ignoredResourceGroups);
  const { type, resources, shape } = args.scoringStrategy;
  const scorer: AllocationScorer = {
    resources,
    useRequested: false,
    scorer: type === 'MostAllocated' ? weighted(mostRequestedScore) : type === 'RequestedToCapacityRatio' ? requestedToCapacityRatioScorer(shape) : weighted(leastRequestedScore),
  };
  const fitsAfter = (pod: PodRO, oldObj: unknown, newObj: unknown): 'Queue' | 'QueueSkip' => {
    const next = newObj as DeepReadonly<Node> | undefined;
    if (!next) return 'QueueSkip';
    const prev = oldObj as DeepReadonly<Node> | undefined;
    if (prev && jsonEqual(prev.status?.allocatable, next.status?.allocatable)) return 'QueueSkip';
    return 'Queue';
  };
  return {
    name,
    filter(_state, pod, nodeInfo) {
      const skipped = ignoredOn(pod, nodeInfo);
      if (fitsFast(pod, nodeInfo, skipped, ignoredGroups)) return success;
      return fitStatus(fitsRequest(pod, nodeInfo, skipped, ignoredGroups));
    },
    score(_state, pod, nodeInfo) {
      return allocationScore(scorer, pod, nodeInfo);
    },
    eventsToRegister: () => [
      // Freed resources: an assigned pod deleted or scaled down.
      { event: { resource: 'AssignedPod', actionType: ActionType.Delete | ActionType.UpdatePodScaleDown } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeAllocatable }, hint: fitsAfter },
      // The pod itself shrank (in-place resize of a pending pod).
      { event: { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodScaleDown }, hint: (pod, _o, n) => (PodInfoClass.of((n ?? pod) as PodRO).uid === PodInfoClass.of(pod).uid ? 'Queue' : 'QueueSkip') },
    ],
  } satisfies Plugin;
};
