// EndpointSlice (discovery.k8s.io/v1): wire types, defaults, validation and table.
// Upstream: staging/src/k8s.io/api/discovery/v1/types.go, pkg/apis/discovery/v1/defaults.go,
// pkg/apis/discovery/validation/validation.go (ValidateEndpointSlice*), printers.go
// (printEndpointSlice, formatDiscoveryPorts, formatDiscoveryEndpoints).
import { FieldPath, duplicate, invalidValue, notSupported, required, tooMany } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1123Label, isValidPortNum, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/index.ts';
import { validateImmutable } from '../../workload-template.ts';
import { isIPv4 } from '../../core/v1/service-validation.ts';

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string };
  nodeName?: string;
  zone?: string;
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  apiVersion?: 'discovery.k8s.io/v1';
  kind?: 'EndpointSlice';
  metadata: ObjectMeta;
  addressType: AddressType;
  /** No omitempty in Go: an empty slice reads back `endpoints: null`. */
  endpoints: Endpoint[] | null;
  ports?: EndpointSlicePort[];
}

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const endpointSliceControllerName = 'endpointslice-controller.k8s.io';

const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const addressTypes: AddressType[] = ['IPv4', 'IPv6', 'FQDN'];

/** SetDefaults_EndpointPort: a port's name defaults to "" and its protocol to TCP. */
export function defaultEndpointSlice(slice: EndpointSlice): void {
  slice.endpoints ??= null;
  for (const p of slice.ports ?? []) {
    p.name ??= '';
    p.protocol ??= 'TCP';
  }
}

function validateAddress(address: string, type: AddressType, path: FieldPath): FieldError[] {
  if (type === 'IPv4' && !isIPv4(address)) return [invalidValue(path, address, 'must be a valid IPv4 address')];
  if (type === 'IPv6' && !address.includes(':')) return [invalidValue(path, address, 'must be a valid IPv6 address')];
  return [];
}

export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs = validateObjectMeta(slice.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  if (!addressTypes.includes(slice.addressType)) errs.push(slice.addressType ? notSupported(FieldPath.root('addressType'), slice.addressType, addressTypes) : required(FieldPath.root('addressType'), ''));
  const endpoints = slice.endpoints ?? [];
  const ep = FieldPath.root('endpoints');
  if (endpoints.length > maxEndpoints) errs.push(tooMany(ep, endpoints.length, maxEndpoints));
  endpoints.forEach((e, i) => {
    const addresses = e.addresses ?? [];
    const p = ep.index(i).child('addresses');
    if (addresses.length === 0) errs.push(required(p, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(tooMany(p, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, slice.addressType, p.index(j))));
  });
  const ports = slice.ports ?? [];
  const pp = FieldPath.root('ports');
  if (ports.length > maxPorts) errs.push(tooMany(pp, ports.length, maxPorts));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = pp.index(i);
    const name = port.name ?? '';
    if (name !== '') for (const msg of isDNS1123Label(name)) errs.push(invalidValue(p.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
    if (!port.protocol) errs.push(required(p.child('protocol'), ''));
    else if (!['TCP', 'UDP', 'SCTP'].includes(port.protocol)) errs.push(notSupported(p.child('protocol'), port.protocol, ['SCTP', 'TCP', 'UDP']));
    if (port.port !== undefined) for (const msg of isValidPortNum(port.port)) errs.push(invalidValue(p.child('port'), port.port, msg));
  });
  return errs;
}

/** listWithMoreString: the first three, then "+ N more..."; `<unset>` when empty. */
function listWithMore(items: readonly string[]): string {
  const max = 3;
  if (items.length > max) return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
  return items.length > 0 ? items.join(',') : '<unset>';
}

const endpointSliceTable: TablePrinter<EndpointSlice> = {
  columns: [
    nameColumn,
    column('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.'),
    column('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.'),
    column('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.'),
    ageColumn,
  ],
  cells: (s, now) => [
    s.metadata.name ?? '',
    s.addressType,
    listWithMore((s.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name ? p.name : '*'))),
    listWithMore((s.endpoints ?? []).flatMap((e) => e.addresses ?? [])),
    translateTimestampSince(s.metadata.creationTimestamp, now),
  ],
};

export const endpointSliceDefinition: ResourceDefinition<EndpointSlice> = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  hasStatus: false,
  defaults: defaultEndpointSlice,
  validateCreate: validateEndpointSlice,
  validateUpdate: (s, old) => [...validateEndpointSlice(s), ...validateObjectMetaUpdate(s.metadata, old.metadata), ...validateImmutable(s.addressType, old.addressType, FieldPath.root('addressType'))],
  table: endpointSliceTable,
};
