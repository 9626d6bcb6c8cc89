// A pod's QoS class: BestEffort, Burstable or Guaranteed, from cpu and memory requests and limits
// (pod-level resources win when set). The kubelet orders evictions and cgroups by it.
// Upstream: pkg/apis/core/helper/qos/qos.go (GetPodQOS, ComputePodQOS).
import type { DeepReadonly } from '../../../../core/index.ts';
import type { Pod, PodQOSClass, ResourceList } from './types.ts';
import { resourceAmount } from './amount.ts';
import { isPodLevelResourcesSet } from '../pod-resources.ts';

type RList = DeepReadonly<ResourceList> | undefined;

/**
 * The cpu and memory amounts summed so far (milli-cpu, bytes); a resource no list had a positive
 * amount of is absent, as a key missing from upstream's ResourceList. Two fields rather than a Map:
 * every pod create and every kubelet admission computes the class.
 */
interface QoSAmounts {
  cpu: number | undefined;
  memory: number | undefined;
}

const cpuFound = 1;
const memoryFound = 2;

/** Adds the positive cpu/memory amounts of `list` into `into`; returns which it had (cpuFound | memoryFound). */
function sumPositive(into: QoSAmounts, list: RList): number {
  let found = 0;
  if (!list) return found;
  for (const name in list) {
    if (name !== 'cpu' && name !== 'memory') continue;
    const v = resourceAmount(name, list[name] as string);
    if (v > 0) {
      into[name] = (into[name] ?? 0) + v;
      found |= name === 'cpu' ? cpuFound : memoryFound;
    }
  }
  return found;
}

/** Adds a container's requests and limits; false when its limits lack a positive cpu or memory. */
function sumContainer(requests: QoSAmounts, limits: QoSAmounts, resources: DeepReadonly<Pod>['spec']['containers'][number]['resources']): boolean {
  sumPositive(requests, resources?.requests);
  return sumPositive(limits, resources?.limits) === (cpuFound | memoryFound);
}

const present = (amounts: QoSAmounts): number => (amounts.cpu === undefined ? 0 : 1) + (amounts.memory === undefined ? 0 : 1);

/** The class persisted in status.qosClass, else computed from the spec. */
export function getPodQOS(pod: DeepReadonly<Pod>): PodQOSClass {
  return pod.status?.qosClass || computePodQOS(pod);
}

export function computePodQOS(pod: DeepReadonly<Pod>): PodQOSClass {
  const requests: QoSAmounts = { cpu: undefined, memory: undefined };
  const limits: QoSAmounts = { cpu: undefined, memory: undefined };
  let guaranteed = true;
  const podRes = pod.spec.resources;
  if (podRes && isPodLevelResourcesSet(pod)) {
    sumPositive(requests, podRes.requests);
    if (podRes.limits && Object.keys(podRes.limits).length > 0 && sumPositive(limits, podRes.limits) !== (cpuFound | memoryFound)) guaranteed = false;
  } else {
    // Ephemeral containers cannot set resources, so they never count.
    for (const c of pod.spec.containers) if (!sumContainer(requests, limits, c.resources)) guaranteed = false;
    for (const c of pod.spec.initContainers ?? []) if (!sumContainer(requests, limits, c.resources)) guaranteed = false;
  }
  if (present(requests) === 0 && present(limits) === 0) return 'BestEffort';
  if (guaranteed && ((requests.cpu !== undefined && limits.cpu !== requests.cpu) || (requests.memory !== undefined && limits.memory !== requests.memory))) guaranteed = false;
  return guaranteed && present(requests) === present(limits) ? 'Guaranteed' : 'Burstable';
}
