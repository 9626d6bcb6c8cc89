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

/** The controllers' scale behind the pods: what a maxUnavailable or percentage budget is taken of. */
export type ScaleOf = (pod: ReadonlyPod) => { uid: string; replicas: number } | string;

/** getExpectedPodCount: expected pods and the healthy floor, or the error that makes it fail safe. */
export function expectedCounts(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], scaleOf: ScaleOf): { expected: number; desiredHealthy: number } | { error: string; reason: string } {
  const { minAvailable, maxUnavailable } = pdb.spec ?? {};
  if (maxUnavailable === undefined && !isPercent(minAvailable)) {
    return { expected: pods.length, desiredHealthy: scaledValue(minAvailable, pods.length, true) };
  }
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const s = scaleOf(pod);
    if (typeof s === 'string') return { error: s, reason: s.startsWith('found no controller ref') ? 'NoControllerRef' : 'NoControllers' };
    scales.set(s.uid, s.replicas);
  }
  const expected = [...scales.values()].reduce((a, b) => a + b, 0);
  if (maxUnavailable !== undefined) {
    const unavailable = scaledValue(maxUnavailable, expected, true);
    return { expected, desiredHealthy: Math.max(0, expected - unavailable) };
  }
  return { expected, desiredHealthy: scaledValue(minAvailable, expected, true) };
}

/** buildDisruptedPodMap: evictions not yet seen through, dropped once the pod is gone, deleted or timed out. */
export function pendingDisruptions(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], now: number): Record<string, string> {
  const byName = new Map(pods.map((p) => [p.metadata.name ?? '', p]));
  const out: Record<string, string> = {};
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const pod = byName.get(name);
    if (!pod || pod.metadata.deletionTimestamp) continue;
    if (Date.parse(at) + deletionTimeoutMs < now) continue;
    out[name] = at;
  }
  return out;
}

/** The status the controller writes: counts, disruptionsAllowed and the DisruptionAllowed condition. */
export function budgetStatus(pdb: ReadonlyBudget, pods: readonly ReadonlyPod[], scaleOf: ScaleOf, now: number): PodDisruptionBudgetStatus {
  const previous = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const condition = (status: 'True' | 'False', reason: string, message: string): NonNullable<PodDisruptionBudgetStatus['conditions']>[number] => ({
    type: 'DisruptionAllowed',
    status,
    reason,
    message,
    observedGeneration: pdb.metadata.generation ?? 0,
    lastTransitionTime: previous?.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : formatTime(now),
  });
  const counts = expectedCounts(pdb, pods, scaleOf);
  if ('error' in counts) {
    // failSafe: nothing may be disrupted while the budget cannot be computed.
    return { observedGeneration: pdb.metadata.generation ?? 0, disruptionsAllowed: 0, currentHealthy: pdb.status?.currentHealthy ?? 0, desiredHealthy: pdb.status?.desiredHealthy ?? 0, expectedPods: pdb.status?.expectedPods ?? 0, conditions: [condition('False', 'SyncFailed', counts.error)] };
  }
  const disrupted = pendingDisruptions(pdb, pods, now);
  const currentHealthy = pods.filter((p) => !p.metadata.deletionTimestamp && !((p.metadata.name ?? '') in disrupted) && isPodReady(p)).length;
  const allowed = Math.max(0, currentHealthy - counts.desiredHealthy);
  return {
    observedGeneration: pdb.metadata.generation ?? 0,
    ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expected,
    conditions: [allowed > 0 ? condition('True', 'SufficientPods', '') : condition('False', 'InsufficientPods', '')],
  };
}
