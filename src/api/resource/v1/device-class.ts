// DeviceClass (resource.k8s.io/v1, cluster-scoped): validation, table and definition.
// Upstream: pkg/registry/resource/deviceclass/strategy.go, pkg/apis/resource/validation/validation.go
// (ValidateDeviceClass), pkg/printers/internalversion/printers.go (printDeviceClass).
import { FieldPath, invalidValue } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { isDNS1123Subdomain } from '../../validation/names.ts';
import { isExtendedResourceName } from '../../core/v1/pod/container-validation.ts';
import type { ValidateNameFunc } from '../../validation/names.ts';
import type { DeviceClass, DeviceClassSpec } from './types.ts';
import { ResourceLimits as L } from './types.ts';
import { dropDisabledClassFields } from './disabled-fields.ts';
import { storedExpressions, validateDeviceConfiguration, validateList, validateSelectors } from './validation.ts';

const root = FieldPath.root;

/** validate.LongName: a DNS subdomain. */
const longName: ValidateNameFunc = (name) => isDNS1123Subdomain(name);

/** On update, the selectors the class already had count as "stored" and compile leniently, as upstream. */
export function validateDeviceClassSpec(spec: DeviceClassSpec | undefined, path: FieldPath, old?: DeviceClassSpec): FieldError[] {
  const s = spec ?? {};
  const errs = [
    ...validateSelectors(s.selectors, path.child('selectors'), old ? storedExpressions(old.selectors) : undefined),
    ...validateList(s.config, L.DeviceConfigMaxSize, path.child('config'), validateDeviceConfiguration),
  ];
  if (s.extendedResourceName !== undefined && !isExtendedResourceName(s.extendedResourceName)) {
    errs.push(invalidValue(path.child('extendedResourceName'), s.extendedResourceName, 'must be a valid extended resource name'));
  }
  return errs;
}

export const deviceClassTable: TablePrinter<DeviceClass> = {
  columns: [nameColumn, ageColumn],
  cells: (c, now) => [c.metadata.name ?? '', translateTimestampSince(c.metadata.creationTimestamp, now)],
};

export const deviceClassDefinition: ResourceDefinition<DeviceClass> = {
  group: 'resource.k8s.io',
  version: 'v1',
  kind: 'DeviceClass',
  resource: 'deviceclasses',
  singular: 'deviceclass',
  namespaced: false,
  hasStatus: false,
  prepareForCreate: (c, ctx) => dropDisabledClassFields(c, undefined, ctx.featureGates),
  prepareForUpdate: (c, old, ctx) => dropDisabledClassFields(c, old, ctx.featureGates),
  validateCreate(c) {
    return [...validateObjectMetaCreate(c.metadata, false, root('metadata'), longName), ...validateDeviceClassSpec(c.spec, root('spec'))];
  },
  validateUpdate(c, old) {
    return [
      ...validateObjectMetaCreate(c.metadata, false, root('metadata'), longName),
      ...validateObjectMetaUpdate(c.metadata, old.metadata, root('metadata')),
      ...validateDeviceClassSpec(c.spec, root('spec'), old.spec ?? {}),
    ];
  },
  table: deviceClassTable,
};
