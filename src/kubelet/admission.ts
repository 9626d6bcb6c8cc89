// Node-side admission: the kubelet re-checks that a pod bound to it fits (resources, node affinity)
// before running it, and rejects it as phase Failed with upstream's reason and message. Pure.
// Upstream: pkg/kubelet/lifecycle/predicate.go (generalFilter, OutOf<resource>), scheduler noderesources.Fits.
import { isExtendedResourceName, podEffectiveRequests, podMatchesNodeSelectorAndAffinity, sameResourceInputs } from '../api/index.ts';
import type { Node } from '../api/index.ts';
import { resourceAmountOf } from './quantities.ts';
import type { DeepReadonlyPod } from './types.ts';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

// Each admission sums every admitted pod's requests, as upstream's generalFilter does; the pods are
// the informer's shared objects, which never change, so each one's sum is computed once, and kept
// through the status writes that leave what it is computed from alone.
const requestsOf = new WeakMap<DeepReadonlyPod, Record<string, number>>();
// The last version summed per spec object (a status write keeps the stored spec): gone with the pod.
const lastSummed = new WeakMap<DeepReadonlyPod['spec'], DeepReadonlyPod>();

function admittedRequests(pod: DeepReadonlyPod): Record<string, number> {
  let requests = requestsOf.get(pod);
  if (requests === undefined) {
    const earlier = lastSummed.get(pod.spec);
    requests = earlier && sameResourceInputs(earlier, pod) ? requestsOf.get(earlier) : undefined;
    requests ??= podEffectiveRequests(pod);
    requestsOf.set(pod, requests);
    lastSummed.set(pod.spec, pod);
  }
  return requests;
}

/** Admits `pod` onto `node` given the pods already admitted there. */
export function admitPod(pod: DeepReadonlyPod, node: Node, admitted: readonly DeepReadonlyPod[]): AdmitResult {
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) {
    return { admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" };
  }
  const allocatable = node.status?.allocatable ?? {};
  const used: Record<string, number> = {};
  for (const p of admitted) {
    const requests = admittedRequests(p);
    for (const k in requests) used[k] = (used[k] ?? 0) + (requests[k] ?? 0);
  }
  const podsCap = resourceAmountOf('pods', allocatable.pods);
  if (podsCap !== undefined && admitted.length + 1 > podsCap) {
    return { admit: false, reason: 'OutOfpods', message: `Node didn't have enough resource: pods, requested: 1, used: ${admitted.length}, capacity: ${podsCap}` };
  }
  const requests = podEffectiveRequests(pod);
  // cpu and memory first, then the rest in name order, as Fits reports them.
  const names = Object.keys(requests).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of names) {
    const want = requests[name] ?? 0;
    if (want === 0) continue;
    // removeMissingExtendedResources: extended resources the node does not list are cluster-level
    // or backed by DRA (the scheduler checked them); admission ignores them.
    if (isExtendedResourceName(name) && allocatable[name] === undefined) continue;
    const cap = resourceAmountOf(name, allocatable[name]) ?? 0;
    const have = used[name] ?? 0;
    if (want > cap - have) {
      return { admit: false, reason: `OutOf${name}`, message: `Node didn't have enough resource: ${name}, requested: ${want}, used: ${have}, capacity: ${cap}` };
    }
  }
  return { admit: true };
}

function rank(name: string): number {
  return name === 'cpu' ? 0 : name === 'memory' ? 1 : name === 'ephemeral-storage' ? 2 : 3;
}
