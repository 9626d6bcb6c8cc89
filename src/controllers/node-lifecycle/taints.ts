// Pure taint and toleration policy shared by the node-lifecycle and taint-eviction controllers:
// which taints a node's conditions call for, and whether (and for how long) a pod tolerates them.
// Upstream: staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint),
// pkg/apis/core/v1/helper/helpers.go (GetMatchingTolerations),
// pkg/controller/nodelifecycle/node_lifecycle_controller.go (nodeConditionToTaintKeyStatusMap),
// pkg/controller/tainteviction/taint_eviction.go (getMinTolerationTime).
import { toleratesTaint } from '../../api/index.ts';

export { toleratesTaint };
import type { Taint, Toleration } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

export const taintNodeNotReady = 'node.kubernetes.io/not-ready';
export const taintNodeUnreachable = 'node.kubernetes.io/unreachable';
export const taintNodeUnschedulable = 'node.kubernetes.io/unschedulable';
export const taintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';
export const taintNodeDiskPressure = 'node.kubernetes.io/disk-pressure';
export const taintNodePIDPressure = 'node.kubernetes.io/pid-pressure';
export const taintNodeNetworkUnavailable = 'node.kubernetes.io/network-unavailable';
export const taintNodeOutOfService = 'node.kubernetes.io/out-of-service';

type ConditionStatus = 'True' | 'False' | 'Unknown';

/** {condition type: {status: taint key}}: the NoSchedule taints a condition calls for. */
const conditionTaints: Record<string, Partial<Record<ConditionStatus, string>>> = {
  Ready: { False: taintNodeNotReady, Unknown: taintNodeUnreachable },
  MemoryPressure: { True: taintNodeMemoryPressure },
  DiskPressure: { True: taintNodeDiskPressure },
  NetworkUnavailable: { True: taintNodeNetworkUnavailable },
  PIDPressure: { True: taintNodePIDPressure },
};

const controllerNoScheduleKeys = new Set([
  taintNodeNotReady,
  taintNodeUnreachable,
  taintNodeMemoryPressure,
  taintNodeDiskPressure,
  taintNodeNetworkUnavailable,
  taintNodePIDPressure,
  taintNodeUnschedulable,
]);

interface NodeLike {
  spec?: { unschedulable?: boolean; taints?: readonly Taint[] } | undefined;
  status?: { conditions?: readonly { type: string; status: string }[] } | undefined;
}

/** doNoScheduleTaintingPass: the NoSchedule taints the node's conditions and cordon call for. */
export function wantedNoScheduleTaints(node: DeepReadonly<NodeLike>): Taint[] {
  const out: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = conditionTaints[c.type]?.[c.status as ConditionStatus];
    if (key) out.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) out.push({ key: taintNodeUnschedulable, effect: 'NoSchedule' });
  return out;
}

const sameTaint = (a: DeepReadonly<Taint>, b: DeepReadonly<Taint>): boolean => a.key === b.key && a.effect === b.effect;

/**
 * The node's taints after reconciling the controller-owned NoSchedule taints with `wanted`
 * (TaintSetDiff + SwapNodeControllerTaint), or undefined when nothing changes. Other taints stay.
 */
export function reconcileNoScheduleTaints(current: readonly DeepReadonly<Taint>[], wanted: readonly Taint[], now: string): Taint[] | undefined {
  const owned = current.filter((t) => t.effect === 'NoSchedule' && controllerNoScheduleKeys.has(t.key));
  const toAdd = wanted.filter((w) => !owned.some((t) => sameTaint(t, w)));
  const toDel = owned.filter((t) => !wanted.some((w) => sameTaint(t, w)));
  if (toAdd.length === 0 && toDel.length === 0) return undefined;
  return swapTaints(current, toAdd, toDel, now);
}

/** AddOrUpdateTaintOnNode then RemoveTaintOffNode; added taints get timeAdded = now. */
export function swapTaints(current: readonly DeepReadonly<Taint>[], add: readonly Taint[], remove: readonly DeepReadonly<Taint>[], now: string): Taint[] {
  const out: Taint[] = current.filter((t) => !remove.some((r) => sameTaint(t, r)) && !add.some((a) => sameTaint(t, a))).map((t) => ({ ...t }));
  for (const t of add) {
    const existing = current.find((c) => sameTaint(c, t));
    // An existing identical taint keeps its timeAdded (AddOrUpdateTaintOnNode leaves it alone).
    out.push(existing && existing.value === t.value ? { ...existing } : { ...t, timeAdded: now });
  }
  return out;
}

export function hasTaint(taints: readonly DeepReadonly<Taint>[] | undefined, key: string, effect: Taint['effect']): boolean {
  return (taints ?? []).some((t) => t.key === key && t.effect === effect);
}


/** GetMatchingTolerations: whether every taint is tolerated, and the first toleration used for each. */
export function matchingTolerations(
  taints: readonly DeepReadonly<Taint>[],
  tolerations: readonly DeepReadonly<Toleration>[],
): { allTolerated: boolean; used: DeepReadonly<Toleration>[] } {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  const used: DeepReadonly<Toleration>[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint));
    if (!match) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/** getMinTolerationTime in ms: 0 for none or a non-positive one, -1 (forever) when none is bounded. */
export function minTolerationMs(tolerations: readonly DeepReadonly<Toleration>[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}
