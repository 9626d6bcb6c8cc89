// IPAddress (networking.k8s.io/v1): one allocated IP, named by the address, pointing at the object
// holding it. The cluster IP allocator writes one per Service IP; whoever holds an IPAddress holds
// the address. Upstream: staging/src/k8s.io/api/networking/v1/types.go,
// pkg/apis/networking/validation/validation.go (ValidateIPAddress*), printers.go (printIPAddress).
import { FieldPath, formatIP, invalidValue, parseIP, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { invalidGoValue } from '../../workload-template.ts';

export interface ParentReference {
  group?: string;
  resource?: string;
  namespace?: string;
  name?: string;
}

export interface IPAddress extends KubeObject {
  metadata: ObjectMeta;
  spec?: { parentRef?: ParentReference };
}

export const ipFamilyLabel = 'ipaddress.kubernetes.io/ip-family';
export const ipManagedByLabel = 'ipaddress.kubernetes.io/managed-by';
/** The managed-by value of the addresses the Service IP allocator holds. */
export const ipAllocatorName = 'ipallocator.k8s.io';

/** The cluster IPs a Service holds (none for headless and ExternalName Services). */
export function serviceClusterIPs(svc: { spec?: { type?: string; clusterIP?: string; clusterIPs?: string[] } }): string[] {
  if (svc.spec?.type === 'ExternalName') return [];
  return (svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : [])).filter((ip) => ip && ip !== 'None');
}

/** Whether `ip` is the allocator's record of a Service's cluster IP (not another holder's address). */
export function isServiceIPRecord(ip: IPAddress): boolean {
  const ref = ip.spec?.parentRef;
  return ip.metadata.labels?.[ipManagedByLabel] === ipAllocatorName && !ref?.group && ref?.resource === 'services';
}

/** The allocator's record of `ip`, held by the Service `namespace/name`. Upstream: ipallocator.go createIPAddress. */
export function serviceIPRecord(ip: string, namespace: string, name: string): IPAddress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: { name: ip, labels: { [ipFamilyLabel]: parseIP(ip, false)?.family === 6 ? 'IPv6' : 'IPv4', [ipManagedByLabel]: ipAllocatorName } },
    spec: { parentRef: { group: '', resource: 'services', namespace, name } },
  };
}

const spec = FieldPath.root('spec');
const ipMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** ValidateIPAddressName: IsValidIP's strict checks (the address in canonical form). */
export function validateIPAddressName(name: string): string[] {
  if (!parseIP(name, false)) return [ipMessage];
  const ip = parseIP(name, true);
  if (!ip) return ['must not have leading 0s'];
  if (ip.mapped) return ['must not be an IPv4-mapped IPv6 address'];
  const canonical = formatIP(ip.family, ip.value);
  return canonical === name ? [] : [`must be in canonical form ("${canonical}")`];
}

function validateParentReference(ref: ParentReference | undefined, spec: FieldPath): FieldError[] {
  if (!ref) return [required(spec.child('parentRef'), '')];
  const path = spec.child('parentRef');
  const errs: FieldError[] = [];
  // The core group of Services is "", so a group is checked only when given.
  if (ref.group) for (const msg of isDNS1123Subdomain(ref.group)) errs.push(invalidValue(path.child('group'), ref.group, msg));
  for (const field of ['resource', 'name'] as const) {
    const value = ref[field];
    if (!value) errs.push(required(path.child(field), ''));
    else for (const msg of isValidPathSegmentName(value)) errs.push(invalidValue(path.child(field), value, msg));
  }
  if (ref.namespace) for (const msg of isValidPathSegmentName(ref.namespace)) errs.push(invalidValue(path.child('namespace'), ref.namespace, msg));
  return errs;
}

/** ValidateImmutableField on the reference, its value printed as Go's %#v of the struct. */
function validateParentUnchanged(ref: ParentReference | undefined, old: ParentReference | undefined): FieldError[] {
  if (validateImmutableField(ref, old, spec.child('parentRef')).length === 0) return [];
  const rendered = ref
    ? `networking.ParentReference{${(['group', 'resource', 'namespace', 'name'] as const).map((k) => `${k[0]?.toUpperCase()}${k.slice(1)}:${JSON.stringify(ref[k] ?? '')}`).join(', ')}}`
    : 'null';
  return [invalidGoValue(spec.child('parentRef'), ref ?? null, rendered, 'field is immutable')];
}

/** printIPAddress: `<resource>[.<group>]/[<namespace>/]<name>`, and an age cell no column names. */
function parentRefCell(ref: ParentReference | undefined): string {
  if (!ref) return '<none>';
  const groupResource = ref.group ? `${ref.resource ?? ''}.${ref.group}` : (ref.resource ?? '');
  return `${groupResource.toLowerCase()}${ref.namespace ? `/${ref.namespace}` : ''}/${ref.name ?? ''}`;
}

const ipAddressTable: TablePrinter<IPAddress> = {
  columns: [nameColumn, column('ParentRef', 'string', 'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.')],
  cells: (ip, now) => [ip.metadata.name ?? '', parentRefCell(ip.spec?.parentRef), translateTimestampSince(ip.metadata.creationTimestamp, now)],
};

export const ipAddressDefinition: ResourceDefinition<IPAddress> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IPAddress',
  resource: 'ipaddresses',
  singular: 'ipaddress',
  namespaced: false,
  shortNames: ['ip'],
  hasStatus: false,
  validateName: (name) => validateIPAddressName(name),
  validateCreate: (ip) => validateParentReference(ip.spec?.parentRef, spec),
  validateUpdate: (ip, old) => [...validateObjectMetaUpdate(ip.metadata, old.metadata), ...validateParentUnchanged(ip.spec?.parentRef, old.spec?.parentRef)],
  table: ipAddressTable,
};
