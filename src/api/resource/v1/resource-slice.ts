// ResourceSlice (resource.k8s.io/v1, cluster-scoped): validation, table, field selectors, definition.
// Upstream: pkg/registry/resource/resourceslice/strategy.go, pkg/apis/resource/validation/validation.go
// (validateResourceSliceSpec, validateDevice), pkg/printers/internalversion/printers.go.
import { FieldPath, invalidValue, required, tooMany } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { ResourceDefinition, StrategyContext, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { formatTime } from '../../../core/index.ts';
import { validateImmutable, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { isDNS1123Subdomain, isValidDNS1123Label, nameIsDNSSubdomain } from '../../validation/names.ts';
import type { Device, DeviceAttribute, ResourceSlice, ResourceSliceSpec } from './types.ts';
import { ResourceLimits as L } from './types.ts';
import { dropDisabledSliceFields } from './disabled-fields.ts';
import { validateNodeSelector } from '../../core/v1/node-selector-validation.ts';
import { validateDNSLabel, validateDeviceTaint, validateDriverName, validateList, validatePoolName, isValidQualifiedName, validateQualifiedName, validateSet } from './validation.ts';

const root = FieldPath.root;
type Errs = FieldError[];

const semverRe =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

function validateNodeName(name: string, path: FieldPath): Errs {
  return isDNS1123Subdomain(name).map((m) => invalidValue(path, name, m));
}

function validateAttribute(a: DeviceAttribute, path: FieldPath): Errs {
  const errs: Errs = [];
  let n = 0;
  if (a.bool !== undefined) n++;
  if (a.int !== undefined) n++;
  if (a.string !== undefined) {
    n++;
    if (a.string.length > L.DeviceAttributeMaxValueLength) errs.push(tooLongAt(path.child('string')));
  }
  if (a.version !== undefined) {
    n++;
    if (!semverRe.test(a.version)) errs.push(invalidValue(path.child('version'), a.version, 'must be a string compatible with semver.org spec 2.0.0'));
    if (a.version.length > L.DeviceAttributeMaxValueLength) errs.push(tooLongAt(path.child('version')));
  }
  if (n === 0) errs.push(invalidValue(path, '', 'exactly one value must be specified'));
  else if (n > 1) errs.push(invalidValue(path, a, 'exactly one value must be specified'));
  return errs;
}

const tooLongAt = (p: FieldPath): FieldError => ({ type: 'FieldValueTooLong', field: String(p), detail: `may not be more than ${L.DeviceAttributeMaxValueLength} bytes`, omitValue: true });

// Paths and messages are built only for a name or value that fails: valid ones are the rule, by the
// thousand (a dynamic-MIG node's slices hold 208 devices, each with a dozen attributes and counters).

/** DNS-label errors for `value`, its path made only when there are some. */
function dnsLabelErrors(value: string, path: () => FieldPath): Errs {
  return isValidDNS1123Label(value) ? [] : validateDNSLabel(value, path());
}

/**
 * A counter set's or a device's consumption of one: the set's name (in `field`: name or counterSet),
 * then its counters, a DNS label each and at most `max` of them.
 */
function counterGroupErrors(name: string | undefined, field: string, counters: Readonly<Record<string, unknown>> | undefined, max: number, p: FieldPath): Errs {
  const errs = name ? dnsLabelErrors(name, () => p.child(field)) : [required(p.child(field), '')];
  const names = Object.keys(counters ?? {});
  if (names.length === 0) errs.push(required(p.child('counters'), ''));
  else if (names.length > max) errs.push(tooMany(p.child('counters'), names.length, max));
  else for (const k of names) if (!isValidDNS1123Label(k)) errs.push(...validateDNSLabel(k, p.child('counters').key(k)));
  return errs;
}

function validateDevice(d: Device, path: FieldPath, perDevice: boolean): Errs {
  const errs = dnsLabelErrors(d.name ?? '', () => path.child('name'));
  const attrs = d.attributes ?? {};
  const caps = d.capacity ?? {};
  const count = Object.keys(attrs).length + Object.keys(caps).length;
  if (count > L.ResourceSliceMaxAttributesAndCapacitiesPerDevice) {
    errs.push(invalidValue(path, count, `the total number of attributes and capacities must not exceed ${L.ResourceSliceMaxAttributesAndCapacitiesPerDevice}`));
  }
  for (const k in attrs) {
    if (!Object.hasOwn(attrs, k)) continue;
    const v = attrs[k] as DeviceAttribute;
    if (isValidQualifiedName(k) && validateAttribute(v, path).length === 0) continue;
    const p = path.child('attributes').key(k);
    errs.push(...validateQualifiedName(k, p), ...validateAttribute(v, p));
  }
  for (const k in caps) {
    if (!Object.hasOwn(caps, k)) continue;
    const v = caps[k] as NonNullable<Device['capacity']>[string];
    if (isValidQualifiedName(k) && !v.requestPolicy) continue;
    const p = path.child('capacity').key(k);
    errs.push(...validateQualifiedName(k, p));
    if (v.requestPolicy && d.allowMultipleAllocations !== true) {
      errs.push({ type: 'FieldValueForbidden', field: String(p.child('requestPolicy')), detail: 'allowMultipleAllocations must be true', omitValue: true });
    }
  }
  if (d.taints !== undefined) errs.push(...validateList(d.taints, L.DeviceTaintsMaxLength, path.child('taints'), validateDeviceTaint));
  if (d.consumesCounters !== undefined) {
    errs.push(
      ...validateSet(d.consumesCounters, L.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, path.child('consumesCounters'), (c, p) =>
        counterGroupErrors(c.counterSet, 'counterSet', c.counters, L.ResourceSliceMaxCountersPerDeviceCounterConsumption, p), (c) => c.counterSet),
    );
  }
  const msg = 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';
  if (perDevice) {
    const set: string[] = [];
    if (d.nodeName !== undefined) {
      if (d.nodeName) {
        set.push('`nodeName`');
        errs.push(...validateNodeName(d.nodeName, path.child('nodeName')));
      } else errs.push(invalidValue(path.child('nodeName'), d.nodeName, 'must not be empty'));
    }
    if (d.nodeSelector) {
      set.push('`nodeSelector`');
      errs.push(...validateNodeSelector(d.nodeSelector, path.child('nodeSelector')));
    }
    if (d.allNodes !== undefined) {
      if (d.allNodes) set.push('`allNodes`');
      else errs.push(invalidValue(path.child('allNodes'), false, 'must be either unset or set to true'));
    }
    if (set.length === 0) errs.push(required(path, msg));
    else if (set.length > 1) errs.push(invalidValue(path, `{${set.join(', ')}}`, msg));
  } else if (d.nodeName !== undefined || d.nodeSelector !== undefined || d.allNodes !== undefined) {
    errs.push(invalidValue(path, null, '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec'));
  }
  return errs;
}

/** validateResourceSliceSpec. */
export function validateResourceSliceSpec(spec: ResourceSliceSpec, old: ResourceSliceSpec | undefined, path: FieldPath): Errs {
  const errs = validateDriverName(spec.driver, path.child('driver'));
  const pool = spec.pool ?? { name: '', generation: 0, resourceSliceCount: 0 };
  errs.push(...validatePoolName(pool.name, path.child('pool', 'name')));
  if (!((pool.resourceSliceCount ?? 0) > 0)) errs.push(invalidValue(path.child('pool', 'resourceSliceCount'), pool.resourceSliceCount ?? 0, 'must be greater than zero'));
  if ((pool.generation ?? 0) < 0) errs.push(invalidValue(path.child('pool', 'generation'), pool.generation, 'must be greater than or equal to zero'));
  if (old) {
    errs.push(...validateImmutable(pool.name, old.pool?.name, path.child('pool', 'name')));
    errs.push(...validateImmutable(spec.driver, old.driver, path.child('driver')));
    errs.push(...validateImmutable(spec.nodeName ?? null, old.nodeName ?? null, path.child('nodeName')));
  }
  const set: string[] = [];
  if (spec.nodeName !== undefined) {
    if (spec.nodeName) {
      set.push('`nodeName`');
      errs.push(...validateNodeName(spec.nodeName, path.child('nodeName')));
    } else errs.push(invalidValue(path.child('nodeName'), '', 'must be either unset or set to a non-empty string'));
  }
  if (spec.nodeSelector) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(spec.nodeSelector, path.child('nodeSelector')));
    const terms = spec.nodeSelector.nodeSelectorTerms ?? [];
    if (terms.length !== 1) errs.push(invalidValue(path.child('nodeSelector', 'nodeSelectorTerms'), terms, 'must have exactly one node selector term'));
  }
  for (const f of ['allNodes', 'perDeviceNodeSelection'] as const) {
    if (spec[f] === undefined) continue;
    if (spec[f]) set.push(`\`${f}\``);
    else errs.push(invalidValue(path.child(f), false, 'must be either unset or set to true'));
  }
  const msg = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
  if (set.length === 0) errs.push(required(path, msg));
  else if (set.length > 1) errs.push(invalidValue(path, `{${set.join(', ')}}`, `${msg}, but multiple fields are set`));
  if (spec.sharedCounters !== undefined && spec.devices !== undefined) errs.push(invalidValue(path, '', 'only one of `sharedCounters` or `devices` is allowed'));
  const limited = (spec.devices ?? []).some((d) => (d.taints ?? []).length > 0 || (d.consumesCounters ?? []).length > 0);
  const maxDevices = limited ? L.ResourceSliceMaxDevicesWithTaintsOrConsumesCounters : L.ResourceSliceMaxDevices;
  errs.push(...validateSet(spec.devices, maxDevices, path.child('devices'), (d, p) => validateDevice(d, p, spec.perDeviceNodeSelection === true), (d) => d.name));
  errs.push(
    ...validateSet(spec.sharedCounters, L.ResourceSliceMaxCounterSets, path.child('sharedCounters'), (c, p) =>
      counterGroupErrors(c.name, 'name', c.counters, L.ResourceSliceMaxCountersPerCounterSet, p), (c) => c.name),
  );
  return errs;
}

/** SetDefaults_DeviceTaint: timeAdded is the write time, truncated to seconds; needs the server clock. */
function stampTaints(slice: ResourceSlice, ctx: StrategyContext): void {
  const now = formatTime(Math.floor(ctx.now / 1000) * 1000);
  // spec is a Go value: a body without it is validated as an empty one (spec.driver: Required value).
  for (const d of slice.spec?.devices ?? []) for (const t of d.taints ?? []) t.timeAdded ??= now;
}

export const resourceSliceTable: TablePrinter<ResourceSlice> = {
  columns: [
    nameColumn,
    column('Node', 'string', 'NodeName identifies the node which provides the resources in this pool. A field selector can be used to list only ResourceSlice objects belonging to a certain node.\n\nThis field can be used to limit access from nodes to ResourceSlices with the same node name. It also indicates to autoscalers that adding new nodes of the same type as some old node might also make new resources available.\n\nExactly one of NodeName, NodeSelector, AllNodes, and PerDeviceNodeSelection must be set. This field is immutable.'),
    column('Driver', 'string', 'Driver identifies the DRA driver providing the capacity information. A field selector can be used to list only ResourceSlice objects with a certain driver name.\n\nMust be a DNS subdomain and should end with a DNS domain owned by the vendor of the driver. It should use only lower case characters. This field is immutable.'),
    column('Pool', 'string', 'Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.'),
    ageColumn,
  ],
  cells: (s, now) => [s.metadata.name ?? '', s.spec.nodeName ?? '', s.spec.driver ?? '', s.spec.pool?.name ?? '', translateTimestampSince(s.metadata.creationTimestamp, now)],
};

export const resourceSliceDefinition: ResourceDefinition<ResourceSlice> = {
  group: 'resource.k8s.io',
  version: 'v1',
  kind: 'ResourceSlice',
  resource: 'resourceslices',
  singular: 'resourceslice',
  namespaced: false,
  hasStatus: false,
  prepareForCreate(s, ctx) {
    dropDisabledSliceFields(s, undefined, ctx.featureGates);
    stampTaints(s, ctx);
  },
  prepareForUpdate(s, old, ctx) {
    dropDisabledSliceFields(s, old, ctx.featureGates);
    stampTaints(s, ctx);
  },
  validateCreate(s) {
    return [...validateObjectMetaCreate(s.metadata, false, root('metadata'), nameIsDNSSubdomain), ...validateResourceSliceSpec(s.spec ?? ({} as ResourceSliceSpec), undefined, root('spec'))];
  },
  validateUpdate(s, old) {
    return [...validateObjectMetaUpdate(s.metadata, old.metadata, root('metadata')), ...validateResourceSliceSpec(s.spec ?? ({} as ResourceSliceSpec), old.spec, root('spec'))];
  },
  table: resourceSliceTable,
  fieldLabels: {
    'spec.nodeName': (s) => s.spec.nodeName ?? '',
    'spec.driver': (s) => s.spec.driver ?? '',
  },
};
