// The built-in provisioner's policy: which claims it provisions and the volume it makes for one,
// after rancher's local-path-provisioner (a hostPath directory on the node the scheduler chose,
// pinned there by node affinity). The base directory is Drydock's own; nothing is created on disk.
// Upstream: rancher/local-path-provisioner provisioner.go; kubernetes-sigs/sig-storage-lib-external-provisioner
// controller/controller.go (shouldProvision, shouldDelete).
import type { PersistentVolume } from '../../api/index.ts';
import { claimReference } from './binding.ts';
import type { PV, PVC, SC } from './matching.ts';
import { annBetaStorageProvisioner, annDynamicallyProvisioned, annSelectedNode, annStorageProvisioner, claimClass } from './matching.ts';

export const localPathProvisionerName = 'drydock.dev/local-path';
export const localPathBaseDir = '/var/lib/drydock/local-path';

export function provisionedVolumeName(claim: PVC): string {
  return `pvc-${claim.metadata.uid ?? ''}`;
}

/** shouldProvision: an unbound claim handed to us (annotation and class), with a node when binding waits. */
export function shouldProvision(claim: PVC, cls: SC | undefined, provisioner = localPathProvisionerName): boolean {
  if (claim.spec?.volumeName) return false;
  if (claim.metadata.deletionTimestamp) return false;
  const a = claim.metadata.annotations ?? {};
  if ((a[annStorageProvisioner] ?? a[annBetaStorageProvisioner]) !== provisioner) return false;
  if (!cls || cls.provisioner !== provisioner || cls.metadata.name !== claimClass(claim)) return false;
  if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !a[annSelectedNode]) return false;
  return true;
}

/** shouldDelete: our volume, released by its claim, with the Delete policy. */
export function shouldDelete(pv: PV, provisioner = localPathProvisionerName): boolean {
  return (
    pv.metadata.annotations?.[annDynamicallyProvisioned] === provisioner &&
    pv.status?.phase === 'Released' &&
    pv.spec?.persistentVolumeReclaimPolicy === 'Delete' &&
    !pv.metadata.deletionTimestamp
  );
}

/**
 * The volume for a claim: capacity = request, the claim's modes and volume mode, the class's
 * policy and mount options, claimRef set (the PV controller finishes the bind), and on a
 * selected node a hostname affinity. Immediate classes get the first node the caller picked.
 */
export function localPathVolume(claim: PVC, cls: SC, node: string): PersistentVolume {
  const ns = claim.metadata.namespace ?? '';
  const name = claim.metadata.name ?? '';
  const pv: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: provisionedVolumeName(claim), annotations: { [annDynamicallyProvisioned]: cls.provisioner } },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.['storage'] ?? '0' },
      accessModes: [...(claim.spec?.accessModes ?? [])],
      claimRef: claimReference(claim),
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
      storageClassName: claimClass(claim),
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      hostPath: { path: `${localPathBaseDir}/${provisionedVolumeName(claim)}_${ns}_${name}`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
    },
  };
  if (cls.mountOptions?.length) pv.spec = { ...pv.spec, mountOptions: [...cls.mountOptions] };
  return pv;
}
