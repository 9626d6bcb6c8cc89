// Pure policy of the ResourceClaim controller: how generated claims are named, which claim a
// pod entry refers to, and when a pod no longer needs its claims.
// Upstream: pkg/controller/resourceclaim/controller.go (handleClaim, podNeedsClaims, isPodDone,
// owningPod), k8s.io/dynamic-resource-allocation/resourceclaim/resourceclaim.go (Name, IsForPod).
import type { Pod, PodResourceClaim, resourceV1 } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

export type DeepReadonlyPod = DeepReadonly<Pod>;

type Claim = DeepReadonly<resourceV1.ResourceClaim>;

/** Leaves room for "-" and 5 random characters in a 63-character name. */
const maxBaseLength = 57;

/**
 * generateName of a claim made from a template: `<pod>-<podClaim>-`, or, when longer than 57,
 * both parts cut in proportion to their lengths (the apiserver would cut only the tail).
 */
export function claimGenerateName(podName: string, podClaimName: string): string {
  const generateName = `${podName}-${podClaimName}-`;
  if (generateName.length <= maxBaseLength) return generateName;
  const l = generateName.length;
  return `${podName.slice(0, Math.trunc((podName.length * maxBaseLength) / l))}-${podClaimName.slice(0, Math.trunc((podClaimName.length * maxBaseLength) / l))}`;
}

export const errClaimNotCreated = 'ResourceClaim not created yet';

/**
 * resourceclaim.Name: the claim a pod entry refers to. `name` undefined means no claim is
 * needed; `mustCheckOwner` is true for generated claims; `error` when the template's claim is
 * not recorded in the pod status yet.
 */
export type ClaimName =
  | { readonly kind: 'name'; readonly name: string | undefined; readonly mustCheckOwner: boolean }
  | { readonly kind: 'error'; readonly notCreated: boolean; readonly message: string };

export function podClaimName(pod: DeepReadonlyPod, podClaim: DeepReadonly<PodResourceClaim>): ClaimName {
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  if (podClaim.resourceClaimName !== undefined) return { kind: 'name', name: podClaim.resourceClaimName, mustCheckOwner: false };
  if (podClaim.resourceClaimTemplateName !== undefined) {
    const status = pod.status?.resourceClaimStatuses?.find((s) => s.name === podClaim.name);
    if (status) return { kind: 'name', name: status.resourceClaimName, mustCheckOwner: true };
    return { kind: 'error', notCreated: true, message: `pod "${ns}/${name}": ${errClaimNotCreated}` };
  }
  return { kind: 'error', notCreated: false, message: `pod "${ns}/${name}", spec.resourceClaim "${podClaim.name}": none of the supported fields are set` };
}

/** resourceclaim.IsForPod: undefined when the pod controls the claim, else the error text. */
export function notForPod(pod: DeepReadonlyPod, claim: Claim): string | undefined {
  const owner = claim.metadata.ownerReferences?.find((r) => r.controller === true);
  if (owner && owner.uid === pod.metadata.uid) return undefined;
  return `ResourceClaim ${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''} was not created for pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} (pod is not owner)`;
}

export function isReservedForPod(pod: DeepReadonlyPod, claim: Claim): boolean {
  return (claim.status?.reservedFor ?? []).some((r) => r.uid === pod.metadata.uid);
}

const isTerminal = (pod: DeepReadonlyPod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** isPodDone: it will never run (again), so its reservations and generated claims can go. */
export function isPodDone(pod: DeepReadonlyPod): boolean {
  return isTerminal(pod) || (pod.metadata.deletionTimestamp !== undefined && !pod.spec.nodeName);
}

/** podNeedsClaims: false once the pod is gone, terminal, or deleted before scheduling. */
export function podNeedsClaims(pod: DeepReadonlyPod, deleted: boolean): boolean {
  return !deleted && !isPodDone(pod);
}

/** owningPod: the controlling Pod owner of a generated claim. */
export function owningPod(claim: Claim): { name: string; uid: string } | undefined {
  const ref = claim.metadata.ownerReferences?.find((r) => r.controller === true && r.apiVersion === 'v1' && r.kind === 'Pod');
  return ref ? { name: ref.name, uid: ref.uid } : undefined;
}
