// A generic ephemeral volume's claim name, which every component derives on its own (the controller that
// creates the claim, the scheduler, the kubelet, the claim's protection).
// Upstream: component-helpers/storage/ephemeral/ephemeral.go (VolumeClaimName).

/** The claim name is deterministic: the pod's name, a dash, the volume's name. */
export function ephemeralClaimName(pod: { readonly metadata: { readonly name?: string | undefined } }, volume: { readonly name: string }): string {
  return `${pod.metadata.name ?? ''}-${volume.name}`;
}

interface ObjectMetaView {
  readonly metadata: { readonly name?: string | undefined; readonly namespace?: string | undefined; readonly uid?: string | undefined; readonly ownerReferences?: readonly { readonly uid: string; readonly controller?: boolean | undefined }[] | undefined };
}

/** VolumeIsForPod: why a claim of that name is not the pod's ephemeral volume (another owner), or undefined. */
export function ephemeralClaimNotForPod(pod: ObjectMetaView, claim: ObjectMetaView): string | undefined {
  const controller = claim.metadata.ownerReferences?.find((r) => r.controller === true);
  if (claim.metadata.namespace === pod.metadata.namespace && controller !== undefined && controller.uid === pod.metadata.uid) return undefined;
  return `PVC ${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''} was not created for pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} (pod is not owner)`;
}
