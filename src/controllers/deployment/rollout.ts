// Rollout arithmetic, pure: maxSurge/maxUnavailable resolution, how far the new ReplicaSet may
// grow, which old ReplicaSets shrink and by how much, and proportional scaling mid-rollout.
// Upstream: pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts, NewRSNewReplicas,
// GetProportion, FindActiveOrLatest, IsSaturated), rolling.go (reconcileOldReplicaSets,
// cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate), sync.go (scale).
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import { scaledValue } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

export type RS = DeepReadonly<ReplicaSet>;
export type DeploymentView = DeepReadonly<Deployment>;

export const DesiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const MaxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';

/** One scaling decision: set rs to `replicas`. */
export interface ScaleStep {
  rs: RS;
  replicas: number;
}

export const specReplicas = (rs: RS | undefined): number => rs?.spec.replicas ?? 0;
export const deploymentReplicas = (d: DeploymentView): number => d.spec.replicas ?? 1;

/** ResolveFenceposts: surge rounds up, unavailable down; both zero means unavailable 1. */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export const isRollingUpdate = (d: DeploymentView): boolean => (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

export function maxSurge(d: DeploymentView): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, deploymentReplicas(d)).surge;
}

export function maxUnavailable(d: DeploymentView): number {
  const desired = deploymentReplicas(d);
  if (!isRollingUpdate(d) || desired === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return Math.min(resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, desired).unavailable, desired);
}

export function sumReplicas(rss: readonly (RS | undefined)[]): number {
  return rss.reduce((n, rs) => n + specReplicas(rs), 0);
}

export function sumStatus(rss: readonly (RS | undefined)[], field: 'replicas' | 'readyReplicas' | 'availableReplicas'): number {
  return rss.reduce((n, rs) => n + (rs?.status?.[field] ?? 0), 0);
}

export const isActive = (rs: RS | undefined): rs is RS => specReplicas(rs) > 0;

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: RS, b: RS): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** NewRSNewReplicas: how many replicas the new ReplicaSet should have now. */
export function newRSNewReplicas(d: DeploymentView, allRSs: readonly RS[], newRS: RS): number {
  if (!isRollingUpdate(d)) return deploymentReplicas(d);
  const desired = deploymentReplicas(d);
  const surge = scaledValue(d.spec.strategy?.rollingUpdate?.maxSurge, desired, true);
  const current = sumReplicas(allRSs);
  const maxTotal = desired + surge;
  if (current >= maxTotal) return specReplicas(newRS);
  return specReplicas(newRS) + Math.min(maxTotal - current, desired - specReplicas(newRS));
}

/**
 * reconcileOldReplicaSets: first scale down unhealthy old replicas (oldest first), then
 * available old replicas while keeping `replicas - maxUnavailable` available.
 */
export function planOldScaleDown(d: DeploymentView, allRSs: readonly RS[], activeOldRSs: readonly RS[], newRS: RS): ScaleStep[] {
  const oldCount = sumReplicas(activeOldRSs);
  if (oldCount === 0) return [];
  const desired = deploymentReplicas(d);
  const minAvailable = desired - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = sumReplicas(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const steps: ScaleStep[] = [];
  const current = new Map<RS, number>(activeOldRSs.map((rs) => [rs, specReplicas(rs)]));
  const sorted = [...activeOldRSs].sort(byCreation);
  // cleanupUnhealthyReplicas
  let cleaned = 0;
  for (const rs of sorted) {
    if (cleaned >= maxScaledDown) break;
    const replicas = current.get(rs) ?? 0;
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const down = Math.min(maxScaledDown - cleaned, replicas - available);
    current.set(rs, replicas - down);
    steps.push({ rs, replicas: replicas - down });
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate
  const availableCount = sumStatus(allRSs, 'availableReplicas');
  if (availableCount <= minAvailable) return steps;
  const budget = availableCount - minAvailable;
  let scaled = 0;
  for (const rs of sorted) {
    if (scaled >= budget) break;
    const replicas = current.get(rs) ?? 0;
    if (replicas === 0) continue;
    const down = Math.min(replicas, budget - scaled);
    current.set(rs, replicas - down);
    steps.push({ rs, replicas: replicas - down });
    scaled += down;
  }
  return steps;
}

/** FindActiveOrLatest: the only active ReplicaSet, the newest when none is active, else undefined. */
export function findActiveOrLatest(newRS: RS | undefined, oldRSs: readonly RS[]): RS | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const olds = [...oldRSs].sort(byCreation).reverse();
  const active = [...olds, newRS].filter(isActive);
  if (active.length === 0) return newRS ?? olds[0];
  return active.length === 1 ? active[0] : undefined;
}

export function isSaturated(d: DeploymentView, rs: RS | undefined): boolean {
  if (!rs) return false;
  const raw = rs.metadata.annotations?.[DesiredReplicasAnnotation];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return false;
  const desired = deploymentReplicas(d);
  return specReplicas(rs) === desired && Number(raw) === desired && (rs.status?.availableReplicas ?? 0) === desired;
}

function intAnnotation(rs: RS, key: string): number | undefined {
  const raw = rs.metadata.annotations?.[key];
  return raw !== undefined && /^[+-]?\d+$/.test(raw) ? Number(raw) : undefined;
}

export const desiredReplicasOf = (rs: RS): number | undefined => intAnnotation(rs, DesiredReplicasAnnotation);

/** GetProportion: this ReplicaSet's share of a scaling event, bounded by what is left to add. */
export function getProportion(rs: RS, d: DeploymentView, toAdd: number, added: number): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const desired = deploymentReplicas(d);
  let fraction: number;
  if (desired === 0) fraction = -specReplicas(rs);
  else {
    const total = desired + maxSurge(d);
    const annotated = intAnnotation(rs, MaxReplicasAnnotation) ?? d.status?.replicas ?? 0;
    // integer.RoundToInt32 rounds half away from zero.
    const exact = (specReplicas(rs) * total) / annotated;
    fraction = Math.sign(exact) * Math.round(Math.abs(exact)) - specReplicas(rs);
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** The proportional half of `scale`: sizes for every active ReplicaSet, largest share first. */
export function planProportionalScale(d: DeploymentView, activeRSs: readonly RS[]): { steps: ScaleStep[]; direction: 'up' | 'down' | '' } {
  const desired = deploymentReplicas(d);
  const allowed = desired > 0 ? desired + maxSurge(d) : 0;
  const toAdd = allowed - sumReplicas(activeRSs);
  const rss = [...activeRSs];
  const newerFirst = (a: RS, b: RS): number => -byCreation(a, b);
  if (toAdd > 0) rss.sort((a, b) => specReplicas(b) - specReplicas(a) || newerFirst(a, b));
  else if (toAdd < 0) rss.sort((a, b) => specReplicas(b) - specReplicas(a) || byCreation(a, b));
  let added = 0;
  const sizes = rss.map((rs) => {
    if (toAdd === 0) return specReplicas(rs);
    const p = getProportion(rs, d, toAdd, added);
    added += p;
    return specReplicas(rs) + p;
  });
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, (sizes[0] ?? 0) + toAdd - added);
  return { steps: rss.map((rs, i) => ({ rs, replicas: sizes[i] ?? 0 })), direction: toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : '' };
}
