// A PodDisruptionBudget's status from its pods: how many it expects (the pods themselves for an
// integer minAvailable, else the scale of their controllers), how many must stay healthy, how many
// are, and so how many may be disrupted now. Pure.
// Upstream: pkg/controller/disruption/disruption.go (getExpectedPodCount, countHealthyPods,
// buildDisruptedPodMap, updatePdbStatus, failSafe).
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../api/index.ts';
import { scaledValue } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';
import { isPodReady } from '../pod-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyBudget = DeepReadonly<PodDisruptionBudget>;

/** How long an eviction's entry in disruptedPods holds a pod out of the healthy count (DeletionTimeout). */
export const deletionTimeoutMs = 2 * 60 * 1000;

const isPercent = (v: number | string | undefined): v is string => typeof v === 'string' && v.endsWith('%');

/**
 * The controller's scale behind a pod, what a maxUnavailable or percentage budget is taken of:
 * `unmanaged` for a pod with no controller ref, `missing` when no finder knows its controller.
 */
export type ScaleOf = (pod: ReadonlyPod) => { uid: string; replicas: number } | 'unmanaged' | 'missing';

export type ExpectedCounts = { expected: number; desiredHealthy: number; unmanaged: string[] } | { error: string };

/**
 * getExpectedPodCount: expected pods and the healthy floor, or the error that makes it fail safe.
 * Pods without a controller are left out of a scaled budget's count and named (since 1.22 they no
 * longer fail the sync; 1.27 added the UnmanagedPods event).
 */
export function expectedCounts(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], scaleOf: ScaleOf): ExpectedCounts {
  const { minAvailable, maxUnavailable } = pdb.spec ?? {};
  if (maxUnavailable === undefined && minAvailable === undefined) return { expected: 0, desiredHealthy: 0, unmanaged: [] };
  if (maxUnavailable === undefined && !isPercent(minAvailable)) return { expected: pods.length, desiredHealthy: scaledValue(minAvailable, pods.length, true), unmanaged: [] };
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const s = scaleOf(pod);
    if (s === 'unmanaged') unmanaged.push(pod.metadata.name ?? '');
    else if (s === 'missing') return { error: `found no controllers for pod "${pod.metadata.name ?? ''}"` };
    else scales.set(s.uid, s.replicas);
  }
  const expected = [...scales.values()].reduce((a, b) => a + b, 0);
  if (maxUnavailable !== undefined) {
    const unavailable = scaledValue(maxUnavailable, expected, true);
    return { expected, desiredHealthy: Math.max(0, expected - unavailable), unmanaged };
  }
  return { expected, desiredHealthy: scaledValue(minAvailable, expected, true), unmanaged };
}

/**
 * buildDisruptedPodMap: evictions not yet seen through, dropped once the pod is gone or deleted; a
 * pod still there past DeletionTimeout is dropped too and named, for the NotDeleted event.
 */
export function pendingDisruptions(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], now: number): { pending: Record<string, string>; expired: ReadonlyPod[] } {
  const disrupted = pdb.status?.disruptedPods ?? {};
  const pending: Record<string, string> = {};
  const expired: ReadonlyPod[] = [];
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const at = disrupted[name];
    if (pod.metadata.deletionTimestamp || at === undefined) continue;
    if (Date.parse(at) + deletionTimeoutMs < now) expired.push(pod);
    else pending[name] = at;
  }
  return { pending, expired };
}

type BudgetCondition = NonNullable<PodDisruptionBudgetStatus['conditions']>[number];

/** apimeta.SetStatusCondition on DisruptionAllowed: the transition time moves only with the status. */
function disruptionAllowed(pdb: ReadonlyBudget, status: 'True' | 'False', reason: string, message: string, observedGeneration: number, now: number): BudgetCondition[] {
  const previous = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const condition: BudgetCondition = {
    type: 'DisruptionAllowed',
    status,
    reason,
    message,
    observedGeneration,
    lastTransitionTime: previous?.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : formatTime(now),
  };
  const conditions = (pdb.status?.conditions ?? []) as readonly BudgetCondition[];
  return previous ? conditions.map((c) => (c.type === 'DisruptionAllowed' ? condition : c)) : [...conditions, condition];
}

/**
 * failSafe: the status as it stood, with nothing allowed and SyncFailed carrying the error; the
 * observed generation is left where it was, so evictions still see the budget as unprocessed.
 */
export function failSafeStatus(pdb: ReadonlyBudget, error: string, now: number): PodDisruptionBudgetStatus {
  const status = (pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }) as PodDisruptionBudgetStatus;
  return { ...status, disruptionsAllowed: 0, conditions: disruptionAllowed(pdb, 'False', 'SyncFailed', error, status.observedGeneration ?? 0, now) };
}

/**
 * updatePdbStatus: counts, disruptionsAllowed and the DisruptionAllowed condition. Nothing may be
 * disrupted while no pod is expected, so a budget that matched no pods is safe when its first appear.
 */
export function budgetStatus(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], counts: { expected: number; desiredHealthy: number }, now: number): PodDisruptionBudgetStatus {
  const generation = pdb.metadata.generation ?? 0;
  const disrupted = pendingDisruptions(pdb, pods, now).pending;
  const currentHealthy = pods.filter((p) => !p.metadata.deletionTimestamp && !((p.metadata.name ?? '') in disrupted) && isPodReady(p)).length;
  const allowed = counts.expected <= 0 ? 0 : Math.max(0, currentHealthy - counts.desiredHealthy);
  return {
    observedGeneration: generation,
    ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expected,
    conditions: allowed > 0 ? disruptionAllowed(pdb, 'True', 'SufficientPods', '', generation, now) : disruptionAllowed(pdb, 'False', 'InsufficientPods', '', generation, now),
  };
}
