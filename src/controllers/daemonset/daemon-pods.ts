// A DaemonSet's pods as its sync sees them: grouped by the node they target, which of a node's
// pods run the current revision, the surge and unavailability budgets, and the status counts.
// Pure. Upstream: pkg/controller/daemon/daemon_controller.go (getNodesToDaemonPods,
// updateDaemonSetStatus, podByCreationTimestampAndPhase), update.go (findUpdatedPodsOnNode,
// updatedDesiredNodeCounts), util/daemonset_util.go (IsPodUpdated, SurgeCount, UnavailableCount).
import { DaemonSetTemplateGenerationKey, DefaultDaemonSetUniqueLabelKey, scaledValue, templateGenerationAnnotation } from '../../api/index.ts';
import type { DaemonSet, DaemonSetStatus, Node, Pod } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { isPodAvailable, isPodReady } from '../pod-state.ts';
import { nodeShouldRunDaemonPod, targetNodeName } from './placement.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyDS = DeepReadonly<DaemonSet>;
type ReadonlyNode = DeepReadonly<Node>;

/** getNodesToDaemonPods: finished pods already being deleted are left out. */
export function podsByNode(pods: readonly ReadonlyPod[]): Map<string, ReadonlyPod[]> {
  const out = new Map<string, ReadonlyPod[]>();
  for (const pod of pods) {
    const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    if (terminal && pod.metadata.deletionTimestamp) continue;
    const node = targetNodeName(pod) ?? '';
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  return out;
}

/** podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name. */
export function byCreation(a: ReadonlyPod, b: ReadonlyPod): number {
  const scheduled = Number(!!b.spec.nodeName) - Number(!!a.spec.nodeName);
  if (scheduled !== 0) return scheduled;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '');
  const tb = Date.parse(b.metadata.creationTimestamp ?? '');
  if (ta !== tb) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** The template generation apps/v1 keeps in an annotation (undefined when absent or unparsable). */
export function templateGenerationOf(ds: ReadonlyDS): number | undefined {
  const text = ds.metadata.annotations?.[templateGenerationAnnotation];
  const n = Number(text);
  return text !== undefined && Number.isInteger(n) ? n : undefined;
}

/** IsPodUpdated: the pod carries the current revision's hash, or the current template generation. */
export function isPodUpdated(pod: ReadonlyPod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  const templateMatches = generation !== undefined && labels[DaemonSetTemplateGenerationKey] === String(generation);
  return (hash !== '' && labels[DefaultDaemonSetUniqueLabelKey] === hash) || templateMatches;
}

/** findUpdatedPodsOnNode: at most one current and one old live pod, else not `ok`. */
export function updatedPodsOnNode(ds: ReadonlyDS, pods: readonly ReadonlyPod[], hash: string): { ok: boolean; current?: ReadonlyPod; old?: ReadonlyPod } {
  let current: ReadonlyPod | undefined;
  let old: ReadonlyPod | undefined;
  const generation = templateGenerationOf(ds);
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (current) return { ok: false };
      current = pod;
    } else {
      if (old) return { ok: false };
      old = pod;
    }
  }
  return { ok: true, ...(current ? { current } : {}), ...(old ? { old } : {}) };
}

/** updatedDesiredNodeCounts: the rolling update's budgets, at least one unavailable when both are 0. */
export function rolloutBudgets(ds: ReadonlyDS, desired: number): { maxSurge: number; maxUnavailable: number } {
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  let maxUnavailable = scaledValue(ru?.maxUnavailable, desired, true);
  const maxSurge = scaledValue(ru?.maxSurge, desired, true);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** AllowsSurge: a rolling update with a non-zero maxSurge. */
export function allowsSurge(ds: ReadonlyDS): boolean {
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  return ds.spec.updateStrategy?.type === 'RollingUpdate' && scaledValue(ru?.maxSurge, 1, true) !== 0;
}

/** updateDaemonSetStatus's counts: each node that should run the pod is judged by its oldest pod. */
export function daemonSetStatusCounts(ds: ReadonlyDS, nodes: readonly ReadonlyNode[], byNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string, now: number): DaemonSetStatus {
  const counts = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
  const generation = templateGenerationOf(ds);
  for (const node of nodes) {
    const pods = byNode.get(node.metadata.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (pods.length > 0) counts.numberMisscheduled++;
      continue;
    }
    counts.desiredNumberScheduled++;
    const pod = [...pods].sort(byCreation)[0];
    if (!pod) continue;
    counts.currentNumberScheduled++;
    if (isPodReady(pod)) {
      counts.numberReady++;
      if (isPodAvailable(pod, ds.spec.minReadySeconds ?? 0, now)) counts.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) counts.updatedNumberScheduled++;
  }
  return { ...counts, numberUnavailable: counts.desiredNumberScheduled - counts.numberAvailable };
}
