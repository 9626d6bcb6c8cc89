// Which container a sync starts next: init containers one at a time in order (a sidecar counts once
// started), then the sidecars kept running and the main containers started or restarted as the restart
// policy says; a container whose definition changed is restarted. The walk stops at the first start.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions, computeInitContainerActions),
// pkg/api/v1/pod (ContainerShouldRestart via shouldRestart).
import { shouldRestart } from '../api/index.ts';
import { containerSpec } from './container-context.ts';
import { isStarted } from './container-record.ts';
import type { ContainerRecord } from './container-record.ts';
import type { DeepReadonlyPod } from './types.ts';

/** What a sync asks the pod worker to do for a container. */
export interface PodActions {
  /** Starts (or restarts) the container unless it is backing off; true if a start began. */
  startOrBackOff(rec: ContainerRecord): boolean;
  /** Kills a running container whose spec names another image, to start it again. */
  restartIfChanged(rec: ContainerRecord, c: { readonly image?: string }): void;
  /** No container will run again: the pod completes. */
  complete(): void;
}

/**
 * The init containers in order: the first not yet done is started (or waited for), a failed one retried
 * as its restart policy says or the pod completed. True once every one has succeeded or (a sidecar) started.
 */
export function syncInitContainers(pod: DeepReadonlyPod, records: ReadonlyMap<string, ContainerRecord>, act: PodActions): boolean {
  for (const c of pod.spec.initContainers ?? []) {
    const rec = records.get(c.name) as ContainerRecord;
    const cur = rec.current;
    if (!cur || (cur.exit && rec.kind === 'sidecar')) {
      act.startOrBackOff(rec);
      return false;
    }
    if (!cur.exit) {
      if (rec.kind === 'sidecar' && isStarted(cur)) {
        act.restartIfChanged(rec, c);
        continue;
      }
      return false;
    }
    if (cur.exit.exitCode === 0) continue;
    // A failed regular init container is retried as its own restartPolicy and rules (else the pod's) say.
    if (!shouldRestart(c, pod.spec.restartPolicy ?? 'Always', cur.exit.exitCode)) act.complete();
    else act.startOrBackOff(rec);
    return false;
  }
  return true;
}

/** Initialized: keep sidecars running, start/restart main containers one at a time; none left to run completes the pod. */
export function syncInitializedPod(pod: DeepReadonlyPod, records: ReadonlyMap<string, ContainerRecord>, act: PodActions): void {
  for (const c of pod.spec.initContainers ?? []) {
    const rec = records.get(c.name) as ContainerRecord;
    if (rec.kind !== 'sidecar') continue;
    if (!rec.current || rec.current.exit) {
      if (act.startOrBackOff(rec)) return;
    } else if (isStarted(rec.current)) act.restartIfChanged(rec, c);
  }
  let active = false;
  for (const c of pod.spec.containers) {
    const rec = records.get(c.name) as ContainerRecord;
    const cur = rec.current;
    if (!cur) {
      if (act.startOrBackOff(rec)) return;
      // Its start failed before creating it (CreateContainerConfigError, InvalidImageName): the others start meanwhile.
      active = true;
      continue;
    }
    if (!cur.exit) {
      active = true;
      act.restartIfChanged(rec, c);
      continue;
    }
    if (rec.resizeRestart || rec.definitionRestart || shouldRestart(c, pod.spec.restartPolicy ?? 'Always', cur.exit.exitCode)) {
      active = true;
      if (act.startOrBackOff(rec)) return;
    }
  }
  if (!active) act.complete();
}

/** ShouldContainerBeRestarted while the pod runs: a sidecar always is; a regular container as its restart policy says. */
export function shouldContainerBeRestarted(pod: DeepReadonlyPod, rec: ContainerRecord, exitCode: number): boolean {
  if (rec.kind === 'sidecar') return true;
  const c = containerSpec(pod, rec.name)?.c;
  return rec.kind === 'regular' && c !== undefined && shouldRestart(c, pod.spec.restartPolicy ?? 'Always', exitCode);
}
