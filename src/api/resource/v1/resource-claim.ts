// ResourceClaim and ResourceClaimTemplate (resource.k8s.io/v1): defaults, strategies (immutable
// spec, status split), status rules, tables and definitions.
// Upstream: pkg/apis/resource/v1/defaults.go, pkg/registry/resource/resourceclaim/strategy.go,
// pkg/registry/resource/resourceclaimtemplate/strategy.go, pkg/apis/resource/validation/validation.go,
// pkg/printers/internalversion/printers.go (printResourceClaim, resourceClaimState).
import { FieldPath, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDeepEqual, validateImmutable, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { nameIsDNSSubdomain, validateAnnotations, validateLabels } from '../../validation/names.ts';
import type { DeviceSubRequest, ExactDeviceRequest, ResourceClaim, ResourceClaimSpec, ResourceClaimStatus, ResourceClaimTemplate } from './types.ts';
import { ResourceLimits as L } from './types.ts';
import { dropDisabledClaimSpecFields, dropDisabledClaimStatusFields } from './disabled-fields.ts';
import {
  gatherRequestNames,
  validateDNSLabel,
  validateDeviceConfiguration,
  validateDriverName,
  validateList,
  validatePoolName,
  validateRequestNameRef,
  validateResourceClaimSpec,
  validateSet,
} from './validation.ts';

const root = FieldPath.root;
type Errs = FieldError[];

function defaultSelection(r: ExactDeviceRequest | DeviceSubRequest): void {
  r.allocationMode ||= 'ExactCount';
  if (r.allocationMode === 'ExactCount' && !r.count) r.count = 1;
  for (const t of r.tolerations ?? []) t.operator ||= 'Equal';
}

/** SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest, SetDefaults_DeviceToleration. */
export function defaultResourceClaimSpec(spec: ResourceClaimSpec | undefined): void {
  for (const r of spec?.devices?.requests ?? []) {
    if (r.exactly) defaultSelection(r.exactly);
    for (const s of r.firstAvailable ?? []) defaultSelection(s);
  }
}

/** resourceClaimState: `deleted` first, then `pending` or `allocated[,reserved]`. */
export function resourceClaimState(claim: ResourceClaim): string {
  const states: string[] = [];
  if (claim.metadata.deletionTimestamp) states.push('deleted');
  if (!claim.status?.allocation) {
    if (!claim.metadata.deletionTimestamp) states.push('pending');
  } else {
    states.push('allocated');
    if ((claim.status.reservedFor ?? []).length > 0) states.push('reserved');
  }
  return states.join(',');
}

const configSources = ['FromClaim', 'FromClass'];

/** validateResourceClaimStatusUpdate. */
export function validateClaimStatus(claim: ResourceClaim, old: ResourceClaim, path: FieldPath): Errs {
  const status: ResourceClaimStatus = claim.status ?? {};
  const prev: ResourceClaimStatus = old.status ?? {};
  const names = gatherRequestNames(claim.spec?.devices);
  const errs = validateSet(status.reservedFor, L.ResourceClaimReservedForMaxSize, path.child('reservedFor'), (r, p) => {
    const e: Errs = [];
    if (!r.resource) e.push(required(p.child('resource'), ''));
    if (!r.name) e.push(required(p.child('name'), ''));
    if (!r.uid) e.push(required(p.child('uid'), ''));
    return e;
  }, (r) => r.uid);
  const allocated = new Set((status.allocation?.devices?.results ?? []).map((r) => `${r.driver}/${r.pool}/${r.device}${r.shareID ? `/${r.shareID}` : ''}`));
  errs.push(
    ...validateSet(status.devices, -1, path.child('devices'), (d, p) => {
      const e = [...validateDriverName(d.driver, p.child('driver')), ...validatePoolName(d.pool, p.child('pool')), ...validateDNSLabel(d.device ?? '', p.child('device'))];
      const id = `${d.driver}/${d.pool}/${d.device}${d.shareID ? `/${d.shareID}` : ''}`;
      if (!allocated.has(id)) e.push(invalidValue(p, id, 'must be an allocated device in the claim'));
      return e;
    }, (d) => `${d.driver}/${d.pool}/${d.device}/${d.shareID ?? ''}`),
  );
  if ((status.reservedFor ?? []).length > 0) {
    if (!status.allocation) errs.push(forbiddenField(path.child('reservedFor'), 'may not be specified when `allocated` is not set'));
    else if (claim.metadata.deletionTimestamp) {
      const before = new Set((prev.reservedFor ?? []).map((r) => JSON.stringify(r)));
      if ((status.reservedFor ?? []).some((r) => !before.has(JSON.stringify(r)))) {
        errs.push(forbiddenField(path.child('reservedFor'), 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  const ap = path.child('allocation');
  if (prev.allocation && status.allocation) errs.push(...validateImmutable(status.allocation, prev.allocation, ap));
  else if (status.allocation) {
    const dp = ap.child('devices');
    errs.push(
      ...validateList(status.allocation.devices?.results, L.AllocationResultsMaxSize, dp.child('results'), (r, p) => [
        ...validateRequestNameRef(r.request ?? '', p.child('request'), names),
        ...validateDriverName(r.driver, p.child('driver')),
        ...validatePoolName(r.pool, p.child('pool')),
        ...validateDNSLabel(r.device ?? '', p.child('device')),
      ]),
      ...validateList(status.allocation.devices?.config, 2 * L.DeviceConfigMaxSize, dp.child('config'), (c, p) => {
        const e: Errs = [];
        if (!c.source) e.push(required(p.child('source'), ''));
        else if (!configSources.includes(c.source)) e.push(notSupported(p.child('source'), c.source, configSources));
        e.push(...validateSet(c.requests, L.DeviceRequestsMaxSize, p.child('requests'), (n, np) => validateRequestNameRef(n, np, names), (n) => n));
        e.push(...validateDeviceConfiguration(c, p));
        return e;
      }),
    );
  }
  return errs;
}

export const resourceClaimTable: TablePrinter<ResourceClaim> = {
  columns: [nameColumn, column('State', 'string', 'A summary of the current state (allocated, pending, reserved, etc.).'), ageColumn],
  cells: (c, now) => [c.metadata.name ?? '', resourceClaimState(c), translateTimestampSince(c.metadata.creationTimestamp, now)],
};

export const resourceClaimDefinition: ResourceDefinition<ResourceClaim> = {
  group: 'resource.k8s.io',
  version: 'v1',
  kind: 'ResourceClaim',
  resource: 'resourceclaims',
  singular: 'resourceclaim',
  namespaced: true,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: (c) => defaultResourceClaimSpec((c.spec ??= {})),
  prepareForCreate(c, ctx) {
    c.status = {};
    dropDisabledClaimSpecFields(c.spec, undefined, ctx.featureGates);
  },
  prepareForUpdate(c, old, ctx) {
    if (ctx.subresource === 'status') {
      c.spec = old.spec;
      dropDisabledClaimStatusFields(c.status, old, ctx.featureGates);
      return;
    }
    if (old.status) c.status = old.status;
    else delete c.status;
    dropDisabledClaimSpecFields(c.spec, old.spec, ctx.featureGates);
  },
  validateCreate(c) {
    return [...validateObjectMetaCreate(c.metadata, true, root('metadata'), nameIsDNSSubdomain), ...validateResourceClaimSpec(c.spec, root('spec'))];
  },
  validateUpdate(c, old) {
    // The spec is immutable; upstream only reports that, without re-validating it.
    return [
      ...validateObjectMetaCreate(c.metadata, true, root('metadata'), nameIsDNSSubdomain),
      ...validateObjectMetaUpdate(c.metadata, old.metadata, root('metadata')),
      ...(isDeepEqual(c.spec, old.spec) ? [] : [invalidValue(root('spec'), c.spec, 'field is immutable')]),
    ];
  },
  validateStatusUpdate(c, old) {
    return [...validateObjectMetaUpdate(c.metadata, old.metadata, root('metadata')), ...validateClaimStatus(c, old, root('status'))];
  },
  table: resourceClaimTable,
};

export const resourceClaimTemplateTable: TablePrinter<ResourceClaimTemplate> = {
  columns: [nameColumn, ageColumn],
  cells: (t, now) => [t.metadata.name ?? '', translateTimestampSince(t.metadata.creationTimestamp, now)],
};

/** ValidateTemplateObjectMeta: only labels and annotations are allowed in the embedded metadata. */
function validateTemplateMeta(meta: ResourceClaimTemplate['spec']['metadata'], path: FieldPath): Errs {
  return [...validateLabels(meta?.labels, path.child('labels')), ...validateAnnotations(meta?.annotations, path.child('annotations'))];
}

export const resourceClaimTemplateDefinition: ResourceDefinition<ResourceClaimTemplate> = {
  group: 'resource.k8s.io',
  version: 'v1',
  kind: 'ResourceClaimTemplate',
  resource: 'resourceclaimtemplates',
  singular: 'resourceclaimtemplate',
  namespaced: true,
  hasStatus: false,
  defaults: (t) => defaultResourceClaimSpec(((t.spec ??= { spec: {} }).spec ??= {})),
  prepareForCreate: (t, ctx) => dropDisabledClaimSpecFields(t.spec?.spec, undefined, ctx.featureGates),
  prepareForUpdate: (t, old, ctx) => dropDisabledClaimSpecFields(t.spec?.spec, old.spec?.spec, ctx.featureGates),
  validateCreate(t) {
    const sp = root('spec');
    return [
      ...validateObjectMetaCreate(t.metadata, true, root('metadata'), nameIsDNSSubdomain),
      ...validateTemplateMeta(t.spec?.metadata, sp.child('metadata')),
      ...validateResourceClaimSpec(t.spec?.spec, sp.child('spec')),
    ];
  },
  validateUpdate(t, old) {
    return [
      ...validateObjectMetaUpdate(t.metadata, old.metadata, root('metadata')),
      ...(isDeepEqual(t.spec, old.spec) ? [] : [invalidValue(root('spec'), t.spec, 'field is immutable')]),
    ];
  },
  table: resourceClaimTemplateTable,
};
