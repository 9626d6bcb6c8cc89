// How the Job controller classifies its pods: active, terminating, failed, ready, and the
// order in which surplus active pods are deleted.
// Upstream: pkg/controller/controller_utils.go (FilterActivePods, ActivePods),
// pkg/controller/job/job_controller.go (isPodFailed, onlyReplaceFailedPods, pastBackoffLimitOnFailure).
import type { DeepReadonly } from '../../core/index.ts';
import type { Job, Pod } from '../../api/index.ts';
import { JobTrackingFinalizer } from '../../api/index.ts';
import { getCompletionIndex, unknownCompletionIndex } from './indexes.ts';
import { lookupTable } from '../../core/index.ts';

export type ReadonlyPod = DeepReadonly<Pod>;
export type ReadonlyJob = DeepReadonly<Job>;

export function isPodActive(p: ReadonlyPod): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !p.metadata.deletionTimestamp;
}

export function isPodTerminating(p: ReadonlyPod): boolean {
  const phase = p.status?.phase;
  return !!p.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

export function isPodReady(p: ReadonlyPod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export function hasJobTrackingFinalizer(p: ReadonlyPod): boolean {
  return (p.metadata.finalizers ?? []).includes(JobTrackingFinalizer);
}

/** podReplacementPolicy Failed, or a podFailurePolicy (which forces it): wait for phase Failed. */
export function onlyReplaceFailedPods(job: ReadonlyJob): boolean {
  return job.spec.podReplacementPolicy === 'Failed' || job.spec.podFailurePolicy !== undefined;
}

/** Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(p: ReadonlyPod, job: ReadonlyJob): boolean {
  const phase = p.status?.phase;
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!p.metadata.deletionTimestamp && phase !== 'Succeeded';
}

/** OnFailure pods restart in place: their restarts count against backoffLimit. */
export function pastBackoffLimitOnFailure(job: ReadonlyJob, pods: readonly ReadonlyPod[]): boolean {
  if (job.spec.template.spec.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of p.status.initContainerStatuses ?? []) restarts += s.restartCount;
    for (const s of p.status.containerStatuses ?? []) restarts += s.restartCount;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

const phaseOrdinal: Record<string, number> = lookupTable({ Pending: 0, Unknown: 1, Running: 2 });

function readyTime(p: ReadonlyPod): number | undefined {
  const c = (p.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
}

function maxRestarts(p: ReadonlyPod): number {
  return Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount));
}

/** a after b, with an unset time sorting first (afterOrZero). */
function afterOrZero(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  return a > b;
}

/** controller.ActivePods: negative when a should be deleted before b. */
export function compareForDeletion(a: ReadonlyPod, b: ReadonlyPod): number {
  const na = a.spec.nodeName ?? '';
  const nb = b.spec.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = phaseOrdinal[a.status?.phase ?? ''] ?? 0;
  const pb = phaseOrdinal[b.status?.phase ?? ''] ?? 0;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  if (ra && rb) {
    const ta = readyTime(a);
    const tb = readyTime(b);
    if (ta !== tb) return afterOrZero(ta, tb) ? -1 : 1;
  }
  const ca = maxRestarts(a);
  const cb = maxRestarts(b);
  if (ca !== cb) return ca > cb ? -1 : 1;
  const ta = a.metadata.creationTimestamp ? Date.parse(a.metadata.creationTimestamp) : undefined;
  const tb = b.metadata.creationTimestamp ? Date.parse(b.metadata.creationTimestamp) : undefined;
  if (ta !== tb) return afterOrZero(ta, tb) ? -1 : 1;
  return 0;
}

/**
 * activePodsForRemoval: for Indexed Jobs, pods with out-of-range, unknown or duplicated
 * indexes first (keeping the best pod of each index); then the earliest-stage pods.
 */
export function activePodsForRemoval(job: ReadonlyJob, pods: readonly ReadonlyPod[], rmAtLeast: number): ReadonlyPod[] {
  const rm: ReadonlyPod[] = [];
  let left: ReadonlyPod[] = [...pods];
  if (job.spec.completionMode === 'Indexed') {
    left = [];
    const completions = job.spec.completions ?? 0;
    const byIndex = new Map<number, ReadonlyPod[]>();
    for (const p of pods) {
      const ix = getCompletionIndex(p.metadata.annotations);
      if (ix === unknownCompletionIndex || ix >= completions) rm.push(p);
      else {
        const same = byIndex.get(ix);
        if (same) same.push(p);
        else byIndex.set(ix, [p]);
      }
    }
    for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
      const same = (byIndex.get(ix) ?? []).sort(compareForDeletion);
      rm.push(...same.slice(0, -1));
      left.push(...same.slice(-1));
    }
  }
  if (rm.length < rmAtLeast) rm.push(...left.sort(compareForDeletion).slice(0, rmAtLeast - rm.length));
  return rm;
}
