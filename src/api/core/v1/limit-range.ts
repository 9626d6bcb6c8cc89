// LimitRange (core/v1): per-namespace defaults and bounds for container, pod and claim resources,
// which the LimitRanger admission plugin applies; validation in upstream's words and its table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/validation/validation.go
// (ValidateLimitRange), printers.go (printLimitRange).
import { FieldPath, compareQuantities, duplicate, forbiddenField, formatQuantity, invalidValue, isQualifiedName, parseQuantity, quantityMilliValue, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta, Quantity } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { column, nameColumn } from '../../table-cells.ts';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/index.ts';
import { isOvercommitAllowed, validateResourceName } from './pod/container-validation.ts';

export type LimitType = 'Pod' | 'Container' | 'PersistentVolumeClaim';

export interface LimitRangeItem {
  type: string;
  max?: Record<string, string>;
  min?: Record<string, string>;
  default?: Record<string, string>;
  defaultRequest?: Record<string, string>;
  maxLimitRequestRatio?: Record<string, string>;
}

export interface LimitRange extends KubeObject {
  metadata: ObjectMeta;
  spec?: { limits?: LimitRangeItem[] };
}

const standardLimitTypes = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
// IsStandardResourceName: what a non-container limit may name without a domain.
const standardResources = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage']);

function validateTypeName(value: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalidValue(path, value, msg));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !standardLimitTypes.has(value)) return [invalidValue(path, value, 'must be a standard limit type or fully qualified')];
  return [];
}

function validateLimitResourceName(type: string, name: string, path: FieldPath): FieldError[] {
  if (type === 'Pod' || type === 'Container') return validateResourceName(name, path, 'container');
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !standardResources.has(name) && !name.startsWith('hugepages-')) return [invalidValue(path, name, 'must be a standard resource type or fully qualified')];
  return [];
}

/** ValidateLimitRange. */
export function validateLimitRangeSpec(limits: readonly LimitRangeItem[]): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  const limitsPath = FieldPath.root('spec').child('limits');
  limits.forEach((limit, i) => {
    const path = limitsPath.index(i);
    errs.push(...validateTypeName(limit.type ?? '', path.child('type')));
    if (types.has(limit.type)) errs.push(duplicate(path.child('type'), limit.type));
    types.add(limit.type);
    const quantities = new Map<string, Map<string, Quantity>>();
    const keys = new Set<string>();
    const collect = (field: keyof Omit<LimitRangeItem, 'type'>): void => {
      const found = new Map<string, Quantity>();
      for (const [name, text] of Object.entries(limit[field] ?? {})) {
        errs.push(...validateLimitResourceName(limit.type, name, path.child(field).key(name)));
        keys.add(name);
        const q = parseQuantity(String(text));
        if (q) found.set(name, q);
      }
      quantities.set(field, found);
    };
    collect('max');
    collect('min');
    if (limit.type === 'Pod') {
      if (Object.keys(limit.default ?? {}).length > 0) errs.push(forbiddenField(path.child('default'), "may not be specified when `type` is 'Pod'"));
      if (Object.keys(limit.defaultRequest ?? {}).length > 0) errs.push(forbiddenField(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      collect('default');
      collect('defaultRequest');
    }
    if (limit.type === 'PersistentVolumeClaim' && limit.min?.storage === undefined && limit.max?.storage === undefined) {
      errs.push(required(path.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    collect('maxLimitRequestRatio');
    for (const name of [...keys].sort()) {
      const get = (field: string): Quantity | undefined => quantities.get(field)?.get(name);
      const [min, max, def, defReq, ratio] = [get('min'), get('max'), get('default'), get('defaultRequest'), get('maxLimitRequestRatio')];
      const text = (q: Quantity): string => formatQuantity(q);
      if (min && max && compareQuantities(min, max) > 0) errs.push(invalidValue(path.child('min').key(name), text(min), `min value ${text(min)} is greater than max value ${text(max)}`));
      if (defReq && min && compareQuantities(min, defReq) > 0) errs.push(invalidValue(path.child('defaultRequest').key(name), text(defReq), `min value ${text(min)} is greater than default request value ${text(defReq)}`));
      if (defReq && max && compareQuantities(defReq, max) > 0) errs.push(invalidValue(path.child('defaultRequest').key(name), text(defReq), `default request value ${text(defReq)} is greater than max value ${text(max)}`));
      if (defReq && def && compareQuantities(defReq, def) > 0) errs.push(invalidValue(path.child('defaultRequest').key(name), text(defReq), `default request value ${text(defReq)} is greater than default limit value ${text(def)}`));
      if (def && min && compareQuantities(min, def) > 0) errs.push(invalidValue(path.child('default').key(name), text(min), `min value ${text(min)} is greater than default value ${text(def)}`));
      if (def && max && compareQuantities(def, max) > 0) errs.push(invalidValue(path.child('default').key(name), text(max), `default value ${text(def)} is greater than max value ${text(max)}`));
      if (ratio && compareQuantities(ratio, parseQuantity('1') as Quantity) < 0) errs.push(invalidValue(path.child('maxLimitRequestRatio').key(name), text(ratio), `ratio ${text(ratio)} is less than 1`));
      if (ratio && min && max) {
        const limit = quantityMilliValue(max) / quantityMilliValue(min);
        if (quantityMilliValue(ratio) / 1000 > limit) errs.push(invalidValue(path.child('maxLimitRequestRatio').key(name), text(ratio), `ratio ${text(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
      }
      if (!isOvercommitAllowed(name) && def && defReq && compareQuantities(def, defReq) !== 0) {
        errs.push(invalidValue(path.child('defaultRequest').key(name), text(defReq), `default value ${text(def)} must equal to defaultRequest value ${text(defReq)} in ${name}`));
      }
    }
  });
  return errs;
}

// Go writes a ResourceList's keys sorted.
const sortedKeys = (list: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(list).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * SetDefaults_LimitRangeItem: a Container item's default limit falls back to its max, and its
 * default request to the default limit, then to its min; so `describe` shows, and LimitRanger
 * applies, what upstream stores.
 */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const limit = sortedKeys({ ...item.max, ...item.default });
    const request = sortedKeys({ ...item.min, ...limit, ...item.defaultRequest });
    if (Object.keys(limit).length > 0) item.default = limit;
    if (Object.keys(request).length > 0) item.defaultRequest = request;
  }
}

const limitRangeTable: TablePrinter<LimitRange> = {
  columns: [nameColumn, column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata')],
  cells: (lr) => [lr.metadata.name ?? '', lr.metadata.creationTimestamp ?? ''],
};

export const limitRangeDefinition: ResourceDefinition<LimitRange> = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  resource: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  hasStatus: false,
  defaults: defaultLimitRange,
  validateCreate: (lr) => [...validateObjectMeta(lr.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateLimitRangeSpec(lr.spec?.limits ?? [])],
  validateUpdate: (lr, old) => [...validateObjectMetaUpdate(lr.metadata, old.metadata), ...validateLimitRangeSpec(lr.spec?.limits ?? [])],
  table: limitRangeTable,
};

