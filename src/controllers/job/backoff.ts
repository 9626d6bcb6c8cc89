// Exponential delay before replacing failed pods: 10 s after the first failure since the
// last success, doubling per further failure, capped at MaxJobPodFailureBackOff.
// Upstream: pkg/controller/job/backoff_utils.go. The docs say "capped at six minutes";
// the 1.35 code caps at 10 minutes, and the code is what a cluster does.
import { JobAnnotation } from '../../api/index.ts';
import type { ReadonlyPod } from './pods.ts';

export const defaultJobPodFailureBackOffMs = 10_000;
export const maxJobPodFailureBackOffMs = 600_000;

export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  /** ms since the epoch. */
  readonly lastFailureTime?: number;
}

const emptyRecord: BackoffRecord = { failuresAfterLastSuccess: 0 };

/**
 * newBackoffRecord: folds this sync's newly finished pods into the Job's record. A success
 * resets the count, except for failures that finished after the last success.
 */
export function nextBackoffRecord(old: BackoffRecord | undefined, newSucceeded: readonly ReadonlyPod[], newFailed: readonly ReadonlyPod[]): BackoffRecord {
  const prev = old ?? emptyRecord;
  const failedTimes = newFailed.map(finishedTime).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return prev;
    return { failuresAfterLastSuccess: prev.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] ?? 0 };
  }
  const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
  let failures = 0;
  let lastFailureTime: number | undefined;
  for (let i = failedTimes.length - 1; i >= 0; i--) {
    const t = failedTimes[i] ?? 0;
    if (t <= lastSuccess) break;
    lastFailureTime ??= t;
    failures++;
  }
  return lastFailureTime === undefined ? { failuresAfterLastSuccess: failures } : { failuresAfterLastSuccess: failures, lastFailureTime };
}

/** The delay still to wait before creating pods, in ms; 0 when creation may go ahead. */
export function remainingBackoffMs(now: number, failures: number, lastFailureTime: number | undefined, base = defaultJobPodFailureBackOffMs, max = maxJobPodFailureBackOffMs): number {
  if (failures === 0 || lastFailureTime === undefined) return 0;
  let delay = base;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= max) {
      delay = max;
      break;
    }
  }
  const elapsed = now - lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}

/** getRemainingTimePerIndex: the delay for an index, from its last failed pod. */
export function remainingBackoffForIndexMs(now: number, lastFailedPod: ReadonlyPod | undefined): number {
  if (!lastFailedPod) return 0;
  return remainingBackoffMs(now, indexAbsoluteFailureCount(lastFailedPod) + 1, finishedTime(lastFailedPod));
}

export function indexFailureCount(p: ReadonlyPod): number {
  return annotationCount(p, JobAnnotation.JobIndexFailureCount);
}

export function indexIgnoredFailureCount(p: ReadonlyPod): number {
  return annotationCount(p, JobAnnotation.JobIndexIgnoredFailureCount);
}

export function indexAbsoluteFailureCount(p: ReadonlyPod): number {
  return indexFailureCount(p) + indexIgnoredFailureCount(p);
}

function annotationCount(p: ReadonlyPod, key: string): number {
  const v = p.metadata.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  return Number(v);
}

/**
 * getFinishedTime: the latest finishedAt of the regular containers and sidecars (sidecars
 * stop last), else when Ready turned False, else the deletion time minus its grace period,
 * else the creation time.
 */
export function finishedTime(p: ReadonlyPod): number {
  const fromContainers = containersFinishedTime(p);
  if (fromContainers !== undefined) return fromContainers;
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'False');
  if (ready?.lastTransitionTime) return Date.parse(ready.lastTransitionTime);
  if (p.metadata.deletionTimestamp) return Date.parse(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : 0;
}

function containersFinishedTime(p: ReadonlyPod): number | undefined {
  const sidecars = new Set((p.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  let latest: number | undefined;
  const fold = (statuses: readonly { readonly name: string; readonly state?: { readonly terminated?: { readonly finishedAt?: string } } }[], include: (name: string) => boolean): boolean => {
    for (const s of statuses) {
      if (!include(s.name)) continue;
      const at = s.state?.terminated?.finishedAt;
      if (!at) return false;
      const t = Date.parse(at);
      if (latest === undefined || t > latest) latest = t;
    }
    return true;
  };
  if (!fold(p.status?.containerStatuses ?? [], () => true)) return undefined;
  if (!fold(p.status?.initContainerStatuses ?? [], (name) => sidecars.has(name))) return undefined;
  return latest;
}
