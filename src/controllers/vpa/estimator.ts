// The recommender's estimation, pure: percentiles of a container's aggregate histograms, the 15%
// safety margin, the confidence multipliers for the bounds, the per-pod minimums split across
// containers, then the policy's minAllowed/maxAllowed capping (uncappedTarget keeps the value before).
// Upstream: vertical-pod-autoscaler/pkg/recommender/logic/{recommender,estimator}.go,
// pkg/recommender/model/aggregate_container_state.go, pkg/utils/vpa/capping.go.
import type { DeepReadonly } from '../../core/index.ts';
import { formatQuantity, parseQuantity, quantityFromMilli, quantityFromValue, quantityMilliValue, quantityValue } from '../../core/index.ts';
import { DecayingHistogram, cpuHistogramOptions, dayMs, memoryHistogramOptions } from './histogram.ts';
import type { ContainerResourcePolicy, RecommendedContainerResources, ResourceList } from './types.ts';
import { controlledResources } from './types.ts';

export const cpuHalfLifeMs = dayMs;
export const memoryHalfLifeMs = dayMs;
export const memoryAggregationIntervalMs = dayMs;
/** From VPA 1.4 every CPU sample weighs the same minimum weight. */
export const cpuSampleWeight = 0.1;
export const safetyMarginFraction = 0.15;
export const podMinCpuMilli = 25;
export const podMinMemoryBytes = 250 * 1024 * 1024;
export const oomBumpUpRatio = 1.2;
export const oomMinBumpUpBytes = 100 * 1024 * 1024;
// ResourceAmount's ceiling (upstream MaxResourceAmount), reached by the unbounded confidence multiplier.
const maxResourceAmount = 1e14;

interface Peak {
  windowEnd: number;
  value: number;
  at: number;
}

/** One VPA's view of one container name across its pods (upstream AggregateContainerState). */
export class AggregateState {
  readonly cpu = new DecayingHistogram(cpuHistogramOptions, cpuHalfLifeMs);
  readonly memory = new DecayingHistogram(memoryHistogramOptions, memoryHalfLifeMs);
  firstSampleStart = 0;
  lastSampleStart = 0;
  totalSamples = 0;
  readonly #peaks = new Map<string, Peak>();
  readonly #lastAt = new Map<string, number>();

  /** A usage sample of one container instance (`instance` = pod uid / container); repeats of a sample are ignored. */
  addSample(instance: string, cpuMilli: number, memoryBytes: number, at: number): void {
    const last = this.#lastAt.get(instance);
    if (last !== undefined && at <= last) return;
    this.#lastAt.set(instance, at);
    this.cpu.addSample(cpuMilli / 1000, cpuSampleWeight, at);
    if (this.totalSamples === 0 || at < this.firstSampleStart) this.firstSampleStart = at;
    if (at > this.lastSampleStart) this.lastSampleStart = at;
    this.totalSamples++;
    this.#addMemoryPeak(instance, memoryBytes, at);
  }

  /** Memory: one sample per aggregation interval, that interval's peak. */
  #addMemoryPeak(instance: string, bytes: number, at: number): void {
    const peak = this.#peaks.get(instance);
    if (!peak || at >= peak.windowEnd) {
      this.memory.addSample(bytes, 1, at);
      this.#peaks.set(instance, { windowEnd: at + memoryAggregationIntervalMs, value: bytes, at });
    } else if (bytes > peak.value) {
      this.memory.subtractSample(peak.value, 1, peak.at);
      this.memory.addSample(bytes, 1, peak.at);
      peak.value = bytes;
    }
  }

  /**
   * An OOM kill as an artificial memory sample (upstream ContainerState.RecordOOM): what the
   * container used (its request, or this interval's peak if higher) bumped up by 20%, at least by
   * 100 MiB, then treated as the interval's peak.
   */
  recordOom(instance: string, requestBytes: number, at: number): void {
    const peak = this.#peaks.get(instance);
    const inWindow = peak !== undefined && at < peak.windowEnd;
    const used = Math.max(requestBytes, inWindow ? peak.value : 0);
    this.#addMemoryPeak(instance, Math.max(used + oomMinBumpUpBytes, used * oomBumpUpRatio), at);
  }

  /** Days of history, bounded by samples at one per minute (upstream getConfidence). */
  confidence(): number {
    const days = (this.lastSampleStart - this.firstSampleStart) / dayMs;
    return Math.min(days, this.totalSamples / (60 * 24));
  }
}

export interface Estimate {
  cpuMilli: number;
  memoryBytes: number;
}

const clamp = (v: number): number => Math.min(Math.max(0, Math.floor(v)), maxResourceAmount);

function percentiles(s: AggregateState, cpuP: number, memP: number): Estimate {
  return { cpuMilli: clamp(s.cpu.percentile(cpuP) * 1000 * (1 + safetyMarginFraction)), memoryBytes: clamp(s.memory.percentile(memP) * (1 + safetyMarginFraction)) };
}

function withConfidence(e: Estimate, multiplier: number, exponent: number, confidence: number): Estimate {
  const factor = Math.pow(1 + multiplier / confidence, exponent);
  const scale = (v: number): number => (Number.isFinite(factor) ? clamp(v * factor) : factor > 0 && v > 0 ? maxResourceAmount : 0);
  return { cpuMilli: scale(e.cpuMilli), memoryBytes: scale(e.memoryBytes) };
}

export interface ContainerEstimates {
  target: Estimate;
  lowerBound: Estimate;
  upperBound: Estimate;
}

/** Target p90, lower p50 and upper p95 (CPU and memory peaks alike), for a pod of `containers` containers. */
export function estimate(s: AggregateState, containers: number): ContainerEstimates {
  const fraction = 1 / Math.max(1, containers);
  const min = (e: Estimate): Estimate => ({ cpuMilli: Math.max(e.cpuMilli, Math.floor(podMinCpuMilli * fraction)), memoryBytes: Math.max(e.memoryBytes, Math.floor(podMinMemoryBytes * fraction)) });
  const conf = s.confidence();
  return {
    target: min(percentiles(s, 0.9, 0.9)),
    lowerBound: min(withConfidence(percentiles(s, 0.5, 0.5), 0.001, -2, conf)),
    upperBound: min(withConfidence(percentiles(s, 0.95, 0.95), 1, 1, conf)),
  };
}

export function cpuText(milli: number): string {
  return formatQuantity(quantityFromMilli(milli));
}

/** Memory as upstream prints it: DecimalSI bytes (`262144k` for 250Mi). */
export function memoryText(bytes: number): string {
  return formatQuantity(quantityFromValue(bytes));
}

function list(e: Estimate, resources: readonly string[]): ResourceList {
  const out: ResourceList = {};
  if (resources.includes('cpu')) out.cpu = cpuText(e.cpuMilli);
  if (resources.includes('memory')) out.memory = memoryText(e.memoryBytes);
  return out;
}

export function amountOf(resource: string, text: string | undefined): number | undefined {
  const q = text === undefined ? undefined : parseQuantity(text);
  if (!q) return undefined;
  return resource === 'cpu' ? quantityMilliValue(q) : quantityValue(q);
}

function capped(e: Estimate, policy: DeepReadonly<ContainerResourcePolicy> | undefined): Estimate {
  const cap = (resource: 'cpu' | 'memory', v: number): number => {
    const lo = amountOf(resource, policy?.minAllowed?.[resource]);
    const hi = amountOf(resource, policy?.maxAllowed?.[resource]);
    let out = v;
    if (lo !== undefined && out < lo) out = lo;
    if (hi !== undefined && out > hi) out = hi;
    return out;
  };
  return { cpuMilli: cap('cpu', e.cpuMilli), memoryBytes: cap('memory', e.memoryBytes) };
}

/** The status entry for one container: bounds capped by the policy, uncappedTarget as estimated. */
export function containerRecommendation(name: string, e: ContainerEstimates, policy: DeepReadonly<ContainerResourcePolicy> | undefined): RecommendedContainerResources {
  const resources = controlledResources(policy);
  return {
    containerName: name,
    target: list(capped(e.target, policy), resources),
    lowerBound: list(capped(e.lowerBound, policy), resources),
    upperBound: list(capped(e.upperBound, policy), resources),
    uncappedTarget: list(e.target, resources),
  };
}
