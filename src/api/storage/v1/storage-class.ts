// StorageClass (storage.k8s.io/v1): wire types, defaults, validation (provisioner, parameters
// and policies immutable) and table, with the "(default)" marker.
// Upstream: staging/src/k8s.io/api/storage/v1/types.go, pkg/apis/storage/v1/defaults.go,
// pkg/apis/storage/validation/validation.go (ValidateStorageClass), pkg/apis/storage/util/helpers.go,
// printers.go (printStorageClass).
import { FieldPath, forbiddenField, invalidValue, notSupported, required, tooLong } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { byteLength, isQualifiedName, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { PersistentVolumeReclaimPolicy } from '../../core/v1/persistent-volume.ts';
import { isDeepEqual } from '../../workload-template.ts';

export type VolumeBindingMode = 'Immediate' | 'WaitForFirstConsumer';

export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export interface StorageClass extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'StorageClass';
  metadata: ObjectMeta;
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: PersistentVolumeReclaimPolicy;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: VolumeBindingMode;
  allowedTopologies?: TopologySelectorTerm[];
}

export const isDefaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
export const betaIsDefaultStorageClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;
const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** IsDefaultAnnotation: either the GA or the beta annotation set to "true". */
export function isDefaultStorageClass(sc: { metadata: ObjectMeta }): boolean {
  const a = sc.metadata.annotations ?? {};
  return a[isDefaultStorageClassAnnotation] === 'true' || a[betaIsDefaultStorageClassAnnotation] === 'true';
}

/** util.GetDefaultClass: of the default classes, the newest (ties by name), if any. */
export function newestDefaultStorageClass<T extends { readonly metadata: { readonly annotations?: Readonly<Record<string, string>>; readonly creationTimestamp?: string; readonly name?: string } }>(
  classes: readonly T[],
): T | undefined {
  const defaults = classes.filter((c) => isDefaultStorageClass(c as { metadata: ObjectMeta }));
  defaults.sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  return defaults[0];
}

export function defaultStorageClass(sc: StorageClass): void {
  if (sc.reclaimPolicy === undefined) sc.reclaimPolicy = 'Delete';
  if (sc.volumeBindingMode === undefined) sc.volumeBindingMode = 'Immediate';
}

/** validateParameters: keys not empty, at most 512 entries and 256 kB; a VolumeAttributesClass needs one. */
export function validateParameters(params: Readonly<Record<string, string>> | undefined, allowEmpty: boolean, path: FieldPath): FieldError[] {
  const entries = Object.entries(params ?? {});
  // Upstream reports the count as TooLong too.
  if (entries.length > maxProvisionerParameterLen) return [tooLong(path, maxProvisionerParameterLen)];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalidValue(path, k, 'field can not be empty.'));
    total += byteLength(k) + byteLength(v);
  }
  if (total > maxProvisionerParameterSize) errs.push(tooLong(path, maxProvisionerParameterSize));
  if (!allowEmpty && entries.length === 0) errs.push(required(path, 'must contain at least one key/value pair'));
  return errs;
}

/** validateProvisioner: a qualified name (lower-cased first), required. */
export function validateProvisioner(provisioner: string | undefined, path: FieldPath): FieldError[] {
  const value = provisioner ?? '';
  if (value === '') return [required(path, value)];
  return isQualifiedName(value.toLowerCase()).map((msg) => invalidValue(path, value.toLowerCase(), msg));
}

export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateObjectMeta(sc.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  errs.push(...validateProvisioner(sc.provisioner, FieldPath.root('provisioner')));
  errs.push(...validateParameters(sc.parameters, true, FieldPath.root('parameters')));
  if (sc.reclaimPolicy && !reclaimPolicies.includes(sc.reclaimPolicy)) errs.push(notSupported('reclaimPolicy', sc.reclaimPolicy, reclaimPolicies));
  if (sc.volumeBindingMode === undefined) errs.push(required('volumeBindingMode'));
  else if (!bindingModes.includes(sc.volumeBindingMode)) errs.push(notSupported('volumeBindingMode', sc.volumeBindingMode, bindingModes));
  return errs;
}

export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs = validateObjectMetaUpdate(sc.metadata, old.metadata);
  if (!isDeepEqual(sc.parameters, old.parameters)) errs.push(forbiddenField('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(forbiddenField('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(forbiddenField('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
  return [...errs, ...validateStorageClass(sc)];
}

const storageClassTable: TablePrinter<StorageClass> = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    column('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
    column(
      'VolumeBindingMode',
      'string',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
    ),
    column('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    ageColumn,
  ],
  cells: (sc, now) => [
    `${sc.metadata.name ?? ''}${isDefaultStorageClass(sc) ? ' (default)' : ''}`,
    sc.provisioner ?? '',
    sc.reclaimPolicy ?? 'Delete',
    sc.volumeBindingMode ?? 'Immediate',
    sc.allowVolumeExpansion ?? false,
    translateTimestampSince(sc.metadata.creationTimestamp, now),
  ],
};

export const storageClassDefinition: ResourceDefinition<StorageClass> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  resource: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  hasStatus: false,
  defaults: defaultStorageClass,
  validateCreate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
  table: storageClassTable,
};
