// PersistentVolume (core/v1): wire types, defaults, strategy (status split, phase transition
// time), validation and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go (SetDefaults_PersistentVolume),
// pkg/registry/core/persistentvolume/strategy.go, pkg/apis/core/validation/validation.go
// (ValidatePersistentVolume, ValidatePersistentVolumeSpec), printers.go (printPersistentVolume).
import { FieldPath, forbiddenField, notSupported, required, formatTime } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, StrategyContext, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { ObjectReference } from './binding.ts';
import { keepField } from './keep-field.ts';
import { hasInvalidLabelValue, validateNodeSelector } from './node-selector-validation.ts';
import type { NodeSelector, ResourceList } from './pod/types.ts';
import {
  accessModesText,
  quantityCell,
  storageClassOf,
  validateAccessModes,
  validatePositiveQuantity,
  validateVolumeMode,
} from './volume-access.ts';
import type { PersistentVolumeAccessMode, PersistentVolumeMode } from './volume-access.ts';

export type PersistentVolumeReclaimPolicy = 'Retain' | 'Delete' | 'Recycle';
export type PersistentVolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';

export interface CSIPersistentVolumeSource {
  driver: string;
  volumeHandle: string;
  readOnly?: boolean;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
  controllerPublishSecretRef?: { name?: string; namespace?: string };
  nodeStageSecretRef?: { name?: string; namespace?: string };
  nodePublishSecretRef?: { name?: string; namespace?: string };
  controllerExpandSecretRef?: { name?: string; namespace?: string };
  nodeExpandSecretRef?: { name?: string; namespace?: string };
}

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: PersistentVolumeAccessMode[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: PersistentVolumeReclaimPolicy;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: PersistentVolumeMode;
  nodeAffinity?: { required?: NodeSelector };
  volumeAttributesClassName?: string;
  hostPath?: { path: string; type?: string };
  local?: { path: string; fsType?: string };
  nfs?: { server: string; path: string; readOnly?: boolean };
  csi?: CSIPersistentVolumeSource;
  /** The in-tree sources Drydock stores but never mounts (gcePersistentDisk, iscsi, ...). */
  [source: string]: unknown;
}

export interface PersistentVolumeStatus {
  phase?: PersistentVolumePhase;
  message?: string;
  reason?: string;
  lastPhaseTransitionTime?: string;
}

export interface PersistentVolume extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'PersistentVolume';
  metadata: ObjectMeta;
  spec?: PersistentVolumeSpec;
  status?: PersistentVolumeStatus;
}

// ValidatePersistentVolumeSpec's order: the second source found is the one reported.
export const persistentVolumeSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi',
  'cinder', 'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
  'local', 'storageos', 'csi',
] as const;
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

export function defaultPersistentVolume(pv: PersistentVolume): void {
  const spec = (pv.spec ??= {});
  pv.status ??= {};
  if (!pv.status.phase) pv.status.phase = 'Pending';
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (spec.volumeMode === undefined) spec.volumeMode = 'Filesystem';
}

function validateSource(spec: PersistentVolumeSpec, path: FieldPath, metaPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let found = 0;
  for (const source of persistentVolumeSources) {
    if (spec[source] === undefined || spec[source] === null) continue;
    const sp = path.child(source);
    if (found > 0) {
      errs.push(forbiddenField(sp, 'may not specify more than 1 volume type'));
      continue;
    }
    found++;
    if (source === 'hostPath' && !spec.hostPath?.path) errs.push(required(sp.child('path')));
    if (source === 'local') {
      if (!spec.local?.path) errs.push(required(sp.child('path')));
      // Reported on the annotations, where node affinity lived before it became a field.
      if (!spec.nodeAffinity?.required) errs.push(required(metaPath.child('annotations'), 'Local volume requires node affinity'));
    }
    if (source === 'nfs') {
      if (!spec.nfs?.server) errs.push(required(sp.child('server')));
      if (!spec.nfs?.path) errs.push(required(sp.child('path')));
    }
    if (source === 'csi') {
      if (!spec.csi?.driver) errs.push(required(sp.child('driver')));
      if (!spec.csi?.volumeHandle) errs.push(required(sp.child('volumeHandle')));
    }
  }
  if (found === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** `checkValues` false on an update of a PV whose node affinity already held values that are not label values. */
export function validatePersistentVolume(pv: PersistentVolume, checkValues = true): FieldError[] {
  const metaPath = FieldPath.root('metadata');
  const errs = validateObjectMeta(pv.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const spec = pv.spec ?? {};
  const path = FieldPath.root('spec');
  if (!spec.accessModes?.length) errs.push(required(path.child('accessModes')));
  errs.push(...validateAccessModes(spec.accessModes, path.child('accessModes')));
  const capacity = spec.capacity ?? {};
  if (Object.keys(capacity).length === 0) errs.push(required(path.child('capacity')));
  if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push(notSupported(path.child('capacity'), capacity, ['storage']));
  for (const [name, qty] of Object.entries(capacity)) errs.push(...validatePositiveQuantity(qty, path.child('capacity').key(name)));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !reclaimPolicies.includes(policy)) errs.push(notSupported(path.child('persistentVolumeReclaimPolicy'), policy, reclaimPolicies));
  // Upstream's validateVolumeNodeAffinity: node affinity, when given, says its required terms.
  if (spec.nodeAffinity) {
    const selector = spec.nodeAffinity.required;
    if (selector) errs.push(...validateNodeSelector(selector, path.child('nodeAffinity', 'required'), checkValues));
    else errs.push(required(path.child('nodeAffinity', 'required'), 'must specify required node constraints'));
  }
  errs.push(...validateVolumeMode(spec.volumeMode, path.child('volumeMode')));
  errs.push(...validateSource(spec, path, metaPath));
  return errs;
}

function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pv.metadata, old.metadata), ...validatePersistentVolume(pv, !hasInvalidLabelValue(old.spec?.nodeAffinity?.required))];
  // Upstream reports this one on the bare field name.
  errs.push(...validateImmutableField(pv.spec?.volumeMode, old.spec?.volumeMode, 'volumeMode'));
  // Node affinity may be set on a PV without one, and is then fixed (MutablePVNodeAffinity, alpha in 1.35, is off).
  if (old.spec?.nodeAffinity) errs.push(...validateImmutableField(pv.spec?.nodeAffinity, old.spec.nodeAffinity, 'nodeAffinity'));
  return errs;
}

function setPhaseTransitionTime(pv: PersistentVolume, old: PersistentVolume, ctx: StrategyContext): void {
  const status = (pv.status ??= {});
  const before = old.status ?? {};
  if (before.phase === status.phase && status.lastPhaseTransitionTime === undefined) {
    if (before.lastPhaseTransitionTime !== undefined) status.lastPhaseTransitionTime = before.lastPhaseTransitionTime;
  } else if (before.phase !== status.phase && (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === before.lastPhaseTransitionTime)) {
    status.lastPhaseTransitionTime = formatTime(ctx.now);
  }
}

const pvTable: TablePrinter<PersistentVolume> = {
  columns: [
    nameColumn,
    column('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
    column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes'),
    column(
      'Reclaim Policy',
      'string',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    ),
    column('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase'),
    column(
      'Claim',
      'string',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    ),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
    ageColumn,
    column(
      'VolumeMode',
      'string',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
      1,
    ),
  ],
  cells(pv, now) {
    const claim = pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '';
    const phase = pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? '');
    return [
      pv.metadata.name ?? '',
      quantityCell(pv.spec?.capacity?.['storage']),
      accessModesText(pv.spec?.accessModes),
      pv.spec?.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      storageClassOf(pv),
      pv.spec?.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      translateTimestampSince(pv.metadata.creationTimestamp, now),
      pv.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeDefinition: ResourceDefinition<PersistentVolume> = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultPersistentVolume,
  prepareForCreate(pv, ctx) {
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(ctx.now) };
  },
  prepareForUpdate(pv, old, ctx) {
    if (ctx.subresource === 'status') {
      keepField(pv, old, 'spec');
      setPhaseTransitionTime(pv, old, ctx);
    } else keepField(pv, old, 'status');
  },
  validateCreate: (pv) => validatePersistentVolume(pv),
  validateUpdate: validatePersistentVolumeUpdate,
  validateStatusUpdate: (pv, old) => validateObjectMetaUpdate(pv.metadata, old.metadata),
  table: pvTable,
};
