// persistentVolumeClaimRetentionPolicy as owner references on a pod's claims: the set owns them when
// they go with the set (whenDeleted: Delete), the pod owns them once it is scaled away (whenScaled:
// Delete), so the garbage collector deletes each claim with its last owner. Pure.
// Upstream: pkg/controller/statefulset/stateful_set_utils.go (isClaimOwnerUpToDate,
// updateClaimOwnerRefForSetAndPod, hasStaleOwnerRef, hasUnexpectedController, addControllerRef),
// stateful_pod_control.go (PodClaimIsStale).
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/index.ts';
import type { DeepReadonly, OwnerReference } from '../../core/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import { ordinalOf, startOrdinal } from './identity.ts';

type ReadonlySet = DeepReadonly<StatefulSet>;
type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;
type Ref = DeepReadonly<OwnerReference>;

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '');

/** matchesRef: the same name and group/kind, whatever the uid. */
const matchesRef = (ref: Ref, name: string | undefined, group: string, kind: string): boolean => ref.name === name && ref.kind === kind && groupOf(ref.apiVersion) === group;
const matchesSet = (ref: Ref, set: ReadonlySet): boolean => matchesRef(ref, set.metadata.name, 'apps', 'StatefulSet');
const matchesPod = (ref: Ref, name: string | undefined): boolean => matchesRef(ref, name, '', 'Pod');

/** podInOrdinalRange: a pod past the replicas (or before the start ordinal) is being scaled away. */
function isScaledDown(set: ReadonlySet, pod: ReadonlyPod): boolean {
  const ordinal = ordinalOf(set, pod) ?? -1;
  const start = startOrdinal(set);
  return ordinal < start || ordinal >= start + (set.spec.replicas ?? 1);
}

/**
 * The owner references a claim of `pod` should carry, or undefined when it is to be left alone: as
 * it should be already, or managed by an earlier set or pod of the same name (a stale reference).
 * Another controller on the claim keeps ours off it.
 */
export function claimOwnersFor(claim: ReadonlyClaim, set: ReadonlySet, pod: ReadonlyPod): OwnerReference[] | undefined {
  const refs = claim.metadata.ownerReferences ?? [];
  const ours = (r: Ref): boolean => matchesSet(r, set) || matchesPod(r, pod.metadata.name);
  const stale = refs.some((r) => (matchesSet(r, set) && r.uid !== set.metadata.uid) || (matchesPod(r, pod.metadata.name) && r.uid !== pod.metadata.uid));
  if (stale) return undefined;
  const desired = refs.filter((r) => !ours(r)) as OwnerReference[];
  const foreignController = desired.some((r) => r.controller === true);
  if (!foreignController) {
    const { whenScaled = 'Retain', whenDeleted = 'Retain' } = set.spec.persistentVolumeClaimRetentionPolicy ?? {};
    if (whenScaled === 'Delete' && isScaledDown(set, pod)) desired.push(newControllerRef(pod, 'v1', 'Pod'));
    else if (whenDeleted === 'Delete' && (whenScaled === 'Retain' || whenScaled === 'Delete')) desired.push(newControllerRef(set, 'apps/v1', 'StatefulSet'));
  }
  const shape = (r: Ref): string => `${r.uid}/${String(r.controller === true)}`;
  const same = desired.length === refs.length && desired.map(shape).sort().join() === refs.map(shape).sort().join();
  return same ? undefined : desired;
}

/** PodClaimIsStale: a claim still owned by an earlier pod of this name; the new pod waits for it to go. */
export function hasStaleClaim(set: ReadonlySet, pod: ReadonlyPod, claims: readonly (ReadonlyClaim | undefined)[]): boolean {
  if ((set.spec.persistentVolumeClaimRetentionPolicy?.whenScaled ?? 'Retain') === 'Retain') return false;
  return claims.some((c) => c?.metadata.ownerReferences?.some((r) => matchesPod(r, pod.metadata.name) && r.uid !== pod.metadata.uid));
}
