// Which ResourceClaims a pod uses and whether it may use them: the checks PreEnqueue, PreFilter
// and the queueing hints share.
// Upstream: dynamicresources.go (foreachPodResourceClaim), k8s.io/dynamic-resource-allocation/
// resourceclaim/resourceclaim.go (Name, IsForPod, IsReservedForPod, CanBeReserved).
import { resourceV1 } from '../../api/index.ts';
import type { PodRO } from '../framework.ts';
import type { ClaimRO, ClaimTracker } from './dynamic-resources-tracker.ts';

export type PodClaims = { readonly ok: true; readonly claims: ClaimRO[] } | { readonly ok: false; readonly message: string };

/** The pod's claims in spec.resourceClaims order (entries that need no claim skipped), or why not yet. */
export function podResourceClaims(pod: PodRO, tracker: ClaimTracker): PodClaims {
  const claims: ClaimRO[] = [];
  const ns = pod.metadata.namespace ?? '';
  const podName = pod.metadata.name ?? '';
  for (const entry of pod.spec.resourceClaims ?? []) {
    let claimName: string | undefined;
    let mustCheckOwner = false;
    if (entry.resourceClaimName !== undefined) claimName = entry.resourceClaimName;
    else if (entry.resourceClaimTemplateName !== undefined) {
      const status = pod.status?.resourceClaimStatuses?.find((s) => s.name === entry.name);
      if (!status) return { ok: false, message: `pod "${ns}/${podName}": ResourceClaim not created yet` };
      claimName = status.resourceClaimName;
      mustCheckOwner = true;
    } else return { ok: false, message: `pod "${ns}/${podName}", spec.resourceClaim "${entry.name}": none of the supported fields are set` };
    if (claimName === undefined) continue;
    const claim = tracker.get(ns, claimName);
    if (!claim) return { ok: false, message: `could not find ResourceClaim "${ns}/${claimName}"` };
    if (claim.metadata.deletionTimestamp) return { ok: false, message: `resourceclaim "${claimName}" is being deleted` };
    if (mustCheckOwner) {
      const owner = claim.metadata.ownerReferences?.find((r) => r.controller === true);
      if (!owner || owner.uid !== pod.metadata.uid) return { ok: false, message: `ResourceClaim ${ns}/${claimName} was not created for pod ${ns}/${podName} (pod is not owner)` };
    }
    claims.push(claim);
  }
  return { ok: true, claims };
}

/** Whether the pod refers to `claim` by name, directly or through its generated claims' statuses. */
/**
 * The claims a pod names, as `namespace/name` (what namesClaim matches): the keys the queue files a
 * waiting pod under, so a claim event is offered only to the pods that name that claim.
 */
export function claimKeysOfPod(pod: PodRO): string[] {
  const ns = pod.metadata.namespace ?? '';
  const keys: string[] = [];
  for (const entry of pod.spec.resourceClaims ?? []) if (entry.resourceClaimName !== undefined) keys.push(`${ns}/${entry.resourceClaimName}`);
  for (const status of pod.status?.resourceClaimStatuses ?? []) if (status.resourceClaimName !== undefined) keys.push(`${ns}/${status.resourceClaimName}`);
  return keys;
}

export function namesClaim(pod: PodRO, claim: ClaimRO): boolean {
  if ((pod.metadata.namespace ?? '') !== (claim.metadata.namespace ?? '')) return false;
  const name = claim.metadata.name;
  for (const entry of pod.spec.resourceClaims ?? []) if (entry.resourceClaimName === name) return true;
  for (const status of pod.status?.resourceClaimStatuses ?? []) if (status.resourceClaimName === name) return true;
  return false;
}

export function isReservedForPod(pod: PodRO, claim: ClaimRO): boolean {
  return (claim.status?.reservedFor ?? []).some((r) => r.uid === pod.metadata.uid);
}

export function canBeReserved(claim: ClaimRO): boolean {
  return (claim.status?.reservedFor ?? []).length < resourceV1.ResourceLimits.ResourceClaimReservedForMaxSize;
}

export const claimRef = (c: ClaimRO): string => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;
