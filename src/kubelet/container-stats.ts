// What the kubelet reads of a pod's running containers for its stats, eviction and gauges: memory working
// sets, local disk writes, the runtime's container states, whether any runs as a host process.
// Upstream: pkg/kubelet/stats/cri_stats_provider.go, kubelet_metrics (kubelet_running_containers).
import type { LiveContainer } from './container-context.ts';
import { isRunning } from './container-record.ts';
import type { ContainerRecord } from './container-record.ts';
import type { ContainerStateLabel } from './kubelet-metrics.ts';
import { ProcessContainer } from './process-container.ts';
import type { ContainerProcess } from './sim-container.ts';
import { idleMemoryBytes } from './usage.ts';

type Live = ReadonlyMap<string, LiveContainer>;
type Records = ReadonlyMap<string, ContainerRecord>;

/**
 * Calls `each` with every running container's process. The eviction manager asks for every pod of
 * every node each 10 s: a callback over Map.forEach makes no generator, iterator result or
 * [name, process] pair per container (a P10 hold's allocation, measured in bench/README.md).
 */
function forEachRunning(live: Live, records: Records, each: (name: string, sim: ContainerProcess) => void): void {
  live.forEach((l, name) => {
    if (l.sim && isRunning(records.get(name)?.current)) each(name, l.sim);
  });
}

/**
 * The working set of each running container from its process's memory model (the idle default
 * without one), cheaper than resolving the behaviours again: the eviction manager asks every 10 s.
 */
export function workingSets(live: Live, records: Records, now: number): Map<string, number> {
  const out = new Map<string, number>();
  forEachRunning(live, records, (name, sim) => out.set(name, sim.hasMemoryModel ? sim.workingSetBytes(now) : idleMemoryBytes));
  return out;
}

const noWrites: ReadonlyMap<string, { bytes: number; path?: string }> = new Map();

/** What each running container has written to local disk by now, and where (absent: its writable layer). */
export function diskWrites(live: Live, records: Records, now: number): ReadonlyMap<string, { bytes: number; path?: string }> {
  // Most pods write nothing: one shared empty map rather than one per pod and pass.
  let out: Map<string, { bytes: number; path?: string }> | undefined;
  forEachRunning(live, records, (name, sim) => {
    const bytes = sim.diskBytes(now);
    if (bytes <= 0) return;
    const path = sim.diskPath;
    (out ??= new Map()).set(name, path === undefined ? { bytes } : { bytes, path });
  });
  return out ?? noWrites;
}

/** Whether a running container of the pod is a host process (runtime: process): it listens on the host's loopback. */
export function runsHostProcesses(live: Live, records: Records): boolean {
  let host = false;
  forEachRunning(live, records, (_name, sim) => {
    if (sim instanceof ProcessContainer) host = true;
  });
  return host;
}

/** The runtime's containers of the pod by state: each current instance, and the dead one the container GC keeps. */
export function countContainerStates(records: Records, into: Map<ContainerStateLabel, number>): void {
  const add = (state: ContainerStateLabel): void => void into.set(state, (into.get(state) ?? 0) + 1);
  for (const rec of records.values()) {
    const cur = rec.current;
    if (cur) add(cur.exit ? 'exited' : cur.startedAt !== undefined ? 'running' : 'created');
    if (rec.previous) add('exited');
  }
}
