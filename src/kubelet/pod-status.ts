// PodStatus as the 1.35 kubelet generates it from what it knows of the pod's containers: container
// statuses, phase (getPhase), and the kubelet-owned conditions. Pure.
// Upstream: pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, getPhase, convertToAPIContainerStatuses),
// pkg/kubelet/status/generate.go, pkg/kubelet/status/status_manager.go (updateLastTransitionTime),
// resolveRecursiveReadOnly in kubelet_pods.go.
import type { Container, ContainerState, ContainerStatus, DeepReadonlyPod, PodCondition, PodPhase, PodStatus, VolumeMountStatus } from './types.ts';
import { formatTime } from '../core/index.ts';
import { shouldRestart } from '../api/index.ts';
import type { ContainerRecord, InstanceState } from './container-record.ts';
import { containerIDPrefix, isRunning, isStarted } from './container-record.ts';
import { imageID, normalizeImage } from './images.ts';
import type { Resources } from './allocation.ts';
import { handlerFeatures } from './runtime-handlers.ts';
import { containerUser } from './container-user.ts';

export interface StatusInput {
  pod: DeepReadonlyPod;
  records: ReadonlyMap<string, ContainerRecord>;
  now: number;
  hostIP: string;
  podIP?: string;
  sandboxReady: boolean;
  /** The pod worker decided the pod is done (deleted, or completed): containers will not restart. */
  podIsTerminal: boolean;
  /** Latched once any regular container was created. */
  podHasInitialized: boolean;
  startTime: number;
  /** In-place resize state: allocated and actual resources per container, and the resize conditions. */
  resize?: ResizeStatus;
  /** False on a kubelet without InPlacePodVerticalScaling: no container reports resources. */
  inPlaceResize?: boolean;
  /** False on a kubelet without SupplementalGroupsPolicy (before 1.33): no container reports its user. */
  supplementalGroupsPolicy?: boolean;
  /**
   * A pod sync handler (activeDeadlineSeconds) or the eviction manager evicted the pod: phase Failed
   * with this reason and message; the eviction manager's also brings a DisruptionTarget condition.
   */
  evicted?: { reason: string; message: string; disruptionTarget?: boolean };
}

export interface ResizeStatus {
  allocated: ReadonlyMap<string, Resources>;
  /** What the runtime applied to the running instance of a container (absent: not running). */
  actual: (name: string) => Resources | undefined;
  /** PodResizePending / PodResizeInProgress, fully formed (each with its own observedGeneration). */
  conditions: readonly PodCondition[];
}

function terminatedState(i: InstanceState): ContainerState {
  const exit = i.exit;
  if (!exit) return {};
  return {
    terminated: {
      exitCode: exit.exitCode,
      reason: exit.reason,
      startedAt: formatTime(i.startedAt ?? i.createdAt),
      finishedAt: formatTime(exit.finishedAt),
      ...(exit.message ? { message: exit.message } : {}),
      containerID: containerIDPrefix + i.id,
    },
  };
}

// allocatedResources holds the allocated requests; resources what the runtime applied (the allocation when
// the container is not running). Upstream: kubelet_pods.go convertToAPIContainerStatuses.
function resourcesOf(c: DeepReadonlyPod['spec']['containers'][number], resize: ResizeStatus | undefined): Pick<ContainerStatus, 'allocatedResources' | 'resources'> {
  const alloc: Resources = resize?.allocated.get(c.name) ?? { ...(c.resources?.requests ? { requests: c.resources.requests } : {}), ...(c.resources?.limits ? { limits: c.resources.limits } : {}) };
  const applied = resize?.actual(c.name) ?? alloc;
  const resources: NonNullable<ContainerStatus['resources']> = {};
  if (applied.limits && Object.keys(applied.limits).length) resources.limits = { ...applied.limits };
  if (applied.requests && Object.keys(applied.requests).length) resources.requests = { ...applied.requests };
  const out: Pick<ContainerStatus, 'allocatedResources' | 'resources'> = { resources };
  if (alloc.requests && Object.keys(alloc.requests).length) out.allocatedResources = { ...alloc.requests };
  return out;
}

type Mount = NonNullable<Container['volumeMounts']>[number];

/**
 * resolveRecursiveReadOnly: whether the runtime mounts `m` recursively read-only. Every handler here supports
 * it, so IfPossible resolves as Enabled does; a mount validation lets through only when read-only.
 */
function isRecursivelyReadOnly(m: Mount): boolean {
  if (m.recursiveReadOnly !== 'IfPossible' && m.recursiveReadOnly !== 'Enabled') return false;
  if (!m.readOnly || (m.mountPropagation !== undefined && m.mountPropagation !== 'None')) return false;
  return handlerFeatures.recursiveReadOnlyMounts;
}

/** A mount as the status reports it (RecursiveReadOnlyMounts, GA): a read-only one says whether it is recursively so. */
function volumeMountStatusOf(m: Mount): VolumeMountStatus {
  if (!m.readOnly) return { name: m.name, mountPath: m.mountPath };
  return { name: m.name, mountPath: m.mountPath, readOnly: true, recursiveReadOnly: isRecursivelyReadOnly(m) ? 'Enabled' : 'Disabled' };
}

export function containerStatusOf(c: Readonly<Container> | DeepReadonlyPod['spec']['containers'][number], rec: ContainerRecord | undefined, defaultWaiting: string, withResources: boolean, resize?: ResizeStatus): ContainerStatus {
  // A container the runtime has (or had) reports the image its latest instance runs, as the runtime names
  // it (after `kubectl set image` the old one until the restart); one never created (waiting to be
  // created, CreateContainerConfigError, InvalidImageName) the spec's, as convertToAPIContainerStatuses
  // starts every status from.
  const instance = rec?.current ?? rec?.previous;
  const image = instance ? normalizeImage(instance.image) : (c.image ?? '');
  const status: ContainerStatus = { name: c.name, state: { waiting: { reason: defaultWaiting } }, lastState: {}, ready: false, restartCount: rec?.restartCount ?? 0, image, imageID: '', started: false };
  const cur = rec?.current;
  if (withResources) Object.assign(status, resourcesOf(c, resize));
  if (c.volumeMounts?.length) status.volumeMounts = c.volumeMounts.map(volumeMountStatusOf);
  if (!rec || !cur) {
    if (rec?.waiting) status.state = { waiting: { ...rec.waiting } };
    if (rec?.previous) status.lastState = terminatedState(rec.previous);
    return status;
  }
  if (cur.startedAt !== undefined) {
    status.imageID = imageID(image);
    status.containerID = containerIDPrefix + cur.id;
  }
  if (cur.exit && rec.waiting) {
    status.state = { waiting: { ...rec.waiting } };
    status.lastState = terminatedState(cur);
    return status;
  }
  if (rec.previous) status.lastState = terminatedState(rec.previous);
  if (cur.exit) status.state = terminatedState(cur);
  else if (cur.startedAt !== undefined) status.state = { running: { startedAt: formatTime(cur.startedAt) } };
  status.started = isStarted(cur);
  status.ready = rec.kind === 'init' ? cur.exit?.exitCode === 0 : isStarted(cur) && isRunning(cur) && cur.readinessPassed;
  return status;
}

/**
 * An ephemeral container's status: no resources (it has no allocation), and neither `ready` nor
 * `started` from the prober, which only walks the init and regular containers.
 */
function ephemeralStatusOf(c: DeepReadonlyPod['spec']['containers'][number], rec: ContainerRecord | undefined, defaultWaiting: string): ContainerStatus {
  const status = containerStatusOf(c, rec, defaultWaiting, false);
  status.ready = false;
  delete status.started;
  return status;
}

/** convertContainerStatusUser: a container the runtime made reports the user its first process got. */
function addUsers(pod: DeepReadonlyPod, containers: DeepReadonlyPod['spec']['containers'], statuses: ContainerStatus[], records: ReadonlyMap<string, ContainerRecord>): void {
  containers.forEach((c, i) => {
    const s = statuses[i];
    if (s && records.get(c.name)?.current) s.user = containerUser(pod.spec.securityContext, c.securityContext);
  });
}

const hasTerminated = (s: ContainerStatus | undefined): boolean => s?.lastState?.terminated !== undefined;

/** The exit code of a container that ran and is not running: its terminated state, or the one it waits after. */
function lastExitCode(s: ContainerStatus): number | undefined {
  return s.state?.terminated?.exitCode ?? (s.state?.waiting ? s.lastState?.terminated?.exitCode : undefined);
}

/**
 * getPhase (1.35, SidecarContainers GA, ContainerRestartRules beta). Whether a stopped container is
 * coming back is the kubelet's restart decision for it (ContainerShouldRestart: its own restartPolicy and
 * rules, else the pod's), so a `restartPolicy: Never` pod whose container restarts on exit code 42 stays
 * Running, and an init container that will be retried does not fail the pod. With pod-level policies
 * only, this is the classic rule: Always and failed OnFailure containers restart, Never ones do not.
 */
export function getPhase(pod: DeepReadonlyPod, statuses: readonly ContainerStatus[], podIsTerminal: boolean, podHasInitialized: boolean): PodPhase {
  const byName = new Map(statuses.map((s) => [s.name, s]));
  const spec = pod.spec;
  const inits = spec.initContainers ?? [];
  let pendingRegularInit = 0;
  let pendingSidecars = 0;
  let failedInit = 0;
  const policy = spec.restartPolicy ?? 'Always';
  for (const c of inits) {
    if (c.restartPolicy === 'Always') continue;
    const s = byName.get(c.name);
    const code = s && (s.state?.terminated || hasTerminated(s)) ? lastExitCode(s) : undefined;
    if (s?.state?.running) pendingRegularInit++;
    else if (code !== undefined) {
      if (code === 0) continue;
      if (shouldRestart(c, policy, code)) pendingRegularInit++;
      else failedInit++;
    } else pendingRegularInit++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  let restarting = 0;
  for (const c of inits) {
    if (c.restartPolicy !== 'Always') continue;
    const s = byName.get(c.name);
    if (!s) unknown++;
    else if (s.state?.running) {
      if (!s.started) pendingSidecars++;
      running++;
    } else if (s.state?.terminated) {
      // Terminated sidecars do not count for the phase.
    } else if (s.state?.waiting) {
      if (!hasTerminated(s)) {
        pendingSidecars++;
        waiting++;
      }
    } else unknown++;
  }
  for (const c of spec.containers) {
    const s = byName.get(c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated || (s.state?.waiting && hasTerminated(s))) {
      stopped++;
      const code = lastExitCode(s) ?? 0;
      if (s.state?.terminated && code === 0) succeeded++;
      if (shouldRestart(c, policy, code)) restarting++;
    } else if (s.state?.waiting) waiting++;
    else unknown++;
  }
  if (failedInit > 0) return 'Failed';
  if (pendingRegularInit > 0 || (pendingSidecars > 0 && !podHasInitialized) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    // Some container is in the process of restarting.
    if (restarting > 0) return 'Running';
    return stopped === succeeded ? 'Succeeded' : 'Failed';
  }
  return 'Pending';
}

type Cond = Pick<PodCondition, 'type' | 'status'> & { reason?: string; message?: string };

function initializedCondition(pod: DeepReadonlyPod, statuses: Map<string, ContainerStatus>, phase: PodPhase): Cond {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return { type: 'Initialized', status: 'True' };
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = statuses.get(c.name);
    if (!s) unknown.push(c.name);
    else if (c.restartPolicy === 'Always' ? !s.started : s.state?.terminated?.exitCode !== 0) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  const anyRegularStarted = pod.spec.containers.some((c) => {
    const s = statuses.get(c.name);
    return s?.state?.running !== undefined || s?.state?.terminated !== undefined;
  });
  if (anyRegularStarted) return { type: 'Initialized', status: 'True' };
  if (unknown.length) return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with unknown status: [${unknown.join(' ')}]` };
  if (incomplete.length) return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: [${incomplete.join(' ')}]` };
  return { type: 'Initialized', status: 'True' };
}

function containersReadyCondition(pod: DeepReadonlyPod, statuses: Map<string, ContainerStatus>, phase: PodPhase): Cond {
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (name: string): void => {
    const s = statuses.get(name);
    if (!s) unknown.push(name);
    else if (!s.ready) unready.push(name);
  };
  for (const c of pod.spec.initContainers ?? []) if (c.restartPolicy === 'Always') check(c.name);
  for (const c of pod.spec.containers) check(c.name);
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
  const messages: string[] = [];
  if (unknown.length) messages.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (unready.length) messages.push(`containers with unready status: [${unready.join(' ')}]`);
  if (messages.length) return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: messages.join(', ') };
  return { type: 'ContainersReady', status: 'True' };
}

function readyCondition(pod: DeepReadonlyPod, containersReady: Cond): Cond {
  if (containersReady.status !== 'True') return { ...containersReady, type: 'Ready' };
  const unready: string[] = [];
  for (const gate of pod.spec.readinessGates ?? []) {
    const c = pod.status?.conditions?.find((x) => x.type === gate.conditionType);
    if (!c) unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (unready.length) return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: unready.join(', ') };
  return { type: 'Ready', status: 'True' };
}

// PodConditionsByKubelet (with PodReadyToStartContainers): every other condition is someone else's and kept.
const kubeletOwned = new Set(['PodScheduled', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodResizePending', 'PodResizeInProgress']);

/**
 * Conditions in the order mergePodStatus leaves them: the ones others own (DisruptionTarget, readiness
 * gates) first, then the kubelet's as generateAPIPodStatus builds them (resize, the four it computes,
 * PodScheduled), keeping lastTransitionTime when the status did not change.
 */
function mergeConditions(old: readonly PodCondition[], fresh: Cond[], now: number, generation: number | undefined, resize: readonly PodCondition[]): PodCondition[] {
  const t = formatTime(now);
  const out: PodCondition[] = old.filter((o) => !kubeletOwned.has(o.type)).map((o) => o as PodCondition);
  for (const c of resize) out.push({ ...c });
  // The kubelet reports PodScheduled True itself, with its observedGeneration, once the pod is its.
  const scheduled: Cond = { type: 'PodScheduled', status: 'True' };
  for (const c of [...fresh, scheduled]) {
    const prev = old.find((o) => o.type === c.type);
    const cond: PodCondition = { type: c.type, status: c.status } as PodCondition;
    if (generation !== undefined) (cond as PodCondition & { observedGeneration?: number }).observedGeneration = generation;
    cond.lastProbeTime = null as unknown as string;
    cond.lastTransitionTime = prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : t;
    if (c.reason) cond.reason = c.reason;
    if (c.message) cond.message = c.message;
    out.push(cond);
  }
  return out;
}

/**
 * The eviction manager's DisruptionTarget (reason TerminationByKubelet), replaced or appended as the
 * status manager merges the conditions shared with the kubelet: only once no container runs.
 */
function withDisruptionTarget(conditions: PodCondition[], message: string, now: number, generation: number | undefined): PodCondition[] {
  const prev = conditions.find((c) => c.type === 'DisruptionTarget');
  const cond = {
    type: 'DisruptionTarget',
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: prev?.status === 'True' && prev.lastTransitionTime ? prev.lastTransitionTime : formatTime(now),
    reason: 'TerminationByKubelet',
    message,
  } as unknown as PodCondition;
  return prev ? conditions.map((c) => (c === prev ? cond : c)) : [...conditions, cond];
}

/** kubecontainer.MaxPodTerminationMessageLogLength. */
const maxPodTerminationMessageBytes = 12 * 1024;

/** SortedContainerStatuses: by name, as Go compares strings. */
const sortedByName = <S extends { name: string }>(a: S, b: S): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A status whose termination messages fit in `bytes` (Go slices the string's bytes). */
function withMessageCut(s: ContainerStatus, bytes: number): ContainerStatus {
  const cut = (state: ContainerState): ContainerState => {
    const message = state.terminated?.message;
    if (!state.terminated || message === undefined || Buffer.byteLength(message) <= bytes) return state;
    return { ...state, terminated: { ...state.terminated, message: Buffer.from(message).subarray(0, bytes).toString('utf8') } };
  };
  if (!s.state?.terminated?.message && !s.lastState?.terminated?.message) return s;
  return { ...s, ...(s.state ? { state: cut(s.state) } : {}), ...(s.lastState ? { lastState: cut(s.lastState) } : {}) };
}

export function generatePodStatus(input: StatusInput): PodStatus {
  const { pod, records } = input;
  const inits = pod.spec.initContainers ?? [];
  const defaultWaiting = inits.length > 0 ? 'PodInitializing' : 'ContainerCreating';
  const resizable = input.inPlaceResize !== false;
  const initStatuses = inits.map((c) => containerStatusOf(c, records.get(c.name), defaultWaiting, resizable && c.restartPolicy === 'Always', input.resize));
  const statuses = pod.spec.containers.map((c) => containerStatusOf(c, records.get(c.name), defaultWaiting, resizable, input.resize));
  if (input.supplementalGroupsPolicy !== false) {
    addUsers(pod, inits, initStatuses, records);
    addUsers(pod, pod.spec.containers, statuses, records);
  }
  const all = [...initStatuses, ...statuses];
  const oldPhase = pod.status?.phase;
  let phase = getPhase(pod, all, input.podIsTerminal, input.podHasInitialized);
  // Terminal phases are sticky.
  if (oldPhase === 'Succeeded' || oldPhase === 'Failed') phase = oldPhase;
  // generateAPIPodStatus: a pod sync handler's eviction overrides the phase.
  if (input.evicted) phase = 'Failed';
  const byName = new Map(all.map((s) => [s.name, s]));
  const containersReady = containersReadyCondition(pod, byName, phase);
  const conds: Cond[] = [
    { type: 'PodReadyToStartContainers', status: input.sandboxReady ? 'True' : 'False' },
    initializedCondition(pod, byName, phase),
    readyCondition(pod, containersReady),
    containersReady,
  ];
  const generation = pod.metadata.generation;
  // Keys set one by one in the order they encode in. A literal that opens with spreads and then
  // gains more keys below took V8 ~70-90 us a status (its slow path for keys added after a spread);
  // this takes ~0.5 us.
  const status: PodStatus = {};
  if (generation !== undefined) status.observedGeneration = generation;
  status.phase = phase;
  if (input.evicted) {
    status.reason = input.evicted.reason;
    status.message = input.evicted.message;
  }
  status.conditions = mergeConditions((pod.status?.conditions ?? []) as PodCondition[], conds, input.now, generation, input.resize?.conditions ?? []);
  status.hostIP = input.hostIP;
  status.hostIPs = [{ ip: input.hostIP }];
  status.startTime = formatTime(input.startTime);
  if (input.evicted?.disruptionTarget && phase === 'Failed' && !all.some((c) => c.state?.running)) {
    status.conditions = withDisruptionTarget(status.conditions ?? [], input.evicted.message, input.now, generation);
  }
  if (input.podIP) {
    status.podIP = input.podIP;
    status.podIPs = [{ ip: input.podIP }];
  }
  // normalizeStatus: init containers in spec order, the others by name; each termination message cut to
  // the pod's 12 KiB shared among its containers.
  const bytesPerStatus = Math.floor(maxPodTerminationMessageBytes / (inits.length + pod.spec.containers.length + (pod.spec.ephemeralContainers?.length ?? 0)));
  if (inits.length) status.initContainerStatuses = initStatuses.map((s) => withMessageCut(s, bytesPerStatus));
  status.containerStatuses = statuses.map((s) => withMessageCut(s, bytesPerStatus)).sort(sortedByName);
  if (pod.spec.ephemeralContainers?.length) {
    const ephemeral = pod.spec.ephemeralContainers.map((c) => ephemeralStatusOf(c, records.get(c.name), defaultWaiting));
    if (input.supplementalGroupsPolicy !== false) addUsers(pod, pod.spec.ephemeralContainers, ephemeral, records);
    status.ephemeralContainerStatuses = ephemeral.sort(sortedByName);
  }
  if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
  // Owned by the claim controller and the scheduler: carried over, never computed here.
  if (pod.status?.resourceClaimStatuses) status.resourceClaimStatuses = structuredClone(pod.status.resourceClaimStatuses) as NonNullable<PodStatus['resourceClaimStatuses']>;
  if (pod.status?.extendedResourceClaimStatus) status.extendedResourceClaimStatus = structuredClone(pod.status.extendedResourceClaimStatus) as NonNullable<PodStatus['extendedResourceClaimStatus']>;
  return status;
}
