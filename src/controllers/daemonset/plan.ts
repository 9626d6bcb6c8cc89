// What one sync of a DaemonSet does to its pods: the nodes that need a daemon pod and the pods to
// delete (manage), then the old pods a rolling update replaces within its budgets. Pure, but for
// the failed-pod back-off it is handed.
// Upstream: pkg/controller/daemon/daemon_controller.go (manage, podsShouldBeOnNode,
// getUnscheduledPodsWithoutNode), update.go (rollingUpdate).
import type { DaemonSet, Node, Pod } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { DefaultDaemonSetUniqueLabelKey } from '../../api/index.ts';
import { isPodAvailable, isPodReady } from '../pod-state.ts';
import { allowsSurge, byCreation, rolloutBudgets, updatedPodsOnNode } from './daemon-pods.ts';
import { nodeShouldRunDaemonPod } from './placement.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyDS = DeepReadonly<DaemonSet>;
type ReadonlyNode = DeepReadonly<Node>;

/** The failed-pod back-off per DaemonSet and node (upstream failedPodsBackoff: 1 s doubling to 15 min). */
export interface FailedPodBackoff {
  /** Milliseconds left to wait before another failed pod on this node may be deleted; 0 when free. */
  remaining(key: string, now: number): number;
  next(key: string, now: number): void;
}

export interface Plan {
  createOn: string[];
  delete: ReadonlyPod[];
  /** FailedDaemonPod events to record. */
  failed: { pod: ReadonlyPod; node: string }[];
  /** Sync again after this long (a failed pod still backing off). */
  retryAfterMs?: number;
}

/** manage: per node, create the missing daemon pod or delete the ones that should go. */
export function managePlan(ds: ReadonlyDS, nodes: readonly ReadonlyNode[], byNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string, backoff: FailedPodBackoff, now: number): Plan {
  const plan: Plan = { createOn: [], delete: [], failed: [] };
  const surge = allowsSurge(ds);
  const names = new Set<string>();
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    names.add(name);
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = byNode.get(name);
    if (shouldRun && !pods) {
      plan.createOn.push(name);
      continue;
    }
    if (!pods) continue;
    if (!shouldContinueRunning) {
      plan.delete.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
      continue;
    }
    const running: ReadonlyPod[] = [];
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      if (pod.status?.phase === 'Failed') {
        const key = `${ds.metadata.uid ?? ''}/${name}`;
        const wait = backoff.remaining(key, now);
        if (wait > 0) {
          plan.retryAfterMs = Math.min(plan.retryAfterMs ?? wait, wait);
          continue;
        }
        backoff.next(key, now);
        plan.failed.push({ pod, node: name });
        plan.delete.push(pod);
      } else if (pod.status?.phase === 'Succeeded') {
        plan.delete.push(pod);
      } else running.push(pod);
    }
    running.sort(byCreation);
    if (!surge) {
      plan.delete.push(...running.slice(1));
      continue;
    }
    if (running.length === 0 && shouldRun) plan.createOn.push(name);
    if (running.length <= 1) continue;
    plan.delete.push(...surgeExcess(ds, running, hash, now));
  }
  // Pods pinned to a node that no longer exists are never scheduled, so pod GC would never see them.
  for (const [name, pods] of byNode) {
    if (names.has(name)) continue;
    plan.delete.push(...pods.filter((p) => !p.spec.nodeName && !p.metadata.deletionTimestamp));
  }
  return plan;
}

/**
 * With surge, a node keeps two pods only while the oldest current one is not yet available and the
 * oldest old one is ready; every other pod goes.
 */
function surgeExcess(ds: ReadonlyDS, running: readonly ReadonlyPod[], hash: string, now: number): ReadonlyPod[] {
  const out: ReadonlyPod[] = [];
  let oldestNew: ReadonlyPod | undefined;
  let oldestOld: ReadonlyPod | undefined;
  for (const pod of running) {
    const current = pod.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] === hash;
    if (current && !oldestNew) oldestNew = pod;
    else if (!current && !oldestOld) oldestOld = pod;
    else out.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec.minReadySeconds ?? 0, now))) out.push(oldestOld);
  return out;
}

/** rollingUpdate: which old pods to delete (and, surging, where to start new ones) within the budgets. */
export function rollingUpdatePlan(ds: ReadonlyDS, nodes: readonly ReadonlyNode[], byNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string, now: number): { createOn: string[]; delete: ReadonlyPod[] } {
  const minReady = ds.spec.minReadySeconds ?? 0;
  const available = (p: ReadonlyPod): boolean => isPodAvailable(p, minReady, now);
  const shouldRun = new Map(nodes.map((n) => [n.metadata.name ?? '', nodeShouldRunDaemonPod(n, ds).shouldRun]));
  // Every node that should run the pod takes part, with or without pods yet.
  const perNode = new Map(byNode);
  let desired = 0;
  for (const [name, run] of shouldRun) {
    if (!run) continue;
    desired++;
    if (!perNode.has(name)) perNode.set(name, []);
  }
  const { maxSurge, maxUnavailable } = rolloutBudgets(ds, desired);
  return maxSurge === 0 ? replaceWithinUnavailable(ds, perNode, hash, maxUnavailable, available) : replaceWithSurge(ds, perNode, hash, maxSurge, desired, shouldRun, available);
}

function replaceWithinUnavailable(ds: ReadonlyDS, perNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string, maxUnavailable: number, available: (p: ReadonlyPod) => boolean): { createOn: string[]; delete: ReadonlyPod[] } {
  let unavailable = 0;
  const replacements: ReadonlyPod[] = [];
  const candidates: ReadonlyPod[] = [];
  for (const pods of perNode.values()) {
    const { ok, current, old } = updatedPodsOnNode(ds, pods, hash);
    if (!ok || (!old && !current) || (old && current)) {
      unavailable++;
    } else if (current) {
      if (!available(current)) unavailable++;
    } else if (old && !available(old)) {
      replacements.push(old);
      unavailable++;
    } else if (old && unavailable < maxUnavailable) {
      candidates.push(old);
    }
  }
  const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
  return { createOn: [], delete: [...replacements, ...candidates.slice(0, room)] };
}

function replaceWithSurge(
  ds: ReadonlyDS,
  perNode: ReadonlyMap<string, readonly ReadonlyPod[]>,
  hash: string,
  maxSurge: number,
  desired: number,
  shouldRun: ReadonlyMap<string, boolean>,
  available: (p: ReadonlyPod) => boolean,
): { createOn: string[]; delete: ReadonlyPod[] } {
  const toDelete: ReadonlyPod[] = [];
  const notRunning: ReadonlyPod[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let surging = 0;
  let availableCount = 0;
  for (const [name, pods] of perNode) {
    const { ok, current, old } = updatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      surging++;
      continue;
    }
    if (old ? available(old) : current && available(current)) availableCount++;
    if (!old) continue;
    if (!current) {
      if (!shouldRun.get(name)) {
        if (available(old)) notRunning.push(old);
        else toDelete.push(old);
      } else if (!available(old)) allowed.push(name);
      else if (surging < maxSurge) candidates.push(name);
      continue;
    }
    if (!available(current)) surging++;
    else toDelete.push(old);
  }
  // Keep the application fully available: a pod leaves a node it no longer fits only once enough others are up.
  const deletable = Math.min(Math.max(0, availableCount - desired), notRunning.length);
  toDelete.push(...notRunning.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - surging), candidates.length);
  return { createOn: [...allowed, ...candidates.slice(0, room)], delete: toDelete };
}
