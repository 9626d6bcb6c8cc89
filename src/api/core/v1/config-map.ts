// ConfigMap (core/v1): wire types, validation (keys, size, immutability) and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/registry/core/configmap/strategy.go,
// pkg/apis/core/validation/validation.go (ValidateConfigMap, ValidateConfigMapUpdate).
import { FieldPath, forbiddenField, invalidValue, tooLong } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { byteLength, isConfigMapKey, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isDeepEqual } from '../../workload-template.ts';

export interface ConfigMap extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ConfigMap';
  metadata: ObjectMeta;
  immutable?: boolean;
  data?: Record<string, string>;
  /** Values are base64 on the wire. */
  binaryData?: Record<string, string>;
}

/** core.MaxSecretSize, which ConfigMaps share. */
export const maxSecretSize = 1024 * 1024;
export const immutableFieldMessage = 'field is immutable when `immutable` is set';

/** Decoded length of a base64 value, as Go counts the []byte. */
export function base64DecodedLength(b64: string): number {
  const clean = b64.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateObjectMeta(cm.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  let total = 0;
  const dataPath = FieldPath.root('data');
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(invalidValue(dataPath.key(key), key, msg));
    if (cm.binaryData && Object.hasOwn(cm.binaryData, key)) errs.push(invalidValue(dataPath.key(key), key, 'duplicate of key present in binaryData'));
    total += byteLength(value);
  }
  const binaryPath = FieldPath.root('binaryData');
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(invalidValue(binaryPath.key(key), key, msg));
    total += base64DecodedLength(value);
  }
  // The empty path: the error refers to the whole object.
  if (total > maxSecretSize) errs.push(tooLong('', maxSecretSize));
  return errs;
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata);
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(forbiddenField('immutable', immutableFieldMessage));
    if (!isDeepEqual(cm.data, old.data)) errs.push(forbiddenField('data', immutableFieldMessage));
    if (!isDeepEqual(cm.binaryData, old.binaryData)) errs.push(forbiddenField('binaryData', immutableFieldMessage));
  }
  return [...errs, ...validateConfigMap(cm)];
}

const configMapTable: TablePrinter<ConfigMap> = {
  columns: [
    nameColumn,
    column(
      'Data',
      'string',
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    ageColumn,
  ],
  cells: (cm, now) => [
    cm.metadata.name ?? '',
    Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    translateTimestampSince(cm.metadata.creationTimestamp, now),
  ],
};

export const configMapDefinition: ResourceDefinition<ConfigMap> = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  hasStatus: false,
  validateCreate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
  table: configMapTable,
};
