// PersistentVolumeClaim (core/v1): wire types, defaults, strategy (status split), validation
// (access modes incl. the ReadWriteOncePod rule, storage request, spec immutability) and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go,
// pkg/registry/core/persistentvolumeclaim/strategy.go, pkg/apis/core/validation/validation.go
// (ValidatePersistentVolumeClaimSpec, ValidatePersistentVolumeClaimUpdate), printers.go.
import { FieldPath, forbiddenField, required } from '../../../core/index.ts';
import type { FieldError, Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isDeepEqual, validateLabelSelectorStrict } from '../../workload-template.ts';
import { keepField } from './keep-field.ts';
import type { ResourceList } from './pod/types.ts';
import { accessModesText, quantityCell, storageClassOf, validateAccessModes, validatePositiveQuantity, validateVolumeMode } from './volume-access.ts';
import type { PersistentVolumeAccessMode, PersistentVolumeMode } from './volume-access.ts';

export type PersistentVolumeClaimPhase = 'Pending' | 'Bound' | 'Lost';

export interface TypedObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: PersistentVolumeAccessMode[];
  selector?: LabelSelector;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: PersistentVolumeMode;
  dataSource?: TypedObjectReference;
  dataSourceRef?: TypedObjectReference;
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaimStatus {
  phase?: PersistentVolumeClaimPhase;
  accessModes?: PersistentVolumeAccessMode[];
  capacity?: ResourceList;
  conditions?: Condition[];
  allocatedResources?: ResourceList;
  allocatedResourceStatuses?: Record<string, string>;
  currentVolumeAttributesClassName?: string;
  modifyVolumeStatus?: { targetVolumeAttributesClassName?: string; status: string };
}

export interface PersistentVolumeClaim extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'PersistentVolumeClaim';
  metadata: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  const spec = (pvc.spec ??= {});
  pvc.status ??= {};
  if (!pvc.status.phase) pvc.status.phase = 'Pending';
  if (spec.volumeMode === undefined) spec.volumeMode = 'Filesystem';
}

export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaimSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.accessModes?.length) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  if (spec.selector) errs.push(...validateLabelSelectorStrict(spec.selector, path.child('selector')));
  errs.push(...validateAccessModes(spec.accessModes, path.child('accessModes')));
  // Reported as resources[storage], not resources.requests[storage], upstream.
  const storagePath = path.child('resources').key('storage');
  const storage = spec.resources?.requests?.['storage'];
  if (storage === undefined) errs.push(required(storagePath));
  else errs.push(...validatePositiveQuantity(storage, storagePath));
  errs.push(...validateVolumeMode(spec.volumeMode, path.child('volumeMode')));
  return errs;
}

function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return [
    ...validateObjectMeta(pvc.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }),
    ...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, FieldPath.root('spec')),
  ];
}

/** What may change after creation: binding (volumeName from ""), requests of bound claims, the attributes class. */
function comparableSpec(spec: PersistentVolumeClaimSpec | undefined, old: PersistentVolumeClaim): PersistentVolumeClaimSpec {
  const copy: PersistentVolumeClaimSpec = structuredClone(spec ?? {});
  const before = old.spec ?? {};
  if (!before.volumeName) delete copy.volumeName;
  // Retroactive default class: a claim created with no class at all may get one later.
  if (before.storageClassName === undefined && old.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] === undefined) delete copy.storageClassName;
  if (old.status?.phase === 'Bound') {
    copy.resources = { ...copy.resources };
    delete copy.resources.requests;
  }
  delete copy.volumeAttributesClassName;
  return copy;
}

function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pvc.metadata, old.metadata), ...validatePersistentVolumeClaim(pvc)];
  const beforeSpec = comparableSpec(old.spec, old);
  if (!isDeepEqual(comparableSpec(pvc.spec, old), beforeSpec)) {
    // Upstream appends a Go cmp.Diff of the two specs to this message; we give the sentence alone.
    errs.push(forbiddenField('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  }
  return errs;
}

const pvcTable: TablePrinter<PersistentVolumeClaim> = {
  columns: [
    nameColumn,
    column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    column(
      'Access Modes',
      'string',
      'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
    ),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    column('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', 1),
  ],
  cells(pvc, now) {
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
    const volume = pvc.spec?.volumeName ?? '';
    // Capacity and modes come from the bound volume, so an unbound claim shows them empty.
    const capacity = volume ? quantityCell(pvc.status?.capacity?.['storage']) : '';
    const modes = volume ? accessModesText(pvc.status?.accessModes) : '';
    return [
      pvc.metadata.name ?? '',
      phase,
      volume,
      capacity,
      modes,
      storageClassOf(pvc),
      pvc.spec?.volumeAttributesClassName ?? '<unset>',
      translateTimestampSince(pvc.metadata.creationTimestamp, now),
      pvc.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeClaimDefinition: ResourceDefinition<PersistentVolumeClaim> = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultPersistentVolumeClaim,
  prepareForCreate(pvc) {
    // Stored status is cleared; the phase is what defaulting gives every read.
    pvc.status = { phase: 'Pending' };
  },
  prepareForUpdate(pvc, old, ctx) {
    keepField(pvc, old, ctx.subresource === 'status' ? 'spec' : 'status');
  },
  validateCreate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
  validateStatusUpdate: (pvc, old) => validateObjectMetaUpdate(pvc.metadata, old.metadata),
  table: pvcTable,
};
