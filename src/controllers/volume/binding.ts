// Pure builders for the writes of a bind: the volume's claimRef, the claim's volumeName and
// annotations, and the claim status a phase implies. Each returns undefined when nothing changes,
// so the caller writes only when needed (the controller runs on every resync).
// Upstream: component-helpers/storage/volume/helpers.go (GetBindVolumeToClaim),
// pkg/controller/volume/persistentvolume/pv_controller.go (bindClaimToVolume, updateClaimStatus, unbindVolume).
import type { ObjectReference, PersistentVolume, PersistentVolumeClaim } from '../../api/index.ts';
import { compareQuantities, parseQuantity } from '../../core/index.ts';
import type { PV, PVC } from './matching.ts';

export type PersistentVolumeClaimPhase = NonNullable<NonNullable<PersistentVolumeClaim['status']>['phase']>;
export type PersistentVolumePhase = NonNullable<NonNullable<PersistentVolume['status']>['phase']>;
import { annBindCompleted, annBoundByController, isVolumeBoundToClaim } from './matching.ts';

/** reference.GetReference for a claim. */
export function claimReference(claim: PVC): ObjectReference {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata.namespace ?? '',
    name: claim.metadata.name ?? '',
    uid: claim.metadata.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: claim.metadata.resourceVersion ?? '',
  };
}

/** GetBindVolumeToClaim: point the volume at the claim; mark it ours unless it was pre-bound. */
export function volumeBoundToClaim(pv: PV, claim: PVC): PersistentVolume | undefined {
  const ref = pv.spec?.claimRef;
  const setBoundByController = !isVolumeBoundToClaim(pv, claim) && pv.metadata.annotations?.[annBoundByController] === undefined;
  const refChanged = !ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid;
  if (!refChanged && !setBoundByController) return undefined;
  const next = structuredClone(pv) as PersistentVolume;
  next.spec ??= {};
  if (refChanged) next.spec.claimRef = claimReference(claim);
  if (setBoundByController) next.metadata.annotations = { ...next.metadata.annotations, [annBoundByController]: 'yes' };
  return next;
}

/** bindClaimToVolume: volumeName, bound-by-controller when we chose the volume, bind-completed. */
export function claimBoundToVolume(claim: PVC, pv: PV): PersistentVolumeClaim | undefined {
  const name = pv.metadata.name ?? '';
  const shouldBind = claim.spec?.volumeName !== name;
  const annotations = { ...claim.metadata.annotations };
  let dirty = false;
  if (shouldBind && annotations[annBoundByController] === undefined) annotations[annBoundByController] = 'yes';
  if (annotations[annBindCompleted] === undefined) {
    annotations[annBindCompleted] = 'yes';
    dirty = true;
  }
  if (!shouldBind && !dirty) return undefined;
  const next = structuredClone(claim) as PersistentVolumeClaim;
  next.metadata.annotations = annotations;
  if (shouldBind) next.spec = { ...next.spec, volumeName: name };
  return next;
}

/**
 * updateClaimStatus: phase, plus modes and capacity from the volume (cleared without one).
 * Capacity is copied only when the claim becomes Bound, so a later resize is not clobbered.
 */
export function claimWithStatus(claim: PVC, phase: PersistentVolumeClaimPhase, pv: PV | undefined): PersistentVolumeClaim | undefined {
  const status = { ...(structuredClone(claim.status ?? {}) as NonNullable<PersistentVolumeClaim['status']>) };
  let dirty = false;
  if (status.phase !== phase) {
    status.phase = phase;
    dirty = true;
  }
  if (!pv) {
    if (status.accessModes !== undefined) {
      delete status.accessModes;
      dirty = true;
    }
    if (status.capacity !== undefined) {
      delete status.capacity;
      dirty = true;
    }
  } else {
    const modes = [...(pv.spec?.accessModes ?? [])];
    if (JSON.stringify(status.accessModes ?? null) !== JSON.stringify(modes)) {
      status.accessModes = modes;
      dirty = true;
    }
    if (claim.status?.phase !== phase) {
      const volumeCap = pv.spec?.capacity?.['storage'];
      if (volumeCap === undefined) throw new Error(`PersistentVolume ${JSON.stringify(pv.metadata.name ?? '')} is without a storage capacity`);
      const claimCap = claim.status?.capacity?.['storage'];
      const a = parseQuantity(volumeCap);
      const b = claimCap !== undefined ? parseQuantity(claimCap) : undefined;
      if (!a || !b || compareQuantities(a, b) !== 0) {
        status.capacity = { ...(pv.spec?.capacity ?? {}) };
        dirty = true;
      }
    }
  }
  if (!dirty) return undefined;
  return { ...(structuredClone(claim) as PersistentVolumeClaim), status };
}

/** unbindVolume: drop a binding we made; keep a user's pre-binding but forget the uid. */
export function volumeUnbound(pv: PV): PersistentVolume {
  const next = structuredClone(pv) as PersistentVolume;
  next.spec ??= {};
  if (pv.metadata.annotations?.[annBoundByController] !== undefined) {
    delete next.spec.claimRef;
    const annotations = { ...next.metadata.annotations };
    delete annotations[annBoundByController];
    if (Object.keys(annotations).length === 0) delete next.metadata.annotations;
    else next.metadata.annotations = annotations;
  } else if (next.spec.claimRef) {
    next.spec.claimRef = { ...next.spec.claimRef, uid: '' };
  }
  return next;
}
