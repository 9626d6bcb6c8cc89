// Revisions: which ReplicaSet is the new one (same template, ignoring pod-template-hash), the
// revision annotations copied between Deployment and ReplicaSets, and history cleanup.
// Upstream: pkg/controller/deployment/util/deployment_util.go (EqualIgnoreHash, MaxRevision,
// SetNewReplicaSetAnnotations, SetReplicasAnnotations), sync.go (cleanupDeployment).
import { DefaultDeploymentUniqueLabelKey } from '../../api/index.ts';
import type { PodTemplateSpec } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { DeploymentView, RS } from './rollout.ts';
import { DesiredReplicasAnnotation, MaxReplicasAnnotation, byCreation, deploymentReplicas, maxSurge, specReplicas } from './rollout.ts';

export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
export const RevisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
const deprecatedRollbackTo = 'deprecated.deployment.rollback.to';
export const maxRevHistoryLengthInChars = 2000;

const skipCopy = new Set([lastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation, DesiredReplicasAnnotation, MaxReplicasAnnotation, deprecatedRollbackTo]);

/** Semantic.DeepEqual on JSON: null, absent, and empty lists or maps are all the same (Go zero values). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== 'object') return false;
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}

// Every sync of every Deployment compares its template with each ReplicaSet's: no key sets or closures.
function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isZero(a) && isZero(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!isDeepEqual(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k in ra) if (Object.hasOwn(ra, k) && !isDeepEqual(ra[k], rb[k])) return false;
  // A key only b has is equal to a's absent one when its value is a zero value.
  for (const k in rb) if (Object.hasOwn(rb, k) && !Object.hasOwn(ra, k) && !isZero(rb[k])) return false;
  return true;
}

function withoutHash(t: DeepReadonly<PodTemplateSpec> | undefined): unknown {
  if (!t) return {};
  const labels = { ...(t.metadata?.labels ?? {}) };
  delete labels[DefaultDeploymentUniqueLabelKey];
  const metadata = { ...(t.metadata ?? {}), labels };
  if (Object.keys(labels).length === 0) delete (metadata as { labels?: unknown }).labels;
  return { ...t, metadata };
}

/**
 * Answers of EqualIgnoreHash by the two template objects compared. Each sync of a Deployment compares
 * its template with its ReplicaSets' ones, and status writes keep both specs (the status strategies
 * restore the live spec), so a rollout's syncs ask about the same two frozen objects again and again.
 */
const equalIgnoringHash = new WeakMap<object, WeakMap<object, boolean>>();

/** EqualIgnoreHash: templates equal apart from the pod-template-hash label. */
export function isEqualIgnoreHash(a: DeepReadonly<PodTemplateSpec> | undefined, b: DeepReadonly<PodTemplateSpec> | undefined): boolean {
  if (!a || !b) return isDeepEqual(withoutHash(a), withoutHash(b));
  let answers = equalIgnoringHash.get(a);
  const known = answers?.get(b);
  if (known !== undefined) return known;
  const equal = isDeepEqual(withoutHash(a), withoutHash(b));
  if (!answers) equalIgnoringHash.set(a, (answers = new WeakMap()));
  answers.set(b, equal);
  return equal;
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template matches the Deployment's. */
export function findNewReplicaSet(d: DeploymentView, rss: readonly RS[]): RS | undefined {
  return [...rss].sort(byCreation).find((rs) => isEqualIgnoreHash(rs.spec.template, d.spec.template));
}

export function revisionOf(obj: { readonly metadata: { readonly annotations?: Readonly<Record<string, string>> | undefined } }): number | undefined {
  const v = obj.metadata.annotations?.[RevisionAnnotation];
  if (v === undefined) return 0;
  return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: readonly RS[]): number {
  return rss.reduce((max, rs) => Math.max(max, revisionOf(rs) ?? 0), 0);
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations (minus the skipped ones),
 * raises the revision (remembering the old one in revision-history on rollback), and for a
 * ReplicaSet being created, records desired and max replicas. Mutates `annotations`.
 */
export function setNewReplicaSetAnnotations(d: DeploymentView, annotations: Record<string, string>, newRevision: number, exists: boolean): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (skipCopy.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const oldRaw = annotations[RevisionAnnotation];
  const hadRevision = oldRaw !== undefined;
  let oldRevision = 0;
  if (oldRaw !== undefined && oldRaw !== '') {
    if (!/^[+-]?\d+$/.test(oldRaw)) return false;
    oldRevision = Number(oldRaw);
  }
  if (oldRevision < newRevision) {
    annotations[RevisionAnnotation] = String(newRevision);
    changed = true;
    if (hadRevision) {
      const history = annotations[RevisionHistoryAnnotation] ?? '';
      if (history === '') annotations[RevisionHistoryAnnotation] = oldRaw ?? '';
      else {
        const old = history.split(',');
        let total = history.length + (oldRaw ?? '').length + 1;
        let start = 0;
        while (total > maxRevHistoryLengthInChars && start < old.length) total -= (old[start++] ?? '').length + 1;
        if (total <= maxRevHistoryLengthInChars) annotations[RevisionHistoryAnnotation] = [...old.slice(start), oldRaw ?? ''].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(annotations, deploymentReplicas(d), deploymentReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let changed = false;
  if (annotations[DesiredReplicasAnnotation] !== String(desired)) {
    annotations[DesiredReplicasAnnotation] = String(desired);
    changed = true;
  }
  if (annotations[MaxReplicasAnnotation] !== String(max)) {
    annotations[MaxReplicasAnnotation] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: RS, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DesiredReplicasAnnotation] !== String(desired) || a[MaxReplicasAnnotation] !== String(max);
}

/** cleanupDeployment: the old, idle ReplicaSets beyond revisionHistoryLimit, lowest revision first. */
export function replicaSetsToCleanUp(d: DeploymentView, oldRSs: readonly RS[]): RS[] {
  const limit = d.spec.revisionHistoryLimit;
  if (limit === undefined || limit === 2147483647) return [];
  const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = alive.length - limit;
  if (diff <= 0) return [];
  const sorted = [...alive].sort((a, b) => (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b));
  return sorted.slice(0, diff).filter((rs) => (rs.status?.replicas ?? 0) === 0 && specReplicas(rs) === 0 && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0));
}
