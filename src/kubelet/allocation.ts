// In-place resize policy of the kubelet: desired (spec) vs allocated resources per resizable container
// (regular containers and sidecars), the resize admission verdict (fits, Deferred, Infeasible) with
// upstream's messages, the deferred queue's priority order, and the resize event text. Pure.
// Upstream: pkg/kubelet/allocation/allocation_manager.go, pod_resize_admit_handler.go (1.35),
// pkg/kubelet/lifecycle/predicate.go (InsufficientResourceError), PR #134825 (events).
import { computePodQOS, podResourceRequests } from '../api/index.ts';
import type { Node, Pod, ResourceAmounts } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { resourceAmountOf } from './quantities.ts';
import type { InfeasibleResizeDetail } from './kubelet-metrics.ts';
import type { Container, DeepReadonlyPod } from './types.ts';

/** A container's requests and limits as quantity strings (the ResourceRequirements shape, claims aside). */
export interface Resources {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}
export type Allocation = ReadonlyMap<string, Resources>;

/** How a node's resource managers are configured (the pool's cpuManagerPolicy / memoryManagerPolicy). */
export interface NodeResizePolicy {
  cpuManagerPolicy?: 'none' | 'static';
  memoryManagerPolicy?: 'None' | 'Static';
}

export type ResizeVerdict = { kind: 'fits' } | { kind: 'Deferred'; message: string } | { kind: 'Infeasible'; message: string; detail: InfeasibleResizeDetail };

type RContainer = DeepReadonly<Container>;

/** Regular containers and sidecars: the containers 1.35 resizes (non-sidecar init containers are not). */
export function resizableContainers(pod: DeepReadonlyPod): RContainer[] {
  return [...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...pod.spec.containers];
}

export type ResizeOperation = { resource: 'cpu' | 'memory'; requirement: 'requests' | 'limits'; operation: 'add' | 'remove' | 'increase' | 'decrease' };

/**
 * recordContainerResizeOperations: what one spec update changed in each resizable container's cpu and
 * memory requests and limits (memory first, requests before limits), whatever the allocation is.
 */
export function resizeOperations(old: DeepReadonlyPod, next: DeepReadonlyPod): ResizeOperation[] {
  const out: ResizeOperation[] = [];
  const before = new Map(resizableContainers(old).map((c) => [c.name, c]));
  for (const c of resizableContainers(next)) {
    const o = before.get(c.name);
    if (!o) continue;
    for (const resource of ['memory', 'cpu'] as const) {
      for (const requirement of ['requests', 'limits'] as const) {
        const now = resourceAmountOf(resource, c.resources?.[requirement]?.[resource]) ?? 0;
        const was = resourceAmountOf(resource, o.resources?.[requirement]?.[resource]) ?? 0;
        const operation = now === 0 && was !== 0 ? 'remove' : was === 0 && now !== 0 ? 'add' : now < was ? 'decrease' : now > was ? 'increase' : undefined;
        if (operation) out.push({ resource, requirement, operation });
      }
    }
  }
  return out;
}

export function resourcesOf(c: RContainer): Resources {
  const out: Resources = {};
  if (c.resources?.requests && Object.keys(c.resources.requests).length) out.requests = { ...c.resources.requests };
  if (c.resources?.limits && Object.keys(c.resources.limits).length) out.limits = { ...c.resources.limits };
  return out;
}

/** What the spec asks for, per resizable container. */
export function desiredAllocation(pod: DeepReadonlyPod): Map<string, Resources> {
  return new Map(resizableContainers(pod).map((c) => [c.name, resourcesOf(c)]));
}

function sameList(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined, only?: string): boolean {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  for (const k of keys) {
    if (only !== undefined && k !== only) continue;
    const x = a?.[k];
    const y = b?.[k];
    if (x === y) continue;
    if (x === undefined || y === undefined || resourceAmountOf(k, x) !== resourceAmountOf(k, y)) return false;
  }
  return true;
}

/** Equal as quantities (1 == 1000m); `only` restricts the comparison to one resource name. */
export function sameResources(a: Resources | undefined, b: Resources | undefined, only?: string): boolean {
  return sameList(a?.requests, b?.requests, only) && sameList(a?.limits, b?.limits, only);
}

export function sameAllocation(a: Allocation, b: Allocation): boolean {
  if (a.size !== b.size) return false;
  for (const [name, r] of a) if (!sameResources(r, b.get(name))) return false;
  return true;
}

/** The pod with each resizable container's resources replaced by `alloc` (allocation_manager's UpdatePodFromAllocation). */
export function podWithAllocation(pod: DeepReadonlyPod, alloc: Allocation): DeepReadonlyPod {
  const swap = (c: RContainer): RContainer => {
    const r = alloc.get(c.name);
    return r && (c.restartPolicy === 'Always' || pod.spec.containers.includes(c)) ? { ...c, resources: r } : c;
  };
  return { ...pod, spec: { ...pod.spec, containers: pod.spec.containers.map(swap), ...(pod.spec.initContainers ? { initContainers: pod.spec.initContainers.map(swap) } : {}) } };
}

function changed(pod: DeepReadonlyPod, allocated: Allocation, resource: string): boolean {
  return resizableContainers(pod).some((c) => !sameList(c.resources?.requests, allocated.get(c.name)?.requests, resource));
}

/**
 * The resize admission verdict for `pod` (desired spec) given its current allocation, the node, and
 * what every other active pod on the node occupies (max of allocated and actual, summed).
 */
export function decideResize(pod: DeepReadonlyPod, allocated: Allocation, node: Node, policy: NodeResizePolicy, othersUsed: Readonly<ResourceAmounts>): ResizeVerdict {
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return { kind: 'Infeasible', message: 'In-place resize of static-pods is not supported', detail: 'static_pod' };
  if (computePodQOS(pod as Pod) === 'Guaranteed') {
    if (policy.cpuManagerPolicy === 'static' && changed(pod, allocated, 'cpu')) {
      return { kind: 'Infeasible', message: 'Resize is infeasible for Guaranteed Pods alongside CPU Manager policy "static"', detail: 'guaranteed_pod_cpu_manager_static_policy' };
    }
    if (policy.memoryManagerPolicy === 'Static' && changed(pod, allocated, 'memory')) {
      return { kind: 'Infeasible', message: 'Resize is infeasible for Guaranteed Pods alongside Memory Manager policy "Static"', detail: 'guaranteed_pod_memory_manager_static_policy' };
    }
  }
  const allocatable = node.status?.allocatable ?? {};
  const cpuCap = resourceAmountOf('cpu', allocatable.cpu) ?? 0;
  const memCap = resourceAmountOf('memory', allocatable.memory) ?? 0;
  const req = podResourceRequests(pod);
  const cpu = req.cpu ?? 0;
  const mem = req.memory ?? 0;
  if (mem > memCap) return { kind: 'Infeasible', message: `Node didn't have enough capacity: memory, requested: ${mem}, capacity: ${memCap}`, detail: 'insufficient_node_allocatable' };
  if (cpu > cpuCap) return { kind: 'Infeasible', message: `Node didn't have enough capacity: cpu, requested: ${cpu}, capacity: ${cpuCap}`, detail: 'insufficient_node_allocatable' };
  // canAdmitPod's resource fit against the other pods' allocations: cpu, then memory.
  for (const [name, want, cap] of [['cpu', cpu, cpuCap], ['memory', mem, memCap]] as const) {
    const used = othersUsed[name] ?? 0;
    if (want > 0 && want > cap - used) {
      return { kind: 'Deferred', message: `Node didn't have enough resource: ${name}, requested: ${want}, used: ${used}, capacity: ${cap}` };
    }
  }
  return { kind: 'fits' };
}

export interface ResizeCandidate {
  pod: DeepReadonlyPod;
  allocated: Allocation;
  /** lastTransitionTime of its PodResizePending condition (ms), or when it was first seen. */
  pendingSince: number;
}

function increasesAnyRequest(c: ResizeCandidate): boolean {
  return resizableContainers(c.pod).some((ct) => {
    const old = c.allocated.get(ct.name)?.requests ?? {};
    return Object.entries(ct.resources?.requests ?? {}).some(([k, v]) => (resourceAmountOf(k, v) ?? 0) > (resourceAmountOf(k, old[k]) ?? 0));
  });
}

/** The deferred queue's order: non-increasing resizes, then priority, Guaranteed before Burstable, then oldest. */
export function compareResizePriority(a: ResizeCandidate, b: ResizeCandidate): number {
  const inc = Number(increasesAnyRequest(a)) - Number(increasesAnyRequest(b));
  if (inc !== 0) return inc;
  const prio = (b.pod.spec.priority ?? 0) - (a.pod.spec.priority ?? 0);
  if (prio !== 0) return prio;
  const guaranteed = (c: ResizeCandidate): number => (computePodQOS(c.pod as Pod) === 'Guaranteed' ? 0 : 1);
  const qos = guaranteed(a) - guaranteed(b);
  if (qos !== 0) return qos;
  return a.pendingSince - b.pendingSince;
}

function sortedList(list: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(list).sort().map((k) => [k, list[k] as string]));
}

function eventResources(c: RContainer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.resources?.limits && Object.keys(c.resources.limits).length) out.limits = sortedList(c.resources.limits);
  if (c.resources?.requests && Object.keys(c.resources.requests).length) out.requests = sortedList(c.resources.requests);
  return out;
}

/** `<json>` of the resize events: the pod's resizable containers' spec resources, its generation, the error. */
export function resizeEventDetail(pod: DeepReadonlyPod, error?: string): string {
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  const body: Record<string, unknown> = {};
  if (sidecars.length) body.initContainers = sidecars.map((c) => ({ name: c.name, resources: eventResources(c) }));
  body.containers = pod.spec.containers.map((c) => ({ name: c.name, resources: eventResources(c) }));
  body.generation = pod.metadata.generation ?? 0;
  if (error) body.error = error;
  return JSON.stringify(body);
}

export const resizeEvents = {
  started: { reason: 'ResizeStarted', type: 'Normal', prefix: 'Pod resize started: ' },
  deferred: { reason: 'ResizeDeferred', type: 'Warning', prefix: 'Pod resize Deferred: ' },
  infeasible: { reason: 'ResizeInfeasible', type: 'Warning', prefix: 'Pod resize Infeasible: ' },
  error: { reason: 'ResizeError', type: 'Warning', prefix: 'Pod resize error: ' },
  completed: { reason: 'ResizeCompleted', type: 'Normal', prefix: 'Pod resize completed: ' },
} as const;

/** The resize restart policy of `resource` for container `c` (absent: NotRequired, as upstream since 1.33). */
export function resizeRestartPolicy(c: RContainer, resource: 'cpu' | 'memory'): 'NotRequired' | 'RestartContainer' {
  return c.resizePolicy?.find((p) => p.resourceName === resource)?.restartPolicy === 'RestartContainer' ? 'RestartContainer' : 'NotRequired';
}

/** Whether applying `next` over `actual` needs the container restarted (a changed resource with RestartContainer). */
export function resizeNeedsRestart(c: RContainer, actual: Resources | undefined, next: Resources | undefined): boolean {
  return (['cpu', 'memory'] as const).some((r) => !sameResources(actual, next, r) && resizeRestartPolicy(c, r) === 'RestartContainer');
}
