// A pod's QoS class: BestEffort, Burstable or Guaranteed, from cpu and memory requests and limits
// (pod-level resources win when set). The kubelet orders evictions and cgroups by it.
// Upstream: pkg/apis/core/helper/qos/qos.go (GetPodQOS, ComputePodQOS).
import type { DeepReadonly } from '../../../../core/index.ts';
import type { Pod, PodQOSClass, ResourceList } from './types.ts';
import { resourceAmount } from './amount.ts';
import { isPodLevelResourcesSet } from '../pod-resources.ts';

type RList = DeepReadonly<ResourceList> | undefined;

function isQoSResource(name: string): boolean {
  return name === 'cpu' || name === 'memory';
}

/** Adds the positive cpu/memory amounts of `list` into `into`; returns how many such resources it had. */
function sumPositive(into: Map<string, number>, list: RList): Set<string> {
  const found = new Set<string>();
  if (!list) return found;
  for (const name in list) {
    if (!isQoSResource(name)) continue;
    const v = resourceAmount(name, list[name] as string);
    if (v > 0) {
      into.set(name, (into.get(name) ?? 0) + v);
      found.add(name);
    }
  }
  return found;
}

/** The class persisted in status.qosClass, else computed from the spec. */
export function getPodQOS(pod: DeepReadonly<Pod>): PodQOSClass {
  return pod.status?.qosClass || computePodQOS(pod);
}

export function computePodQOS(pod: DeepReadonly<Pod>): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  const podRes = pod.spec.resources;
  if (podRes && isPodLevelResourcesSet(pod)) {
    sumPositive(requests, podRes.requests);
    if (podRes.limits && Object.keys(podRes.limits).length > 0) {
      const found = sumPositive(limits, podRes.limits);
      if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
    }
  } else {
    // Ephemeral containers cannot set resources, so they never count.
    for (const list of [pod.spec.containers, pod.spec.initContainers ?? []]) {
      for (const c of list) {
        sumPositive(requests, c.resources?.requests);
        const found = sumPositive(limits, c.resources?.limits);
        if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
      }
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
