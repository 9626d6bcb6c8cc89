// Pure policy of PV/PVC binding: which volume a claim gets, whether a claim's class delays
// binding, and whether a volume satisfies a claim it names.
// Upstream: component-helpers/storage/volume/pv_helpers.go (FindMatchingVolume, CheckAccessModes,
// IsVolumeBoundToClaim, IsDelayBindingMode), pkg/controller/volume/persistentvolume/index.go
// (findBestMatchForClaim), pv_controller.go (checkVolumeSatisfyClaim).
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/index.ts';
import { newestDefaultStorageClass } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { compareQuantities, labelSelectorFromObject, parseQuantity, quantityFromValue } from '../../core/index.ts';
import type { LabelSelector, Quantity } from '../../core/index.ts';

export type PV = DeepReadonly<PersistentVolume>;
export type PVC = DeepReadonly<PersistentVolumeClaim>;
export type SC = DeepReadonly<StorageClass>;

export const annBindCompleted = 'pv.kubernetes.io/bind-completed';
export const annBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const annSelectedNode = 'volume.kubernetes.io/selected-node';
export const annStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const annBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
export const annDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
const annBetaStorageClass = 'volume.beta.kubernetes.io/storage-class';
const notSupportedProvisioner = 'kubernetes.io/no-provisioner';

/** GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName. */
export function claimClass(claim: PVC): string {
  return claim.metadata.annotations?.[annBetaStorageClass] ?? claim.spec?.storageClassName ?? '';
}

export function volumeClass(pv: PV): string {
  return pv.metadata.annotations?.[annBetaStorageClass] ?? pv.spec?.storageClassName ?? '';
}

/** PersistentVolumeClaimHasClass: set at all, even to "" (which asks for static binding only). */
export function claimHasClass(claim: PVC): boolean {
  return claim.metadata.annotations?.[annBetaStorageClass] !== undefined || claim.spec?.storageClassName !== undefined;
}

export function isDelayBindingMode(claim: PVC, classOf: (name: string) => SC | undefined): boolean {
  const name = claimClass(claim);
  if (!name) return false;
  return classOf(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** IsDelayBindingProvisioning: the scheduler has picked a node for the claim. */
export function isDelayBindingProvisioning(claim: PVC): boolean {
  return claim.metadata.annotations?.[annSelectedNode] !== undefined;
}

export function isProvisionableClass(sc: SC | undefined): boolean {
  return !!sc && sc.provisioner !== '' && sc.provisioner !== notSupportedProvisioner;
}

export function isVolumeBoundToClaim(pv: PV, claim: PVC): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
export function hasAccessModes(claim: PVC, pv: PV): boolean {
  const offered = new Set(pv.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((m) => offered.has(m));
}

/** CheckVolumeModeMismatches, with unset meaning Filesystem on both sides. */
export function volumeModeMismatch(claim: PVC, pv: PV): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem');
}

const zero = quantityFromValue(0);
function storageOf(text: string | undefined): Quantity {
  return (text !== undefined ? parseQuantity(text) : undefined) ?? zero;
}
export function requestedStorage(claim: PVC): Quantity {
  return storageOf(claim.spec?.resources?.requests?.['storage']);
}
export function volumeStorage(pv: PV): Quantity {
  return storageOf(pv.spec?.capacity?.['storage']);
}

/**
 * FindMatchingVolume on the controller path (no node): a volume pre-bound to the claim wins
 * at once; otherwise the smallest Available volume of the claim's class, modes and selector.
 * With delayBinding only pre-bound volumes count: the scheduler picks the rest per node.
 */
export function findBestMatchForClaim(claim: PVC, volumes: readonly PV[], delayBinding: boolean): PV | undefined {
  const requested = requestedStorage(claim);
  const requestedClass = claimClass(claim);
  const selector = claim.spec?.selector ? labelSelectorFromObject(claim.spec.selector as LabelSelector) : undefined;
  let smallest: PV | undefined;
  for (const pv of volumes) {
    // The controller's index only offers volumes with a superset of the claim's modes.
    if (!hasAccessModes(claim, pv)) continue;
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, claim)) continue;
    const size = volumeStorage(pv);
    if (compareQuantities(size, requested) < 0) continue;
    if (volumeModeMismatch(claim, pv)) continue;
    if (pv.metadata.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(pv, claim)) return pv;
    if (delayBinding) continue;
    if (pv.status?.phase !== 'Available') continue;
    if (selector && ('error' in selector || !selector.matches(pv.metadata.labels))) continue;
    if (volumeClass(pv) !== requestedClass) continue;
    if (!smallest || compareQuantities(volumeStorage(smallest), size) > 0) smallest = pv;
  }
  return smallest;
}

/** checkVolumeSatisfyClaim: why a volume the claim names cannot be bound, or undefined. */
export function volumeSatisfyClaimError(pv: PV, claim: PVC): string | undefined {
  if (pv.metadata.deletionTimestamp) return `the volume is marked for deletion ${JSON.stringify(pv.metadata.name ?? '')}`;
  if (compareQuantities(volumeStorage(pv), requestedStorage(claim)) < 0) return 'requested PV is too small';
  if (volumeClass(pv) !== claimClass(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, pv)) return 'incompatible volumeMode';
  if (!hasAccessModes(claim, pv)) return 'incompatible accessMode';
  return undefined;
}

/** util.GetDefaultClass: the newest default class (ties by name), if any. */
export function defaultClassOf(classes: readonly SC[]): SC | undefined {
  return newestDefaultStorageClass(classes);
}
