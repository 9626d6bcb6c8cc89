// The PV controller's two sync functions: syncClaim (bind, provision or wait) and syncVolume
// (phase, release, reclaim). Level-triggered: each reads the current state and does the next
// step; a failed write throws and the key is retried.
// Upstream: pkg/controller/volume/persistentvolume/pv_controller.go (syncClaim, syncUnboundClaim,
// syncBoundClaim, syncVolume, bind, reclaimVolume, provisionClaimOperationExternal).
import { refs } from '../../api/index.ts';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { isApiError, keyOf, objectKey } from '../../core/index.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { claimBoundToVolume, claimWithStatus, volumeBoundToClaim, volumeUnbound } from './binding.ts';
import type { PersistentVolumeClaimPhase, PersistentVolumePhase } from './binding.ts';
import type { FreshCache } from './fresh-cache.ts';
import type { PV, PVC, SC } from './matching.ts';
import {
  annBetaStorageProvisioner, annBindCompleted, annBoundByController, annDynamicallyProvisioned, annStorageProvisioner, claimClass,
  claimHasClass, defaultClassOf, findBestMatchForClaim, isDelayBindingMode, isDelayBindingProvisioning, isVolumeBoundToClaim,
  volumeModeMismatch, volumeSatisfyClaimError,
} from './matching.ts';

export interface VolumeSyncContext {
  client: Client;
  recorder: EventRecorder;
  claims: FreshCache<PersistentVolumeClaim>;
  volumes: FreshCache<PersistentVolume>;
  classes: { get(name: string): SC | undefined; list(): SC[] };
  /** Names of unscheduled, non-terminated pods that use the claim. */
  unscheduledPodsUsing(claim: PVC): string[];
  enqueueClaim(key: string): void;
}

// ---- claims ----

export async function syncClaim(ctx: VolumeSyncContext, key: string): Promise<void> {
  const claim = ctx.claims.get(key);
  if (!claim) return;
  if (claim.metadata.annotations?.[annBindCompleted] === undefined) await syncUnboundClaim(ctx, claim);
  else await syncBoundClaim(ctx, claim);
}

async function syncUnboundClaim(ctx: VolumeSyncContext, claim: PVC): Promise<void> {
  const volumeName = claim.spec?.volumeName ?? '';
  if (volumeName === '') {
    const delayBinding = isDelayBindingMode(claim, (n) => ctx.classes.get(n));
    const volume = findBestMatchForClaim(claim, ctx.volumes.list(), delayBinding);
    if (volume) return bind(ctx, volume, claim);
    if (await assignDefaultStorageClass(ctx, claim)) return;
    if (delayBinding && !isDelayBindingProvisioning(claim)) {
      emitEventForUnboundDelayBindingClaim(ctx, claim);
    } else if (claimClass(claim) !== '') {
      return provisionClaim(ctx, claim);
    } else {
      ctx.recorder.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
    }
    await updateClaimStatus(ctx, claim, 'Pending', undefined);
    return;
  }
  const volume = ctx.volumes.get(volumeName);
  if (!volume) {
    await updateClaimStatus(ctx, claim, 'Pending', undefined);
    return;
  }
  if (!volume.spec?.claimRef) {
    const problem = volumeSatisfyClaimError(volume, claim);
    if (!problem) return bind(ctx, volume, claim);
    ctx.recorder.event(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume ${JSON.stringify(volumeName)}: ${problem}`);
    await updateClaimStatus(ctx, claim, 'Pending', undefined);
    return;
  }
  if (isVolumeBoundToClaim(volume, claim)) return bind(ctx, volume, claim);
  ctx.recorder.event(claim, 'Warning', 'FailedBinding', `volume ${JSON.stringify(volumeName)} already bound to a different claim.`);
  if (claim.metadata.annotations?.[annBoundByController] === undefined) {
    await updateClaimStatus(ctx, claim, 'Pending', undefined);
    return;
  }
  const ref = volume.spec.claimRef;
  throw new Error(`invalid binding of claim ${JSON.stringify(keyOf(claim))} to volume ${JSON.stringify(volumeName)}: volume already claimed by ${JSON.stringify(objectKey(ref.namespace, ref.name ?? ''))}`);
}

async function syncBoundClaim(ctx: VolumeSyncContext, claim: PVC): Promise<void> {
  const volumeName = claim.spec?.volumeName ?? '';
  if (volumeName === '') {
    return updateClaimStatusWithEvent(ctx, claim, 'Lost', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
  }
  const volume = ctx.volumes.get(volumeName);
  if (!volume) return updateClaimStatusWithEvent(ctx, claim, 'Lost', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
  const ref = volume.spec?.claimRef;
  if (!ref || ref.uid === claim.metadata.uid) return bind(ctx, volume, claim);
  return updateClaimStatusWithEvent(ctx, claim, 'Lost', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
}

function emitEventForUnboundDelayBindingClaim(ctx: VolumeSyncContext, claim: PVC): void {
  const pods = ctx.unscheduledPodsUsing(claim);
  if (pods.length === 0) {
    ctx.recorder.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
  } else if (pods.length === 1) {
    ctx.recorder.event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pod ${pods[0] ?? ''} to be scheduled`);
  } else {
    ctx.recorder.event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pods ${pods.join(',')} to be scheduled`);
  }
}

/** Retroactive default class (GA 1.28): a claim with no class at all gets today's default. */
async function assignDefaultStorageClass(ctx: VolumeSyncContext, claim: PVC): Promise<boolean> {
  if (claimHasClass(claim)) return false;
  const cls = defaultClassOf(ctx.classes.list());
  if (!cls) return false;
  const next = structuredClone(claim) as PersistentVolumeClaim;
  next.spec = { ...next.spec, storageClassName: cls.metadata.name ?? '' };
  ctx.claims.store(await ctx.client.update<PersistentVolumeClaim>(refs.persistentVolumeClaims, next));
  return true;
}

/**
 * Drydock has no in-tree (kubernetes.io/...) provisioners, so every class is served by an
 * "external" provisioner: annotate the claim for it and say so, as upstream does.
 */
async function provisionClaim(ctx: VolumeSyncContext, claim: PVC): Promise<void> {
  const className = claimClass(claim);
  const cls = ctx.classes.get(className);
  if (!cls) {
    ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io ${JSON.stringify(className)} not found`);
    return;
  }
  const provisioner = cls.provisioner;
  const a = claim.metadata.annotations ?? {};
  let current = claim;
  if (a[annStorageProvisioner] !== provisioner || a[annBetaStorageProvisioner] !== provisioner) {
    const next = structuredClone(claim) as PersistentVolumeClaim;
    next.metadata.annotations = { ...a, [annBetaStorageProvisioner]: provisioner, [annStorageProvisioner]: provisioner };
    try {
      current = await ctx.client.update<PersistentVolumeClaim>(refs.persistentVolumeClaims, next);
    } catch (error) {
      ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `Error saving claim: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    ctx.claims.store(current);
  }
  ctx.recorder.event(
    current,
    'Normal',
    'ExternalProvisioning',
    `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
  );
}

async function bind(ctx: VolumeSyncContext, volume: PV, claim: PVC): Promise<void> {
  let pv = volume;
  const boundPV = volumeBoundToClaim(pv, claim);
  if (boundPV) {
    pv = await ctx.client.update<PersistentVolume>(refs.persistentVolumes, boundPV);
    ctx.volumes.store(pv);
  }
  pv = await updateVolumePhase(ctx, pv, 'Bound', '');
  let pvc = claim;
  const boundClaim = claimBoundToVolume(pvc, pv);
  if (boundClaim) {
    pvc = await ctx.client.update<PersistentVolumeClaim>(refs.persistentVolumeClaims, boundClaim);
    ctx.claims.store(pvc);
  }
  await updateClaimStatus(ctx, pvc, 'Bound', pv);
}

async function updateClaimStatus(ctx: VolumeSyncContext, claim: PVC, phase: PersistentVolumeClaimPhase, volume: PV | undefined): Promise<PVC> {
  const next = claimWithStatus(claim, phase, volume);
  if (!next) return claim;
  const saved = await ctx.client.updateStatus<PersistentVolumeClaim>(refs.persistentVolumeClaims, next);
  ctx.claims.store(saved);
  return saved;
}

async function updateClaimStatusWithEvent(ctx: VolumeSyncContext, claim: PVC, phase: PersistentVolumeClaimPhase, reason: string, message: string): Promise<void> {
  if (claim.status?.phase === phase) return;
  const saved = await updateClaimStatus(ctx, claim, phase, undefined);
  ctx.recorder.event(saved, 'Warning', reason, message);
}

// ---- volumes ----

async function updateVolumePhase(ctx: VolumeSyncContext, volume: PV, phase: PersistentVolumePhase, message: string): Promise<PV> {
  if (volume.status?.phase === phase) return volume;
  const next = structuredClone(volume) as PersistentVolume;
  next.status = { ...next.status, phase };
  if (message) next.status.message = message;
  else delete next.status.message;
  const saved = await ctx.client.updateStatus<PersistentVolume>(refs.persistentVolumes, next);
  ctx.volumes.store(saved);
  return saved;
}

async function updateVolumePhaseWithEvent(ctx: VolumeSyncContext, volume: PV, phase: PersistentVolumePhase, reason: string, message: string): Promise<void> {
  if (volume.status?.phase === phase) return;
  const saved = await updateVolumePhase(ctx, volume, phase, message);
  ctx.recorder.event(saved, 'Warning', reason, message);
}

async function liveClaim(ctx: VolumeSyncContext, namespace: string, name: string): Promise<PVC | undefined> {
  try {
    return await ctx.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, namespace, name);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return undefined;
    throw error;
  }
}

export async function syncVolume(ctx: VolumeSyncContext, name: string): Promise<void> {
  let volume = ctx.volumes.get(name);
  if (!volume) return;
  const ref = volume.spec?.claimRef;
  if (!ref || !ref.uid) {
    // Unused, or pre-bound by a user to a claim that the claim sync will bind.
    await updateVolumePhase(ctx, volume, 'Available', '');
    return;
  }
  const namespace = ref.namespace ?? '';
  const claimName = ref.name ?? '';
  let claim = ctx.claims.get(objectKey(namespace, claimName));
  // A volume made by a provisioner may arrive before its claim reaches our cache: ask the
  // server before releasing anything.
  if (!claim && volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') claim = await liveClaim(ctx, namespace, claimName);
  if (claim && claim.metadata.uid !== ref.uid) {
    claim = await liveClaim(ctx, namespace, claimName);
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;
  }
  if (!claim) {
    if (volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') volume = await updateVolumePhase(ctx, volume, 'Released', '');
    await reclaimVolume(ctx, volume);
    return;
  }
  const claimVolume = claim.spec?.volumeName ?? '';
  if (claimVolume === '') {
    if (volumeModeMismatch(claim, volume)) {
      ctx.recorder.event(volume, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume to requested PersistentVolumeClaim ${JSON.stringify(claim.metadata.name ?? '')} due to incompatible volumeMode.`);
      ctx.recorder.event(claim, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume ${JSON.stringify(name)} to requested PersistentVolumeClaim due to incompatible volumeMode.`);
      return;
    }
    // The claim sync finishes the binding; provisioners write only the volume and rely on this.
    ctx.enqueueClaim(keyOf(claim));
    return;
  }
  if (claimVolume === name) {
    await updateVolumePhase(ctx, volume, 'Bound', '');
    return;
  }
  // The claim is bound to another volume.
  if (volume.metadata.annotations?.[annDynamicallyProvisioned] !== undefined && volume.spec?.persistentVolumeReclaimPolicy === 'Delete') {
    if (volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') volume = await updateVolumePhase(ctx, volume, 'Released', '');
    await reclaimVolume(ctx, volume);
    return;
  }
  const unbound = await ctx.client.update<PersistentVolume>(refs.persistentVolumes, volumeUnbound(volume));
  ctx.volumes.store(unbound);
  await updateVolumePhase(ctx, unbound, 'Available', '');
}

/**
 * Retain leaves the volume Released. Delete of a provisioned volume is its provisioner's job
 * (no in-tree deleters here); any other Delete or Recycle has no plugin and fails as upstream.
 */
async function reclaimVolume(ctx: VolumeSyncContext, volume: PV): Promise<void> {
  switch (volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain') {
    case 'Retain':
      return;
    case 'Delete': {
      const by = volume.metadata.annotations?.[annDynamicallyProvisioned];
      if ((by !== undefined && by !== '' && !by.startsWith('kubernetes.io/')) || volume.spec?.csi) return;
      return updateVolumePhaseWithEvent(ctx, volume, 'Failed', 'VolumeFailedDelete', `error getting deleter volume plugin for volume ${JSON.stringify(volume.metadata.name ?? '')}: no deletable volume plugin matched`);
    }
    case 'Recycle':
      return updateVolumePhaseWithEvent(ctx, volume, 'Failed', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
    default:
      return updateVolumePhaseWithEvent(ctx, volume, 'Failed', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy');
  }
}
