// ResourceQuota (core/v1): wire types, validation, status split and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/validation/validation.go
// (ValidateResourceQuota, validateResourceQuotaScopes), pkg/registry/core/resourcequota/strategy.go,
// printers.go (printResourceQuota).
import { FieldPath, invalidValue, notSupported, parseQuantity } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isQualifiedName, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/index.ts';

export type ResourceQuotaScope = 'Terminating' | 'NotTerminating' | 'BestEffort' | 'NotBestEffort' | 'PriorityClass' | 'CrossNamespacePodAffinity' | 'VolumeAttributesClass';

export interface ScopedResourceSelectorRequirement {
  scopeName: ResourceQuotaScope;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface ResourceQuota extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ResourceQuota';
  metadata: ObjectMeta;
  spec?: { hard?: Record<string, string>; scopes?: ResourceQuotaScope[]; scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] } };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

const scopes: ResourceQuotaScope[] = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];

function validateResourceList(list: Readonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(list ?? {})) {
    const p = path.key(name);
    for (const msg of isQualifiedName(name)) errs.push(invalidValue(p, name, msg));
    const q = parseQuantity(String(value));
    if (!q) errs.push(invalidValue(p, value, 'must be a valid quantity'));
    else if (q.milli < 0n) errs.push(invalidValue(p, value, 'must be greater than or equal to 0'));
  }
  return errs;
}

function validateSpec(rq: ResourceQuota): FieldError[] {
  const spec = FieldPath.root('spec');
  const errs = validateResourceList(rq.spec?.hard, spec.child('hard'));
  (rq.spec?.scopes ?? []).forEach((s, i) => {
    if (!scopes.includes(s)) errs.push(notSupported(spec.child('scopes').index(i), s, scopes));
  });
  (rq.spec?.scopeSelector?.matchExpressions ?? []).forEach((r, i) => {
    const p = spec.child('scopeSelector', 'matchExpressions').index(i);
    if (!scopes.includes(r.scopeName)) errs.push(notSupported(p.child('scopeName'), r.scopeName, scopes));
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) errs.push(notSupported(p.child('operator'), r.operator, ['In', 'NotIn', 'Exists', 'DoesNotExist']));
  });
  return errs;
}

/** printResourceQuota: `resource: used/hard` for every hard resource, limits.* in their own column. */
function quotaCells(rq: ResourceQuota): [string, string] {
  const hard = rq.status?.hard ?? {};
  const used = rq.status?.used ?? {};
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const cell = `${name}: ${used[name] ?? '0'}/${hard[name]}`;
    (name.split('.')[0] === 'limits' && name.includes('.') ? limits : requests).push(cell);
  }
  return [requests.join(', '), limits.join(', ')];
}

const resourceQuotaTable: TablePrinter<ResourceQuota> = {
  columns: [
    nameColumn,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    ageColumn,
  ],
  cells: (rq, now) => [rq.metadata.name ?? '', ...quotaCells(rq), translateTimestampSince(rq.metadata.creationTimestamp, now)],
};

export const resourceQuotaDefinition: ResourceDefinition<ResourceQuota> = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  prepareForCreate(rq) {
    delete rq.status;
  },
  prepareForUpdate(rq, old, ctx) {
    if (ctx.subresource === 'status') {
      if (old.spec) rq.spec = old.spec;
      else delete rq.spec;
      return;
    }
    if (old.status) rq.status = old.status;
    else delete rq.status;
  },
  validateCreate: (rq) => [...validateObjectMeta(rq.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateSpec(rq)],
  validateUpdate: (rq, old) => [...validateObjectMetaUpdate(rq.metadata, old.metadata), ...validateSpec(rq)],
  validateStatusUpdate: (rq, old) => [
    ...validateObjectMetaUpdate(rq.metadata, old.metadata),
    ...validateResourceList(rq.status?.hard, FieldPath.root('status').child('hard')),
    ...validateResourceList(rq.status?.used, FieldPath.root('status').child('used')),
  ],
  table: resourceQuotaTable,
};
