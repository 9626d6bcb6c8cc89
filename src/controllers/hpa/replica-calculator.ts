// Desired replicas from per-pod metrics, as upstream's ReplicaCalculator: pods are grouped into
// ready / unready / missing / ignored, missing and unready pods are counted conservatively, and a
// change inside the tolerance band (or one that would flip direction) keeps the current count.
// Pure: the caller passes pods, metrics and the clock's now.
// Upstream: pkg/controller/podautoscaler/replica_calculator.go, metrics/utilization.go.
import type { Pod } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { parseQuantity, quantityMilliValue } from '../../core/index.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** One pod's metric: a milli-value with the sample's timestamp and window (ms). */
export interface PodMetric {
  value: number;
  timestamp: number;
  windowMs: number;
}
export type PodMetricsInfo = Map<string, PodMetric>;

export interface Tolerances {
  scaleDown: number;
  scaleUp: number;
}
export const defaultTolerances: Tolerances = { scaleDown: 0.1, scaleUp: 0.1 };
export const isWithin = (t: Tolerances, ratio: number): boolean => 1 - t.scaleDown <= ratio && ratio <= 1 + t.scaleUp;

export interface ReadinessPolicy {
  now: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period (5m). */
  cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay (30s). */
  delayOfInitialReadinessStatusMs: number;
}
export const defaultReadiness = { cpuInitializationPeriodMs: 5 * 60_000, delayOfInitialReadinessStatusMs: 30_000 } as const;

export type Calculation = { ok: true; replicas: number; utilization: number; rawUtilization: number } | { ok: false; message: string };

export interface PodGroups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

const time = (s: string | undefined): number | undefined => (s === undefined ? undefined : Date.parse(s));

export function groupPods(pods: readonly ReadonlyPod[], metrics: PodMetricsInfo, resource: string, policy: ReadinessPolicy): PodGroups {
  const groups: PodGroups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      groups.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const start = time(pod.status?.startTime);
      let unready: boolean;
      if (!ready || start === undefined) unready = true;
      else {
        const transition = time(ready.lastTransitionTime) ?? 0;
        if (start + policy.cpuInitializationPeriodMs > policy.now) {
          // Still initialising: ignore an unready pod, or a sample not a full window after the transition.
          unready = ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Past initialisation: ignore only a pod that has never been ready.
          unready = ready.status === 'False' && start + policy.delayOfInitialReadinessStatusMs > transition;
        }
      }
      if (unready) {
        groups.unready.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

const milli = (q: string | undefined): number | undefined => {
  const parsed = q === undefined ? undefined : parseQuantity(q);
  return parsed ? quantityMilliValue(parsed) : undefined;
};

/** Each pod's request in milli-units: one container's, pod-level requests, or the sum over containers and sidecars. */
export function calculateRequests(pods: readonly ReadonlyPod[], container: string, resource: string): { ok: true; requests: Map<string, number> } | { ok: false; message: string } {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const podLevel = (pod.spec as { resources?: { requests?: Record<string, string> } }).resources?.requests;
    if (container === '' && podLevel && Object.keys(podLevel).length > 0) {
      const v = milli(podLevel[resource]);
      if (v === undefined) return { ok: false, message: `missing pod-level request for ${resource} in Pod ${name}` };
      requests.set(name, v);
      continue;
    }
    const containers = [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let sum = 0;
    let found = false;
    for (const c of containers) {
      if (container !== '' && c.name !== container) continue;
      const v = milli(c.resources?.requests?.[resource]);
      if (v === undefined) return { ok: false, message: `missing request for ${resource} in container ${c.name} of Pod ${name}` };
      sum += v;
      found = true;
      if (container === c.name) break;
    }
    if (container !== '' && !found) return { ok: false, message: `container ${container} not found in Pod ${name}` };
    requests.set(name, sum);
  }
  return { ok: true, requests };
}

/** GetResourceUtilizationRatio. */
function utilizationRatio(metrics: PodMetricsInfo, requests: ReadonlyMap<string, number>, target: number): { ok: true; ratio: number; utilization: number; raw: number } | { ok: false; message: string } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entities = 0;
  for (const [name, m] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += request;
    entities++;
  }
  if (requestsTotal === 0) return { ok: false, message: 'no metrics returned matched known pods' };
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ok: true, ratio: utilization / target, utilization, raw: Math.trunc(metricsTotal / entities) };
}

export interface ResourceInput {
  currentReplicas: number;
  resource: string;
  container: string;
  pods: readonly ReadonlyPod[];
  metrics: PodMetricsInfo;
  tolerances: Tolerances;
  policy: ReadinessPolicy;
}

/** GetResourceReplicas: target utilization as a percentage of requests. */
export function resourceReplicas(input: ResourceInput & { targetUtilization: number }): Calculation {
  const { currentReplicas, pods, tolerances } = input;
  const metrics = new Map(input.metrics);
  if (pods.length === 0) return { ok: false, message: 'no pods returned by selector while calculating replica count' };
  const g = groupPods(pods, metrics, input.resource, input.policy);
  for (const n of [...g.ignored, ...g.unready]) metrics.delete(n);
  if (metrics.size === 0) return { ok: false, message: 'did not receive metrics for targeted pods (pods might be unready)' };
  const req = calculateRequests(pods, input.container, input.resource);
  if (!req.ok) return req;
  const first = utilizationRatio(metrics, req.requests, input.targetUtilization);
  if (!first.ok) return first;
  const { ratio, utilization, raw } = first;
  const keep: Calculation = { ok: true, replicas: currentReplicas, utilization, rawUtilization: raw };
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (isWithin(tolerances, ratio)) return keep;
    return { ...keep, replicas: Math.ceil(ratio * g.readyPodCount) };
  }
  if (g.missing.size > 0 && ratio !== 1) {
    // Scale-down: missing pods count as using 100% of their request (or the target when above 100%);
    // scale-up: as using nothing.
    const fallback = Math.max(100, input.targetUtilization);
    for (const n of g.missing) metrics.set(n, { value: ratio < 1 ? Math.trunc(((req.requests.get(n) ?? 0) * fallback) / 100) : 0, timestamp: 0, windowMs: 0 });
  }
  if (scaleUpWithUnready) for (const n of g.unready) metrics.set(n, { value: 0, timestamp: 0, windowMs: 0 });
  const second = utilizationRatio(metrics, req.requests, input.targetUtilization);
  if (!second.ok) return second;
  const next = second.ratio;
  if (isWithin(tolerances, next) || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) return keep;
  const replicas = Math.ceil(next * metrics.size);
  if ((next < 1 && replicas > currentReplicas) || (next > 1 && replicas < currentReplicas)) return keep;
  return { ...keep, replicas };
}

/** calcPlainMetricReplicas: a target average value (milli-units) per pod. */
export function plainMetricReplicas(input: ResourceInput & { targetUsage: number }): Calculation {
  const { currentReplicas, pods, tolerances, targetUsage } = input;
  const metrics = new Map(input.metrics);
  if (pods.length === 0) return { ok: false, message: 'no pods returned by selector while calculating replica count' };
  const g = groupPods(pods, metrics, input.resource, input.policy);
  for (const n of [...g.ignored, ...g.unready]) metrics.delete(n);
  if (metrics.size === 0) return { ok: false, message: 'did not receive metrics for targeted pods (pods might be unready)' };
  const usageRatio = (m: PodMetricsInfo): { ratio: number; usage: number } => {
    let total = 0;
    for (const v of m.values()) total += v.value;
    const usage = Math.trunc(total / m.size);
    return { ratio: usage / targetUsage, usage };
  };
  const { ratio, usage } = usageRatio(metrics);
  const keep: Calculation = { ok: true, replicas: currentReplicas, utilization: 0, rawUtilization: usage };
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (isWithin(tolerances, ratio)) return keep;
    return { ...keep, replicas: Math.ceil(ratio * g.readyPodCount) };
  }
  if (g.missing.size > 0 && ratio !== 1) for (const n of g.missing) metrics.set(n, { value: ratio < 1 ? targetUsage : 0, timestamp: 0, windowMs: 0 });
  if (scaleUpWithUnready) for (const n of g.unready) metrics.set(n, { value: 0, timestamp: 0, windowMs: 0 });
  const next = usageRatio(metrics).ratio;
  if (isWithin(tolerances, next) || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) return keep;
  const replicas = Math.ceil(next * metrics.size);
  if ((next < 1 && replicas > currentReplicas) || (next > 1 && replicas < currentReplicas)) return keep;
  return { ...keep, replicas };
}
