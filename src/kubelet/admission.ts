// Node-side admission: the kubelet re-checks that a pod bound to it fits (resources, node affinity)
// before running it, and rejects it as phase Failed with upstream's reason and message. Pure.
// Upstream: pkg/kubelet/lifecycle/predicate.go (generalFilter, OutOf<resource>,
// rejectPodAdmissionBasedOnSupplementalGroupsPolicy), scheduler noderesources.Fits.
import { isExtendedResourceName, podEffectiveRequests, podMatchesNodeSelectorAndAffinity, sameResourceInputs } from '../api/index.ts';
import type { Node } from '../api/index.ts';
import { resourceAmountOf } from './quantities.ts';
import type { DeepReadonlyPod } from './types.ts';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

// Each admission sums every admitted pod's requests, as upstream's generalFilter does. A pod's sum is
// kept per spec object, which a status write leaves in place (the status strategy keeps the stored
// spec), beside the pod version it was last checked against: a later version whose resources read
// the same (sameResourceInputs) keeps the sum, and the entry goes with the spec. One entry a spec,
// not one per version as a map keyed by the pod object would hold: every status write of every pod
// made a new entry for the collector to sweep.
interface Summed {
  pod: DeepReadonlyPod;
  readonly requests: Record<string, number>;
}
const summedBySpec = new WeakMap<DeepReadonlyPod['spec'], Summed>();

function admittedRequests(pod: DeepReadonlyPod): Record<string, number> {
  const summed = summedBySpec.get(pod.spec);
  if (summed !== undefined && (summed.pod === pod || sameResourceInputs(summed.pod, pod))) {
    summed.pod = pod;
    return summed.requests;
  }
  const requests = podEffectiveRequests(pod);
  summedBySpec.set(pod.spec, { pod, requests });
  return requests;
}

/**
 * rejectPodAdmissionBasedOnSupplementalGroupsPolicy: since 1.33 a Strict pod is refused where the node's
 * status does not say its runtime honours the policy (1.31 and 1.32 ran it as Merge).
 */
function isStrictGroupsUnsupported(pod: DeepReadonlyPod, node: Node): boolean {
  return pod.spec.securityContext?.supplementalGroupsPolicy === 'Strict' && node.status?.features?.supplementalGroupsPolicy !== true;
}

/**
 * Admits `pod` onto `node` given the pods already admitted there. `supplementalGroupsPolicy`: the kubelet
 * runs with the gate (see hasSupplementalGroupsPolicy).
 */
export function admitPod(pod: DeepReadonlyPod, node: Node, admitted: readonly DeepReadonlyPod[], supplementalGroupsPolicy = true): AdmitResult {
  if (supplementalGroupsPolicy && isStrictGroupsUnsupported(pod, node)) {
    return { admit: false, reason: 'SupplementalGroupsPolicyNotSupported', message: 'SupplementalGroupsPolicy=Strict is not supported in this node' };
  }
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
