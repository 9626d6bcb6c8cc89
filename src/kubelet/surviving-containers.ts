// What a restarted kubelet finds of a pod it ran before. Drydock's restart (`--data-dir`) is a kubelet
// restart, not a node reboot: the runtime kept the containers, so their ids, start times, restart
// counts and exits, and the pod's IP and start time, come back from the status the kubelet last wrote.
// Pure. Upstream: the kubelet rebuilds this from the runtime (kuberuntime_manager.go GetPodStatus).
import type { Container, ContainerStatus, DeepReadonlyPod } from './types.ts';
import type { DeepReadonly } from '../core/index.ts';
import type { InstanceState } from './container-record.ts';
import { containerIDPrefix } from './container-record.ts';
import type { ContainerExit, ExitReason } from './sim-container.ts';
import type { Resources } from './allocation.ts';
import { normalizeImage } from './images.ts';

export interface SurvivingContainer {
  restartCount: number;
  current?: InstanceState;
  previous?: InstanceState;
}

export interface SurvivingPod {
  podIP?: string;
  startTime?: number;
  /** A regular container was created: the init containers are done (podHasInitialized). */
  initialized: boolean;
  containers: Map<string, SurvivingContainer>;
}

type Status = DeepReadonly<ContainerStatus>;
type Spec = DeepReadonly<Container>;

/** The pod's containers the runtime still has, or undefined when it had none (a pod never started here). */
export function survivingPod(pod: DeepReadonlyPod): SurvivingPod | undefined {
  const status = pod.status;
  if (!status) return undefined;
  const containers = new Map<string, SurvivingContainer>();
  const lists: [readonly Spec[] | undefined, readonly Status[] | undefined][] = [
    [pod.spec.initContainers, status.initContainerStatuses],
    [pod.spec.containers, status.containerStatuses],
    [pod.spec.ephemeralContainers as readonly Spec[] | undefined, status.ephemeralContainerStatuses],
  ];
  for (const [specs, statuses] of lists) {
    for (const s of statuses ?? []) {
      const spec = specs?.find((c) => c.name === s.name);
      const survivor = spec && survivingContainer(spec, s);
      if (survivor) containers.set(s.name, survivor);
    }
  }
  if (containers.size === 0) return undefined;
  const startTime = status.startTime ? Date.parse(status.startTime) : Number.NaN;
  return {
    ...(status.podIP ? { podIP: status.podIP } : {}),
    ...(Number.isNaN(startTime) ? {} : { startTime }),
    initialized: pod.spec.containers.some((c) => containers.has(c.name)),
    containers,
  };
}

/** The spec's image unless the status shows the runtime ran another (the spec changed while the kubelet was down). */
function instanceImage(spec: Spec, s: Status): string {
  return s.image === '' || normalizeImage(spec.image ?? '') === s.image ? (spec.image ?? '') : s.image;
}

function survivingContainer(spec: Spec, s: Status): SurvivingContainer | undefined {
  const image = instanceImage(spec, s);
  const last = terminatedInstance(s.lastState?.terminated, image);
  const running = s.state?.running;
  if (running?.startedAt && ownID(s.containerID)) {
    const startedAt = Date.parse(running.startedAt);
    if (Number.isNaN(startedAt)) return undefined;
    const current: InstanceState = {
      id: ownID(s.containerID) as string,
      image,
      createdAt: startedAt,
      startedAt,
      postStartDone: true,
      startupPassed: !spec.startupProbe || s.started === true,
      // Without a probe readiness follows the start; with one the last result stands until the next probe.
      readinessPassed: !spec.readinessProbe || s.ready,
      ...(s.resources ? { actual: appliedResources(s.resources) } : {}),
    };
    return { restartCount: s.restartCount, current, ...(last ? { previous: last } : {}) };
  }
  const done = terminatedInstance(s.state?.terminated, image);
  // Terminated, or waiting to restart (CrashLoopBackOff) after the instance its lastState shows.
  const current = done ?? last;
  return current ? { restartCount: s.restartCount, current } : undefined;
}

function terminatedInstance(t: DeepReadonly<NonNullable<NonNullable<ContainerStatus['state']>['terminated']>> | undefined, image: string): InstanceState | undefined {
  const id = ownID(t?.containerID);
  if (!t || !id) return undefined;
  const startedAt = Date.parse(t.startedAt ?? '');
  const finishedAt = Date.parse(t.finishedAt ?? '');
  if (Number.isNaN(startedAt) || Number.isNaN(finishedAt)) return undefined;
  const exit: ContainerExit = { exitCode: t.exitCode, reason: (t.reason ?? 'Error') as ExitReason, finishedAt };
  return { id, image, createdAt: startedAt, startedAt, exit, postStartDone: true, startupPassed: true, readinessPassed: true };
}

/** The id of a container this runtime made (`drydock://<id>`); another's, or none, is not ours to adopt. */
function ownID(containerID: string | undefined): string | undefined {
  return containerID?.startsWith(containerIDPrefix) ? containerID.slice(containerIDPrefix.length) : undefined;
}

function appliedResources(r: DeepReadonly<NonNullable<ContainerStatus['resources']>>): Resources {
  return { ...(r.requests ? { requests: { ...r.requests } as Record<string, string> } : {}), ...(r.limits ? { limits: { ...r.limits } as Record<string, string> } : {}) };
}
