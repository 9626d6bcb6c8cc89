// Which pods a ReplicaSet deletes first when it has too many: upstream's ActivePodsWithRanks
// order, with LogarithmicScaleDown (on by default) bucketing ready and creation times.
// Upstream: pkg/controller/controller_utils.go (ActivePodsWithRanks.Less),
// pkg/controller/replicaset/replica_set.go (getPodsToDelete, getPodsRankedByRelatedPodsOnSameNode).
import type { Pod } from '../../api/index.ts';
import { parsePodDeletionCost } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { isPodActive, isPodReady, podReadySince } from '../pod-state.ts';
import { lookupTable } from '../../core/index.ts';

type ReadonlyPod = DeepReadonly<Pod>;

const phaseOrdinal: Readonly<Record<string, number>> = lookupTable({ Pending: 0, Unknown: 1, Running: 2 });

/** GetDeletionCostFromPodAnnotations: an int32 as the API server accepts it; anything else counts as 0. */
export function podDeletionCost(pod: ReadonlyPod): number {
  return parsePodDeletionCost(pod.metadata.annotations) ?? 0;
}

function time(ts: string | undefined): number | undefined {
  return ts ? Date.parse(ts) : undefined;
}

/** afterOrZero: a zero time sorts first, else the later one does. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/** logarithmicRankDiff over nanosecond durations, as upstream. */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

function compareTimes(t1: number | undefined, t2: number | undefined, now: number, uid1: string, uid2: string): boolean {
  if (t1 === undefined || t2 === undefined) return afterOrZero(t1, t2);
  const diff = logRank(t1, now) - logRank(t2, now);
  if (diff === 0) return uid1 < uid2;
  return diff < 0;
}

function maxRestarts(pod: ReadonlyPod): { regular: number; sidecar: number } {
  let regular = 0;
  let sidecar = 0;
  for (const s of pod.status?.containerStatuses ?? []) regular = Math.max(regular, s.restartCount ?? 0);
  const sidecars = new Set((pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  for (const s of pod.status?.initContainerStatuses ?? []) if (sidecars.has(s.name)) sidecar = Math.max(sidecar, s.restartCount ?? 0);
  return { regular, sidecar };
}

export interface RankedPod {
  pod: ReadonlyPod;
  /** Active pods of the same owner family on this pod's node. */
  rank: number;
}

/** ActivePodsWithRanks.Less: true when a should be deleted before b. */
export function isDeletedBefore(a: RankedPod, b: RankedPod, now: number): boolean {
  const pi = a.pod;
  const pj = b.pod;
  const ni = pi.spec.nodeName ?? '';
  const nj = pj.spec.nodeName ?? '';
  if (ni !== nj && (ni === '' || nj === '')) return ni === '';
  const oi = phaseOrdinal[pi.status?.phase ?? ''] ?? 0;
  const oj = phaseOrdinal[pj.status?.phase ?? ''] ?? 0;
  if (oi !== oj) return oi < oj;
  const ri = isPodReady(pi);
  const rj = isPodReady(pj);
  if (ri !== rj) return !ri;
  const ci = podDeletionCost(pi);
  const cj = podDeletionCost(pj);
  if (ci !== cj) return ci < cj;
  if (a.rank !== b.rank) return a.rank > b.rank;
  const uidI = pi.metadata.uid ?? '';
  const uidJ = pj.metadata.uid ?? '';
  if (ri && rj) {
    const ti = podReadySince(pi);
    const tj = podReadySince(pj);
    if (ti !== tj) return compareTimes(ti, tj, now, uidI, uidJ);
  }
  const restartsI = maxRestarts(pi);
  const restartsJ = maxRestarts(pj);
  if (restartsI.regular !== restartsJ.regular) return restartsI.regular > restartsJ.regular;
  if (restartsI.sidecar !== restartsJ.sidecar) return restartsI.sidecar > restartsJ.sidecar;
  const cti = time(pi.metadata.creationTimestamp);
  const ctj = time(pj.metadata.creationTimestamp);
  if (cti !== ctj) return compareTimes(cti, ctj, now, uidI, uidJ);
  return false;
}

/** getPodsToDelete: the first `diff` pods in deletion order (all of them without sorting when diff covers all). */
export function podsToDelete<P extends ReadonlyPod>(pods: readonly P[], related: readonly ReadonlyPod[], diff: number, now: number): P[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(p.spec.nodeName ?? '', (onNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  const ranked = pods.map((pod) => ({ pod, rank: onNode.get(pod.spec.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => (isDeletedBefore(a, b, now) ? -1 : isDeletedBefore(b, a, now) ? 1 : 0));
  return ranked.slice(0, diff).map((r) => r.pod);
}
