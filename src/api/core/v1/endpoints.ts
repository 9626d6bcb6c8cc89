// Endpoints (core/v1, deprecated in 1.33 in favour of EndpointSlice but still served and kept by the
// endpoints controller): wire types, validation, table and the deprecation warning every request gets.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/validation/validation.go
// (ValidateEndpoints), printers.go (printEndpoints, formatEndpoints), pkg/registry/core/endpoint.
import { FieldPath, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isValidPortNum, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/index.ts';
import { invalidIPMessage, isIP } from './service-validation.ts';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string; fieldPath?: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Endpoints';
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}

const protocols = ['SCTP', 'TCP', 'UDP'];

function validateSubsets(subsets: readonly EndpointSubset[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  subsets.forEach((ss, i) => {
    const p = path.index(i);
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [field, list] of [['addresses', ss.addresses], ['notReadyAddresses', ss.notReadyAddresses]] as const) {
      (list ?? []).forEach((a, j) => {
        if (!isIP(a.ip ?? '')) errs.push(invalidValue(p.child(field).index(j).child('ip'), a.ip ?? '', invalidIPMessage));
      });
    }
    (ss.ports ?? []).forEach((port, j) => {
      const pp = p.child('ports').index(j);
      for (const msg of isValidPortNum(port.port)) errs.push(invalidValue(pp.child('port'), port.port, msg));
      if (!port.protocol) errs.push(required(pp.child('protocol'), ''));
      else if (!protocols.includes(port.protocol)) errs.push(notSupported(pp.child('protocol'), port.protocol, protocols));
    });
  });
  return errs;
}

/** formatEndpoints: up to three ip:port pairs, then "+ N more...". */
export function formatEndpoints(endpoints: Endpoints): string {
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  let more = false;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const targets = ss.ports?.length ? ss.ports.map((p) => p.port) : [undefined];
    for (const port of targets) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(port === undefined ? a.ip : a.ip.includes(':') ? `[${a.ip}]:${port}` : `${a.ip}:${port}`);
      }
    }
  }
  const text = list.join(',');
  return more ? `${text} + ${count - max} more...` : text;
}

const endpointsTable: TablePrinter<Endpoints> = {
  columns: [
    nameColumn,
    column('Endpoints', 'string', "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service."),
    ageColumn,
  ],
  cells: (ep, now) => [ep.metadata.name ?? '', formatEndpoints(ep), translateTimestampSince(ep.metadata.creationTimestamp, now)],
};

export const endpointsDeprecationWarning = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

export const endpointsDefinition: ResourceDefinition<Endpoints> = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  hasStatus: false,
  deprecationWarning: endpointsDeprecationWarning,
  defaults(ep) {
    for (const ss of ep.subsets ?? []) for (const p of ss.ports ?? []) p.protocol ??= 'TCP';
  },
  validateCreate: (ep) => [...validateObjectMeta(ep.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateSubsets(ep.subsets ?? [], FieldPath.root('subsets'))],
  validateUpdate: (ep, old) => [...validateObjectMetaUpdate(ep.metadata, old.metadata), ...validateSubsets(ep.subsets ?? [], FieldPath.root('subsets'))],
  table: endpointsTable,
};
