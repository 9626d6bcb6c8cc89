// The kubelet's eviction manager for memory: every 10 s it compares what the node's pods use (their
// simulated working sets) with the node's memory and allocatable memory; below the default hard
// threshold (memory.available<100Mi, and the allocatable one node allocatable enforcement adds) it
// reports MemoryPressure, evicts one pod per pass in upstream's ranking, and refuses BestEffort pods.
// The pressure holds for the 5-minute transition period after the signal was last met.
// Upstream: pkg/kubelet/eviction/{eviction_manager.go,helpers.go}, nodestatus/setters.go (MemoryPressureCondition).
import { getPodQOS, toleratesTaint } from '../api/index.ts';
import { addQuantities, canonicalizeQuantityText, formatQuantity, parseQuantity, quantityFromValue } from '../core/index.ts';
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
  signal: MemorySignal;
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

export type MemorySignal = 'memory.available' | 'allocatableMemory.available';

/**
 * The signal met, if any: signalObservations' memory.available (capacity less the working set) and
 * allocatableMemory.available (allocatable less the pods' working set), in the order the thresholds
 * are configured; its threshold quantity and what was available.
 */
export function memoryThresholdMet(o: MemoryObservation): { available: number; signal: MemorySignal } | undefined {
  const used = o.pods.reduce((sum, p) => sum + podTotal(p), 0);
  // The node's available memory is never below 0 (cadvisor's AvailableBytes); the allocatable signal is a plain difference.
  const observed: [MemorySignal, number][] = [['memory.available', Math.max(0, o.capacity - used)], ['allocatableMemory.available', o.allocatable - used]];
  for (const [signal, available] of observed) if (available < memoryThresholdBytes) return { available, signal };
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
  return victim ? { met: true, evict: { pod: victim.pod, message: memoryEvictionMessage(victim, met.available), signal: met.signal } } : { met: true };
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

/** What a pod's running containers have written to local disk: bytes, and the path when not their writable layer. */
export interface PodDisk {
  pod: DeepReadonlyPod;
  writes: ReadonlyMap<string, { bytes: number; path?: string }>;
  /** What was copied into each emptyDir (kubectl cp), by volume name. */
  emptyDirBytes?: ReadonlyMap<string, number>;
  /** What was copied into each container's writable layer (kubectl cp outside its volumes), by container name. */
  layerBytes?: ReadonlyMap<string, number>;
}

type Spec = DeepReadonlyPod['spec'];

/** The disk-backed emptyDir a container's path falls under (the deepest mount wins), if any. */
function emptyDirAt(spec: Spec, container: string, path: string): string | undefined {
  const c = [...spec.containers, ...(spec.initContainers ?? [])].find((x) => x.name === container);
  let best: { name: string; depth: number } | undefined;
  for (const m of c?.volumeMounts ?? []) {
    const mount = m.mountPath.replace(/\/+$/, '');
    if (path !== mount && !path.startsWith(`${mount}/`)) continue;
    const v = spec.volumes?.find((x) => x.name === m.name);
    if (!v?.emptyDir || v.emptyDir.medium === 'Memory') continue;
    if (!best || mount.length > best.depth) best = { name: v.name, depth: mount.length };
  }
  return best?.name;
}

export interface LocalStorageEviction {
  signal: 'emptydirfs.limit' | 'ephemeralpodfs.limit' | 'ephemeralcontainerfs.limit';
  message: string;
}

const storageOf = (text: string | undefined): number | undefined => resourceAmountOf('ephemeral-storage', text);
const canonical = (text: string): string => canonicalizeQuantityText(text) ?? text;

/**
 * localStorageEviction for one pod (LocalStorageCapacityIsolation): an emptyDir past its sizeLimit,
 * the pod's usage past the sum of its containers' ephemeral-storage limits, or a container's writable
 * layer past its own limit, in that order; the eviction message and its signal (the kubelet_evictions
 * label), or undefined when none is exceeded.
 */
export function localStorageEviction(p: PodDisk): LocalStorageEviction | undefined {
  const spec = p.pod.spec;
  const volumes = new Map<string, number>();
  const layers = new Map<string, number>();
  for (const [name, w] of p.writes) {
    const volume = w.path === undefined ? undefined : emptyDirAt(spec, name, w.path);
    if (volume) volumes.set(volume, (volumes.get(volume) ?? 0) + w.bytes);
    else layers.set(name, (layers.get(name) ?? 0) + w.bytes);
  }
  for (const [name, bytes] of p.layerBytes ?? []) layers.set(name, (layers.get(name) ?? 0) + bytes);
  for (const [volume, bytes] of p.emptyDirBytes ?? []) {
    const v = spec.volumes?.find((x) => x.name === volume);
    if (v?.emptyDir && v.emptyDir.medium !== 'Memory') volumes.set(volume, (volumes.get(volume) ?? 0) + bytes);
  }
  for (const v of spec.volumes ?? []) {
    const limit = v.emptyDir?.sizeLimit;
    const size = storageOf(limit);
    const used = volumes.get(v.name);
    if (limit && size !== undefined && size > 0 && used !== undefined && used > size) return { signal: 'emptydirfs.limit', message: `Usage of EmptyDir volume "${v.name}" exceeds the limit "${canonical(limit)}". ` };
  }
  const limits = spec.containers.map((c) => c.resources?.limits?.['ephemeral-storage']).filter((l): l is string => l !== undefined);
  if (limits.length > 0) {
    const total = limits.reduce((sum, l) => sum + (storageOf(l) ?? 0), 0);
    const used = [...layers.values(), ...volumes.values()].reduce((a, b) => a + b, 0);
    if (used > total) return { signal: 'ephemeralpodfs.limit', message: `Pod ephemeral local storage usage exceeds the total limit of containers ${sumText(limits)}. ` };
  }
  for (const c of spec.containers) {
    const limit = c.resources?.limits?.['ephemeral-storage'];
    const size = storageOf(limit);
    if (limit && size && (layers.get(c.name) ?? 0) > size) return { signal: 'ephemeralcontainerfs.limit', message: `Container ${c.name} exceeded its local ephemeral storage limit "${canonical(limit)}". ` };
  }
  return undefined;
}

/** The limits' sum as resource.Quantity.Add leaves it: in the first one's format. */
function sumText(limits: readonly string[]): string {
  const [first, ...rest] = limits.map((l) => parseQuantity(l)).filter((q) => q !== undefined);
  if (!first) return '0';
  return formatQuantity(rest.reduce((sum, q) => addQuantities(sum, q), first));
}
