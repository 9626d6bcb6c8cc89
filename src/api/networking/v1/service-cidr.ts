// ServiceCIDR (networking.k8s.io/v1): a range Services' cluster IPs are allocated from. The API
// server keeps the `kubernetes` one for its own --service-cluster-ip-range; more can be added when
// that range fills. Strategy, validation and table as upstream's.
// Upstream: staging/src/k8s.io/api/networking/v1/types.go, pkg/registry/networking/servicecidr/strategy.go,
// pkg/apis/networking/validation/validation.go (ValidateServiceCIDR*), apimachinery/pkg/api/validation/ip.go.
import { FieldPath, formatPrefix, invalidValue, parsePrefix, prefixNetwork, required } from '../../../core/index.ts';
import type { Condition, FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { goStringSlice, invalidGoValue } from '../../workload-template.ts';

export interface ServiceCIDR extends KubeObject {
  metadata: ObjectMeta;
  spec?: { cidrs?: string[] };
  status?: { conditions?: Condition[] };
}

/** The API server's own range, from --service-cluster-ip-range. */
export const defaultServiceCIDRName = 'kubernetes';
/** Held while IPAddresses still need the range (the servicecidrs controller lifts it). */
export const serviceCIDRFinalizer = 'networking.k8s.io/service-cidr-finalizer';

const cidrMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** IsValidCIDR: strict parsing, no host bits, canonical text. */
export function validateCIDR(value: string, path: FieldPath): FieldError[] {
  if (!parsePrefix(value, false)) return [invalidValue(path, value, cidrMessage)];
  const prefix = parsePrefix(value, true);
  if (!prefix) return [invalidValue(path, value, 'must not have leading 0s in IP or prefix length')];
  if (prefix.family === 6 && prefix.address >> 32n === 0xffffn && prefix.bits >= 96) return [invalidValue(path, value, 'must not have an IPv4-mapped IPv6 address')];
  if (prefix.address !== prefixNetwork(prefix)) return [invalidValue(path, value, 'must not have bits set beyond the prefix length')];
  const canonical = formatPrefix(prefix);
  return canonical === value ? [] : [invalidValue(path, value, `must be in canonical form ("${canonical}")`)];
}

const goSpec = (cidrs: readonly string[]): string => `networking.ServiceCIDRSpec{CIDRs:[]string{${cidrs.map((c) => JSON.stringify(c)).join(', ')}}}`;

function validateCIDRs(cidrs: readonly string[], spec: ServiceCIDR['spec'], path: FieldPath): FieldError[] {
  if (cidrs.length === 0) return [required(path, 'at least one CIDR required')];
  if (cidrs.length > 2) return [invalidGoValue(path, spec, goSpec(cidrs), 'may only hold up to 2 values')];
  if (cidrs.length === 2) {
    const families = cidrs.map((c) => parsePrefix(c, false)?.family);
    if (!families[0] || !families[1] || families[0] === families[1]) {
      return [invalidGoValue(path, spec, goSpec(cidrs), 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64')];
    }
  }
  return cidrs.flatMap((c, i) => validateCIDR(c, path.index(i)));
}

const cidrsPath = FieldPath.root('spec').child('cidrs');

/** ValidateServiceCIDRUpdate: the ranges stay, but a single-stack range may gain its other family. */
function validateServiceCIDRUpdate(next: ServiceCIDR, old: ServiceCIDR): FieldError[] {
  const now = next.spec?.cidrs ?? [];
  const was = old.spec?.cidrs ?? [];
  const immutable = (path: FieldPath, value: unknown): FieldError => invalidValue(path, value, 'field is immutable');
  if (now.length === was.length) return now.flatMap((c, i) => (c === was[i] ? [] : [immutable(cidrsPath.index(i), c)]));
  if (was.length === 1 && now.length === 2) {
    return [...(now[0] === was[0] ? [] : [immutable(cidrsPath.index(0), now[0])]), ...validateCIDRs(now, next.spec, cidrsPath)];
  }
  return [invalidGoValue(cidrsPath, now, goStringSlice(now), 'field is immutable')];
}

const serviceCIDRTable: TablePrinter<ServiceCIDR> = {
  columns: [
    nameColumn,
    column('CIDRs', 'string', 'CIDRs defines the IP blocks in CIDR notation (e.g. "192.168.0.0/24" or "2001:db8::/64") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. This field is immutable.'),
    ageColumn,
  ],
  cells: (sc, now) => [sc.metadata.name ?? '', (sc.spec?.cidrs ?? []).join(','), translateTimestampSince(sc.metadata.creationTimestamp, now)],
};

export const serviceCIDRDefinition: ResourceDefinition<ServiceCIDR> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'ServiceCIDR',
  resource: 'servicecidrs',
  singular: 'servicecidr',
  namespaced: false,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  tracksGeneration: false,
  prepareForCreate(sc) {
    delete sc.status;
  },
  prepareForUpdate(sc, old, ctx) {
    if (ctx.subresource === 'status') {
      if (old.spec) sc.spec = old.spec;
      else delete sc.spec;
      return;
    }
    if (old.status) sc.status = old.status;
    else delete sc.status;
  },
  validateCreate: (sc) => validateCIDRs(sc.spec?.cidrs ?? [], sc.spec, cidrsPath),
  validateUpdate: (sc, old) => [...validateObjectMetaUpdate(sc.metadata, old.metadata), ...validateServiceCIDRUpdate(sc, old)],
  validateStatusUpdate: (sc, old) => validateObjectMetaUpdate(sc.metadata, old.metadata),
  table: serviceCIDRTable,
};
