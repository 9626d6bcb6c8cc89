// Pod resource arithmetic on the scheduler's and kubelet's hot paths: effective requests and limits with
// native sidecars, pod overhead and pod-level resources. Amounts are numbers: cpu in millicores, the rest in
// whole units (see ./pod/amount.ts), so callers compare and sum without parsing again.
// Upstream: staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests, PodLimits).
import type { DeepReadonly } from '../../../core/index.ts';
import { jsonEqual } from '../../../core/index.ts';
import type { Container, ContainerStatus, Pod, ResourceList } from './pod/types.ts';
import { resourceAmount } from './pod/amount.ts';

/** Resource name -> amount (cpu millicores; other resources Value()). */
export type ResourceAmounts = Record<string, number>;

type RPod = DeepReadonly<Pod>;
type RContainer = DeepReadonly<Container>;
type RStatus = DeepReadonly<ContainerStatus>;
type RList = DeepReadonly<ResourceList> | undefined;

export interface PodResourcesOptions {
  /** Take max(spec, allocated, actuated) from container statuses (in-place resize; on by default in 1.35). */
  useStatusResources?: boolean;
  excludeOverhead?: boolean;
  /** Amounts used for containers that leave a resource unset (scoring's 100m / 200Mi defaults). */
  nonMissingContainerRequests?: ResourceAmounts;
  skipPodLevelResources?: boolean;
}

/** A native sidecar: an init container with restartPolicy Always. */
export function isRestartableInitContainer(c: { readonly restartPolicy?: string | undefined }): boolean {
  return c.restartPolicy === 'Always';
}

export function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

function hasSupported(list: RList): boolean {
  if (!list) return false;
  for (const k in list) if (isSupportedPodLevelResource(k)) return true;
  return false;
}

export function isPodLevelRequestsSet(pod: RPod): boolean {
  return hasSupported(pod.spec.resources?.requests);
}
export function isPodLevelLimitsSet(pod: RPod): boolean {
  return hasSupported(pod.spec.resources?.limits);
}
export function isPodLevelResourcesSet(pod: RPod): boolean {
  return isPodLevelRequestsSet(pod) || isPodLevelLimitsSet(pod);
}

/** The PodResizePending condition says Infeasible. */
export function isPodResizeInfeasible(pod: RPod): boolean {
  const conds = pod.status?.conditions;
  if (conds) for (const c of conds) if (c.type === 'PodResizePending') return c.reason === 'Infeasible';
  return false;
}

/**
 * Whether podResourceRequests and podResourceLimits give the same for both versions of a pod: the same
 * spec object (a status write keeps the stored one) and the same status resources per container. Lets
 * the scheduler and kubelets keep what they derived through each status write instead of parsing
 * every quantity again.
 */
export function sameResourceInputs(a: RPod, b: RPod): boolean {
  if (a.spec !== b.spec) return false;
  if (isPodResizeInfeasible(a) !== isPodResizeInfeasible(b)) return false;
  return sameContainerResources(a.status?.containerStatuses, b.status?.containerStatuses) && sameContainerResources(a.status?.initContainerStatuses, b.status?.initContainerStatuses);
}

function sameContainerResources(x: readonly RStatus[] | undefined, y: readonly RStatus[] | undefined): boolean {
  if ((x?.length ?? 0) !== (y?.length ?? 0)) return false;
  for (let i = 0; i < (x?.length ?? 0); i++) {
    const a = x?.[i];
    const b = y?.[i];
    if (a?.name !== b?.name || !jsonEqual(a?.allocatedResources, b?.allocatedResources) || !jsonEqual(a?.resources, b?.resources)) return false;
  }
  return true;
}

type Pick = (c: RContainer, cs: RStatus | undefined, infeasible: boolean) => RList;

const specRequests: Pick = (c) => c.resources?.requests;
const allocatedRequests: Pick = (c, cs, infeasible) =>
  cs?.allocatedResources ?? (infeasible ? undefined : c.resources?.requests);
const actuatedRequests: Pick = (c, cs, infeasible) =>
  cs?.resources?.requests ?? cs?.allocatedResources ?? (infeasible ? undefined : c.resources?.requests);
const specLimits: Pick = (c) => c.resources?.limits;
const actuatedLimits: Pick = (c, cs, infeasible) => cs?.resources?.limits ?? (infeasible ? undefined : c.resources?.limits);

function addList(into: ResourceAmounts, list: RList, nonMissing: ResourceAmounts | undefined): void {
  if (list) for (const k in list) into[k] = (into[k] ?? 0) + resourceAmount(k, list[k] as string);
  if (nonMissing) for (const k in nonMissing) if (!list || !(k in list)) into[k] = (into[k] ?? 0) + (nonMissing[k] ?? 0);
}

function addAmounts(into: ResourceAmounts, from: ResourceAmounts): void {
  for (const k in from) into[k] = (into[k] ?? 0) + (from[k] ?? 0);
}

function maxAmounts(into: ResourceAmounts, from: ResourceAmounts): void {
  for (const k in from) {
    const v = from[k] ?? 0;
    const cur = into[k];
    if (cur === undefined || v > cur) into[k] = v;
  }
}

function findStatus(pod: RPod, name: string): RStatus | undefined {
  const st = pod.status;
  if (!st) return undefined;
  if (st.containerStatuses) for (const s of st.containerStatuses) if (s.name === name) return s;
  if (st.initContainerStatuses) for (const s of st.initContainerStatuses) if (s.name === name) return s;
  return undefined;
}

// Sidecars run alongside whatever starts after them, so init container i needs its own resources plus every
// earlier sidecar's; the pod needs the max of that and the sum of the long-running containers.
function aggregate(pod: RPod, pick: Pick, useStatus: boolean, infeasible: boolean, nonMissing?: ResourceAmounts): ResourceAmounts {
  const result: ResourceAmounts = {};
  for (const c of pod.spec.containers) {
    addList(result, pick(c, useStatus ? findStatus(pod, c.name) : undefined, infeasible), nonMissing);
  }
  const inits = pod.spec.initContainers;
  if (!inits || inits.length === 0) return result;
  const sidecars: ResourceAmounts = {};
  const initMax: ResourceAmounts = {};
  for (const c of inits) {
    const own: ResourceAmounts = {};
    addList(own, pick(c, useStatus ? findStatus(pod, c.name) : undefined, infeasible), nonMissing);
    if (isRestartableInitContainer(c)) {
      addAmounts(result, own);
      addAmounts(sidecars, own);
      maxAmounts(initMax, sidecars);
    } else {
      addAmounts(own, sidecars);
      maxAmounts(initMax, own);
    }
  }
  maxAmounts(result, initMax);
  return result;
}

function hasStatusResources(pod: RPod): boolean {
  const st = pod.status;
  if (!st) return false;
  for (const list of [st.containerStatuses, st.initContainerStatuses]) {
    if (list) for (const s of list) if (s.allocatedResources || s.resources) return true;
  }
  return false;
}

function aggregateRequests(pod: RPod, opts: PodResourcesOptions): ResourceAmounts {
  const nonMissing = opts.nonMissingContainerRequests;
  const spec = aggregate(pod, specRequests, false, false, nonMissing);
  if (!opts.useStatusResources) return spec;
  const infeasible = isPodResizeInfeasible(pod);
  // Without resize state in the status all three views equal the spec: skip the extra passes.
  if (!infeasible && !hasStatusResources(pod)) return spec;
  const allocated = aggregate(pod, allocatedRequests, true, infeasible, nonMissing);
  const actuated = aggregate(pod, actuatedRequests, true, infeasible, nonMissing);
  const result = infeasible ? { ...actuated } : spec;
  if (!infeasible) maxAmounts(result, actuated);
  maxAmounts(result, allocated);
  return result;
}

function applyPodLevel(into: ResourceAmounts, list: RList): void {
  if (list) for (const k in list) if (isSupportedPodLevelResource(k)) into[k] = resourceAmount(k, list[k] as string);
}

/**
 * PodRequests: max(sum of containers and sidecars, each init container plus the sidecars before it),
 * replaced per resource by pod-level requests when set, plus overhead. The result is a fresh object.
 */
export function podResourceRequests(pod: RPod, opts: PodResourcesOptions = {}): ResourceAmounts {
  const reqs = aggregateRequests(pod, opts);
  if (!opts.skipPodLevelResources && isPodLevelRequestsSet(pod)) applyPodLevel(reqs, pod.spec.resources?.requests);
  const overhead = pod.spec.overhead;
  if (!opts.excludeOverhead && overhead) addList(reqs, overhead, undefined);
  return reqs;
}

/**
 * What a pod occupies on its node as the 1.35 scheduler and kubelet admission count it: PodRequests with
 * status resources considered (InPlacePodVerticalScaling is GA), so a pending or in-progress resize
 * reserves the larger of the old and new sizes.
 */
export function podEffectiveRequests(pod: RPod): ResourceAmounts {
  return podResourceRequests(pod, { useStatusResources: true });
}

/** PodLimits: aggregated like requests; overhead is added only to non-zero limits. */
export function podResourceLimits(pod: RPod, opts: Omit<PodResourcesOptions, 'nonMissingContainerRequests'> = {}): ResourceAmounts {
  let limits = aggregate(pod, specLimits, false, false);
  if (opts.useStatusResources) {
    const infeasible = isPodResizeInfeasible(pod);
    if (infeasible || hasStatusResources(pod)) {
      const actuated = aggregate(pod, actuatedLimits, true, infeasible);
      if (infeasible) limits = actuated;
      else maxAmounts(limits, actuated);
    }
  }
  if (!opts.skipPodLevelResources && isPodLevelResourcesSet(pod)) applyPodLevel(limits, pod.spec.resources?.limits);
  const overhead = pod.spec.overhead;
  if (!opts.excludeOverhead && overhead) {
    for (const k in overhead) {
      const v = limits[k];
      if (v !== undefined && v !== 0) limits[k] = v + resourceAmount(k, overhead[k] as string);
    }
  }
  return limits;
}
