// What the kubelet remembers about each container of a pod: the current instance, the previous
// (terminated) one, the restart count and why it is waiting. Plain data: the status generator
// reads it, the pod worker writes it.
import type { ContainerKind } from '../api/index.ts';
import type { ContainerExit } from './sim-container.ts';
import type { Resources } from './allocation.ts';
import type { SurvivingPod } from './surviving-containers.ts';
import type { DeepReadonlyPod } from './types.ts';

export interface InstanceState {
  /** 64 hex digits; the status shows `drydock://<id>`. */
  id: string;
  /**
   * The image as the spec named it when this instance was created: the status reports it, and a spec
   * naming another one is a changed definition (upstream hashes a container's name and image).
   */
  image: string;
  createdAt: number;
  /** When the process came up (after startupDelay); undefined while being created. */
  startedAt?: number;
  exit?: ContainerExit;
  postStartDone: boolean;
  /** Its postStart hook failed (PostStartHookError): the reason cache's entry once it has exited. */
  startError?: { reason: string; message: string };
  /** The startup probe passed (or there is none). */
  startupPassed: boolean;
  /** The readiness probe passed (or there is none). */
  readinessPassed: boolean;
  /** The resources the runtime applied to this instance (in-place resize changes them). */
  actual?: Resources;
}

export interface ContainerRecord {
  name: string;
  kind: ContainerKind;
  restartCount: number;
  current?: InstanceState;
  /** The instance before `current`, for lastState and `logs --previous`. */
  previous?: InstanceState;
  /** Set while the kubelet will not start it (CrashLoopBackOff, CreateContainerConfigError, InvalidImageName). */
  waiting?: { reason: string; message: string };
  /**
   * The reason cache's entry: why the last start was refused by the crash-loop back-off. The status
   * shows it (as `waiting`) only from the pod's next sync, so a watch sees the exit first.
   */
  backOff?: { reason: string; message: string };
  /** When the pod worker's next sync of this back-off is due; passes before it refuse without an event. */
  backOffSyncAt?: number;
  /** Its start failed before anything was created (InvalidImageName, CreateContainerConfigError): no start before this time. */
  startRetryAt?: number;
  /** Killed to apply a RestartContainer resize: restart at once, whatever the restart policy and back-off. */
  resizeRestart?: boolean;
  /**
   * Killed because its definition (image) changed: its next start is tried at once, whatever the restart
   * policy and back-off (the back-off is keyed on the image too); cleared once that start is tried.
   */
  definitionRestart?: boolean;
}

export const containerIDPrefix = 'drydock://';

export function isRunning(i: InstanceState | undefined): i is InstanceState & { startedAt: number } {
  return i !== undefined && i.startedAt !== undefined && i.exit === undefined;
}

/** `started` in the status: running and past its startup probe (postStart included). */
export function isStarted(i: InstanceState | undefined): boolean {
  return isRunning(i) && i.startupPassed && i.postStartDone;
}

/**
 * The records of a pod's init, regular and (found running) ephemeral containers; a restarted kubelet's
 * carry what it found of each (ids, restart counts, exits).
 */
export function containerRecords(pod: DeepReadonlyPod, survivor: SurvivingPod | undefined): Map<string, ContainerRecord> {
  const records = new Map<string, ContainerRecord>();
  for (const c of pod.spec.initContainers ?? []) records.set(c.name, { name: c.name, kind: c.restartPolicy === 'Always' ? 'sidecar' : 'init', restartCount: 0 });
  for (const c of pod.spec.containers) records.set(c.name, { name: c.name, kind: 'regular', restartCount: 0 });
  for (const c of pod.spec.ephemeralContainers ?? []) if (survivor?.containers.has(c.name)) records.set(c.name, { name: c.name, kind: 'ephemeral', restartCount: 0 });
  for (const [name, found] of survivor?.containers ?? []) {
    const rec = records.get(name);
    if (rec) Object.assign(rec, found);
  }
  return records;
}
