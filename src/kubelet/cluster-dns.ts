// What the cluster's DNS Service answers a pod, from the objects the kubelets watch: CoreDNS's
// kubernetes plugin as kubeadm configures it (zone cluster.local, `pods insecure`). Services answer
// <svc>.<ns>.svc with their cluster IPs, a headless one with its ready endpoints' addresses,
// <hostname>.<svc>.<ns>.svc with one endpoint's, an ExternalName one with a CNAME; <a-b-c-d>.<ns>.pod
// with the address it spells. A name outside the zone would go to the node's upstream servers,
// which a simulated cluster does not have: SERVFAIL.
// Upstream: coredns plugin/kubernetes (kubernetes.go Records, findServices, findPods, endpointHostname;
// parse.go parseRequest; object/endpoint.go EndpointSliceToEndpoints).
import { isIPv4, isIPv6 } from 'node:net';
import { serviceNameLabel } from '../api/index.ts';
import type { EndpointSlice, Service } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { clusterDomain } from './pod-dns.ts';

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL';
export type RecordType = 'A' | 'AAAA';
export interface DnsRecord {
  readonly name: string;
  readonly type: RecordType | 'CNAME';
  readonly value: string;
}
export interface DnsAnswer {
  readonly rcode: Rcode;
  readonly records: readonly DnsRecord[];
}

/** The objects the answers come from, as the kubelets' informers hold them. */
export interface ClusterDnsView {
  namespaceExists(name: string): boolean;
  service(namespace: string, name: string): DeepReadonly<Service> | undefined;
  /** The EndpointSlices of a Service (labelled kubernetes.io/service-name). */
  endpointSlices(namespace: string, service: string): readonly DeepReadonly<EndpointSlice>[];
  /** The Service that has `ip` among its cluster IPs, for reverse (PTR) answers. */
  serviceWithIP(ip: string): DeepReadonly<Service> | undefined;
}

/** The PTR answer for an address: a Service's name for its cluster IP (CoreDNS serviceRecordForIP); undefined: NXDOMAIN. */
export function reverseName(ip: string, view: ClusterDnsView): string | undefined {
  const svc = view.serviceWithIP(ip);
  return svc ? `${svc.metadata.name ?? ''}.${svc.metadata.namespace ?? ''}.svc.${clusterDomain}` : undefined;
}

const nxdomain: DnsAnswer = { rcode: 'NXDOMAIN', records: [] };
const nodata: DnsAnswer = { rcode: 'NOERROR', records: [] };

/** The answer to a query of `type` for `qname`. */
export function answerQuery(qname: string, type: RecordType, view: ClusterDnsView): DnsAnswer {
  const name = qname.replace(/\.$/, '').toLowerCase();
  if (name !== clusterDomain && !name.endsWith(`.${clusterDomain}`)) return { rcode: 'SERVFAIL', records: [] };
  const labels = name === clusterDomain ? [] : name.slice(0, -clusterDomain.length - 1).split('.');
  if (labels.length === 0) return nodata;
  const kind = labels.at(-1);
  if (kind !== 'svc' && kind !== 'pod') return nxdomain;
  const [namespace, service, endpoint, ...more] = labels.slice(0, -1).reverse();
  if (more.length > 0) return nxdomain;
  if (namespace === undefined) return nodata;
  if (!view.namespaceExists(namespace)) return nxdomain;
  if (service === undefined) return nodata;
  const records = kind === 'pod' ? podRecords(service, endpoint) : serviceRecords(view, namespace, service, endpoint);
  if (records === undefined) return nxdomain;
  return { rcode: 'NOERROR', records: records.filter((r) => r.type === 'CNAME' || r.type === type).map((r) => ({ ...r, name: qname.replace(/\.$/, '') })) };
}

/** `pods insecure`: <a-b-c-d>.<ns>.pod answers the address its name spells, whatever pod has it. */
function podRecords(label: string, extra: string | undefined): DnsRecord[] | undefined {
  if (extra !== undefined) return undefined;
  const ip = (label.match(/-/g) ?? []).length === 3 && !label.includes('--') ? label.replaceAll('-', '.') : label.replaceAll('-', ':');
  if (isIPv4(ip)) return [{ name: '', type: 'A', value: ip }];
  if (isIPv6(ip)) return [{ name: '', type: 'AAAA', value: ip }];
  return undefined;
}

/** findServices: undefined where CoreDNS finds no items (NXDOMAIN). */
function serviceRecords(view: ClusterDnsView, namespace: string, name: string, endpoint: string | undefined): DnsRecord[] | undefined {
  const svc = view.service(namespace, name);
  if (!svc) return undefined;
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return endpoint === undefined && spec.externalName ? [{ name: '', type: 'CNAME', value: spec.externalName }] : undefined;
  const headless = spec.clusterIP === 'None';
  if (!headless && endpoint === undefined) {
    if ((spec.ports ?? []).length === 0) return undefined;
    return (spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])).map((ip) => addressRecord(ip));
  }
  const out: DnsRecord[] = [];
  for (const slice of view.endpointSlices(namespace, name)) {
    for (const ep of slice.endpoints ?? []) {
      // EndpointSliceToEndpoints: only ready endpoints are addresses (nil counts as ready).
      if (ep.conditions?.ready === false) continue;
      for (const ip of ep.addresses) if (endpoint === undefined || endpoint === endpointHostname(ep.hostname, ip)) out.push(addressRecord(ip));
    }
  }
  return out.length > 0 ? out : undefined;
}

function endpointHostname(hostname: string | undefined, ip: string): string {
  if (hostname) return hostname;
  return ip.includes('.') ? ip.replaceAll('.', '-') : ip.replaceAll(':', '-');
}

function addressRecord(ip: string): DnsRecord {
  return { name: '', type: isIPv6(ip) ? 'AAAA' : 'A', value: ip };
}

/** The view over informers' caches: EndpointSlices by their service-name label. */
export function informerDnsView(sources: {
  namespaces: { getByName(namespace: string | undefined, name: string): unknown };
  services: { getByName(namespace: string | undefined, name: string): DeepReadonly<Service> | undefined; list(): readonly DeepReadonly<Service>[] };
  endpointSlices: { byIndex(index: string, value: string): readonly DeepReadonly<EndpointSlice>[] };
}): ClusterDnsView {
  return {
    namespaceExists: (name) => sources.namespaces.getByName(undefined, name) !== undefined,
    service: (namespace, name) => sources.services.getByName(namespace, name),
    endpointSlices: (namespace, service) => sources.endpointSlices.byIndex(endpointSliceServiceIndex, `${namespace}/${service}`),
    serviceWithIP: (ip) => sources.services.list().find((s) => s.spec?.type !== 'ExternalName' && (s.spec?.clusterIPs ?? []).includes(ip)),
  };
}

export const endpointSliceServiceIndex = 'serviceName';

/** The index key of an EndpointSlice: the namespace and the Service it is labelled with. */
export function endpointSliceServiceKeys(slice: DeepReadonly<EndpointSlice>): string[] {
  const service = slice.metadata.labels?.[serviceNameLabel];
  return service ? [`${slice.metadata.namespace ?? ''}/${service}`] : [];
}
