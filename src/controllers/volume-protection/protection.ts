// The policy of the storage-object-in-use protection controllers, pure: which finalizer guards
// what, when a claim counts as used by a pod, and when a finalizer may go.
// Upstream: pkg/controller/volume/pvcprotection, pvprotection; pkg/util/protectionutil.
import type { PersistentVolume, Pod } from '../../api/index.ts';
import { ephemeralClaimName } from '../../api/index.ts';
import type { DeepReadonly, KubeObject } from '../../core/index.ts';

export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

type Meta = Pick<DeepReadonly<KubeObject>, 'metadata'>;

/** NeedToAddFinalizer: a live object without the finalizer (one made before protection was on). */
export function needsFinalizer(obj: Meta, finalizer: string): boolean {
  return !obj.metadata.deletionTimestamp && !(obj.metadata.finalizers ?? []).includes(finalizer);
}

/** IsDeletionCandidate: being deleted and still held by the finalizer. */
export function isDeletionCandidate(obj: Meta, finalizer: string): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(finalizer);
}

/**
 * podUsesPVC: a scheduled pod naming the claim in a volume uses it, whatever its phase (a
 * Completed pod still holds its claim until it is deleted, as upstream). Generic ephemeral
 * volumes (claim `<pod>-<volume>`) count until the pod is shut down.
 */
export function podUsesClaim(pod: DeepReadonly<Pod>, claimName: string): boolean {
  if (!pod.spec.nodeName) return false;
  return (pod.spec.volumes ?? []).some(
    (v) => v.persistentVolumeClaim?.claimName === claimName || (v.ephemeral !== undefined && ephemeralClaimName(pod, v) === claimName && !podIsShutDown(pod)),
  );
}

/** Done with by the kubelet, or force-deleted: deletionTimestamp with a zero grace period. */
function podIsShutDown(pod: DeepReadonly<Pod>): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;
}

/** The claims a pod names, which its deletion or termination may free. */
export function claimsOf(pod: DeepReadonly<Pod>): string[] {
  return (pod.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [ephemeralClaimName(pod, v)] : []));
}

/** pv-protection: a volume is in use while its phase is Bound. */
export function volumeInUse(pv: DeepReadonly<PersistentVolume>): boolean {
  return pv.status?.phase === 'Bound';
}

/** The object with `finalizer` added or removed, for an update. */
export function withFinalizer<T extends KubeObject>(obj: DeepReadonly<T>, finalizer: string, present: boolean): T {
  const others = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  const finalizers = present ? [...others, finalizer] : others;
  return { ...(obj as T), metadata: { ...(obj.metadata as T['metadata']), finalizers } };
}
