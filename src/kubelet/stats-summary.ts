// The kubelet's Summary API (stats/v1alpha1, GET /stats/summary): CPU and memory of the node, of each
// pod and of each running container, from the same usage model metrics-server and `kubectl top` read.
// A simulated node has no network or filesystem figures, so those stats are absent, as optional fields.
// Upstream: staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go, pkg/kubelet/server/stats/summary.go.
import { formatTime } from '../core/index.ts';
import type { Kubelet } from './kubelet.ts';
import { resourceAmountOf } from './quantities.ts';
import { workerUsage } from './usage.ts';
import type { ContainerUsage } from './usage.ts';

export interface CPUStats {
  time: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStats[];
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface Summary {
  node: { nodeName: string; startTime: string; cpu?: CPUStats; memory?: MemoryStats };
  pods: PodStats[];
}

interface Totals {
  nanoCores: number;
  coreNanoSeconds: number;
  workingSet: number;
}

const nanoCoresPerMilli = 1_000_000;

/** CPU at the model's steady rate since the container started: cumulative core-nanoseconds. */
function containerTotals(u: ContainerUsage, now: number): Totals {
  const nanoCores = u.cpuMilli * nanoCoresPerMilli;
  return { nanoCores, coreNanoSeconds: Math.round((nanoCores * Math.max(0, now - u.startedAt)) / 1000), workingSet: u.memoryBytes };
}

function cpuStats(t: Totals, time: string): CPUStats {
  return { time, usageNanoCores: t.nanoCores, usageCoreNanoSeconds: t.coreNanoSeconds };
}

/** Working set, usage and RSS are one figure in the model; available is what the limit leaves. */
function memoryStats(t: Totals, time: string, limit: number | undefined): MemoryStats {
  return { time, ...(limit !== undefined ? { availableBytes: Math.max(0, limit - t.workingSet) } : {}), usageBytes: t.workingSet, workingSetBytes: t.workingSet, rssBytes: t.workingSet };
}

function add(a: Totals, b: Totals): Totals {
  return { nanoCores: a.nanoCores + b.nanoCores, coreNanoSeconds: a.coreNanoSeconds + b.coreNanoSeconds, workingSet: a.workingSet + b.workingSet };
}

const zero: Totals = { nanoCores: 0, coreNanoSeconds: 0, workingSet: 0 };

export function statsSummary(kubelet: Kubelet, now: number): Summary {
  const time = formatTime(now);
  const pods: PodStats[] = [];
  let node = zero;
  for (const worker of kubelet.workers()) {
    if (worker.state.kind !== 'syncing') continue;
    const meta = worker.pod.metadata;
    const containers: ContainerStats[] = [];
    let pod = zero;
    for (const u of workerUsage(worker, now)) {
      const t = containerTotals(u, now);
      pod = add(pod, t);
      containers.push({ name: u.name, startTime: formatTime(u.startedAt), cpu: cpuStats(t, time), memory: memoryStats(t, time, u.memoryLimitBytes) });
    }
    node = add(node, pod);
    pods.push({
      podRef: { name: meta.name ?? '', namespace: meta.namespace ?? '', uid: meta.uid ?? '' },
      startTime: formatTime(worker.startTime),
      containers,
      cpu: cpuStats(pod, time),
      memory: memoryStats(pod, time, undefined),
    });
  }
  const registered = kubelet.agent.node;
  const capacity = resourceAmountOf('memory', registered?.status?.capacity?.memory);
  return {
    node: {
      nodeName: kubelet.name,
      startTime: registered?.metadata.creationTimestamp ?? time,
      cpu: cpuStats(node, time),
      memory: memoryStats(node, time, capacity),
    },
    pods,
  };
}
