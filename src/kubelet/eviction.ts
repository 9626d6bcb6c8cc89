// The kubelet's eviction manager for memory: every 10 s it compares what the node's pods use (their
// simulated working sets) with the node's memory and allocatable memory; below the default hard
// threshold (memory.available<100Mi, and the allocatable one node allocatable enforcement adds) it
// reports MemoryPressure, evicts one pod per pass in upstream's ranking, and refuses BestEffort pods.
// The pressure holds for the 5-minute transition period after the signal was last met.
// Upstream: pkg/kubelet/eviction/{eviction_manager.go,helpers.go}, nodestatus/setters.go (MemoryPressureCondition).
import { getPodQOS, toleratesTaint } from '../api/index.ts';
import { canonicalizeQuantityText, formatQuantity, quantityFromValue } from '../core/index.ts';
import { resourceAmountOf } from './quantities.ts';
import type { DeepReadonlyPod } from './types.ts';

/** evictionMonitoringPeriod. */
export const evictionMonitoringPeriodMs = 10_000;
/** evictionPressureTransitionPeriod. */
export const evictionPressureTransitionPeriodMs = 5 * 60_000;
/** The default hard threshold, memory.available<100Mi (and allocatableMemory.available<100Mi). */
export const memoryThresholdBytes = 100 * 1024 * 1024;
/** scheduling.SystemCriticalPriority: a pod at or above it is never evicted. */
const systemCriticalPriority = 2_000_000_000;

export interface PodMemory {
  pod: DeepReadonlyPod;
  /** Working set per running container. */
  containers: ReadonlyMap<string, number>;
}

export interface MemoryObservation {
  /** Node memory capacity and allocatable, in bytes. */
  capacity: number;
  allocatable: number;
  pods: readonly PodMemory[];
}

export interface EvictionChoice {
  pod: DeepReadonlyPod;
  message: string;
}

const quantity = (bytes: number): string => formatQuantity(quantityFromValue(Math.round(bytes), 'BinarySI'));
const podTotal = (p: PodMemory): number => [...p.containers.values()].reduce((a, b) => a + b, 0);

function memoryRequest(c: DeepReadonlyPod['spec']['containers'][number]): number {
  return resourceAmountOf('memory', c.resources?.requests?.memory) ?? 0;
}

/** The pod's memory requests summed over its regular and sidecar containers (what its usage is held against). */
function podRequest(pod: DeepReadonlyPod): number {
  let total = 0;
  for (const c of pod.spec.containers) total += memoryRequest(c);
  for (const c of pod.spec.initContainers ?? []) if (c.restartPolicy === 'Always') total += memoryRequest(c);
  return total;
}

/**
 * The signal met, if any: signalObservations' memory.available (capacity less the working set) and
 * allocatableMemory.available (allocatable less the pods' working set), in the order the thresholds
 * are configured; its threshold quantity and what was available.
 */
export function memoryThresholdMet(o: MemoryObservation): { available: number } | undefined {
  const used = o.pods.reduce((sum, p) => sum + podTotal(p), 0);
  // The node's available memory is never below 0 (cadvisor's AvailableBytes); the allocatable signal is a plain difference.
  for (const available of [Math.max(0, o.capacity - used), o.allocatable - used]) if (available < memoryThresholdBytes) return { available };
  return undefined;
}

/**
 * rankMemoryPressure: pods whose usage exceeds their requests first, then lower priority, then usage
 * above requests, largest first. Critical pods are never chosen (evictPod refuses them).
 */
export function rankForMemoryEviction(pods: readonly PodMemory[]): PodMemory[] {
  const over = (p: PodMemory): number => podTotal(p) - podRequest(p.pod);
  return pods
    .filter((p) => (p.pod.spec.priority ?? 0) < systemCriticalPriority)
    .slice()
    .sort((a, b) => Number(over(b) > 0) - Number(over(a) > 0) || (a.pod.spec.priority ?? 0) - (b.pod.spec.priority ?? 0) || over(b) - over(a));
}

/** evictionMessage for memory: the node-low sentence, the threshold met, each container above its request. */
export function memoryEvictionMessage(victim: PodMemory, available: number): string {
  let message = `The node was low on resource: memory. Threshold quantity: ${quantity(memoryThresholdBytes)}, available: ${quantity(available)}. `;
  const containers: DeepReadonlyPod['spec']['containers'][number][] = [...victim.pod.spec.containers, ...(victim.pod.spec.initContainers ?? [])];
  for (const [name, used] of victim.containers) {
    const c = containers.find((x) => x.name === name);
    if (!c) continue;
    const spec = c.resources?.requests?.memory;
    const request = spec === undefined ? '0' : (canonicalizeQuantityText(spec) ?? spec);
    if (used > memoryRequest(c)) message += `Container ${name} was using ${quantity(used)}, request is ${request}, has larger consumption of memory. `;
  }
  return message;
}

/** The pass's outcome: whether the node is under memory pressure now, and the pod to evict, if any. */
export function evictionPass(o: MemoryObservation): { met: boolean; evict?: EvictionChoice } {
  const met = memoryThresholdMet(o);
  if (!met) return { met: false };
  const victim = rankForMemoryEviction(o.pods)[0];
  return victim ? { met: true, evict: { pod: victim.pod, message: memoryEvictionMessage(victim, met.available) } } : { met: true };
}

/**
 * The eviction manager's Admit under memory pressure: BestEffort pods are refused unless they
 * tolerate the memory-pressure taint; the rest are admitted.
 */
export function admitUnderMemoryPressure(pod: DeepReadonlyPod): { admit: true } | { admit: false; reason: string; message: string } {
  if (getPodQOS(pod) !== 'BestEffort') return { admit: true };
  if ((pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }))) return { admit: true };
  return { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' };
}
