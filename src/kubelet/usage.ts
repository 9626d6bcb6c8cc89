// What a kubelet reports as its pods' resource usage (the Summary API's working set and CPU rate),
// from the behaviour model: `cpu` capped by the container's applied CPU limit, `memory` (ramps
// included) at the instance's age, or a host process's RSS. Only running containers report, as the
// CRI stats do.
// Upstream: pkg/kubelet/server/stats/summary.go, metrics-server pkg/scraper (what it keeps).
import { resolveBehaviour } from '../api/index.ts';
import type { ContainerKind } from '../api/index.ts';
import { memoryAt } from '../api/index.ts';
import { isRunning } from './container-record.ts';
import type { Kubelet } from './kubelet.ts';
import type { PodWorker } from './pod-worker.ts';
import { resourceAmountOf } from './quantities.ts';

export interface ContainerUsage {
  name: string;
  /** CPU in millicores. */
  cpuMilli: number;
  /** Working set in bytes. */
  memoryBytes: number;
  /** When this instance of the container started (ms since the epoch). */
  startedAt: number;
  /** The memory limit the container runs with, if any. */
  memoryLimitBytes?: number;
}

/**
 * Drydock's idle container (no `cpu` or `memory` in its behaviour): about what a sleeping
 * process shows under metrics-server, so `kubectl top` never prints a bare zero for it.
 */
export const idleCpuMilli = 1;
export const idleMemoryBytes = 1024 * 1024;

/** The running containers of one pod on this kubelet, in spec order (sidecars first); undefined if the pod is not here. */
export function podUsage(kubelet: Kubelet, namespace: string, name: string, now: number): ContainerUsage[] | undefined {
  const worker = kubelet.worker(namespace, name);
  return worker ? workerUsage(worker, now) : undefined;
}

export function workerUsage(worker: PodWorker, now: number): ContainerUsage[] {
  const pod = worker.pod;
  const out: ContainerUsage[] = [];
  const containers = [
    ...(pod.spec.initContainers ?? []).map((c) => ({ c, kind: (c.restartPolicy === 'Always' ? 'sidecar' : 'init') as ContainerKind })),
    ...pod.spec.containers.map((c) => ({ c, kind: 'regular' as ContainerKind })),
    ...(pod.spec.ephemeralContainers ?? []).map((c) => ({ c, kind: 'ephemeral' as ContainerKind })),
  ];
  // What the running processes report (a host process's RSS); the behaviour's model for one not resumed yet.
  const measured = worker.workingSets(now);
  for (const { c, kind } of containers) {
    const instance = worker.records.get(c.name)?.current;
    if (!isRunning(instance)) continue;
    const behaviour = resolveBehaviour(pod, c, kind);
    const limit = resourceAmountOf('cpu', instance.actual?.limits?.cpu ?? c.resources?.limits?.cpu);
    const cpu = behaviour.cpuMilli ?? idleCpuMilli;
    const memory = measured.get(c.name) ?? (behaviour.memory ? Math.round(memoryAt(behaviour.memory, now - instance.startedAt)) : idleMemoryBytes);
    const memoryLimit = resourceAmountOf('memory', instance.actual?.limits?.memory ?? c.resources?.limits?.memory);
    out.push({ name: c.name, cpuMilli: limit !== undefined ? Math.min(cpu, limit) : cpu, memoryBytes: memory, startedAt: instance.startedAt, ...(memoryLimit !== undefined ? { memoryLimitBytes: memoryLimit } : {}) });
  }
  return out;
}
