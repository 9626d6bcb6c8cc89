// Service (core/v1): wire types, defaults, strategy, table and field selectors. Cluster IPs and
// node ports are the API server's to allocate: it calls prepareService with its allocator.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go (SetDefaults_Service),
// pkg/registry/core/service/strategy.go, pkg/registry/core/service/storage/alloc.go,
// pkg/printers/internalversion/printers.go (printService).
import { serviceProxyConnect, proxyVerbs } from './connect-options.ts';
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import type { FieldError, Random } from '../../../core/index.ts';
import { FieldPath, formatIP, formatLabels, parseIP, parsePrefix, prefixContains, prefixNetwork, prefixSize } from '../../../core/index.ts';
import type { IPPrefix } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { goStringSlice, invalidGoValue } from '../../workload-template.ts';
import { keepField } from './keep-field.ts';
import { defaultClientIPServiceAffinitySeconds, isExternallyAccessible, needsClusterIPPolicy, needsNodePorts } from './service-types.ts';
import type { IPFamily, Service, ServicePort } from './service-types.ts';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from './service-validation.ts';

export type * from './service-types.ts';
export { defaultClientIPServiceAffinitySeconds, isExternallyAccessible, isHeadless, needsNodePorts } from './service-types.ts';

export function defaultService(svc: Service): void {
  // ServiceStatus.loadBalancer is a struct: Go writes {} where a writer left it out.
  if (svc.status) fillZeroFields(svc.status as Record<string, unknown>, zeroFields('', 'v1', 'Service').status);
  const spec = (svc.spec ??= {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of spec.ports ?? []) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (isExternallyAccessible(svc) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && needsClusterIPPolicy(spec.type)) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
  if (spec.type === 'LoadBalancer') {
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip && !ing.ipMode) ing.ipMode = 'VIP';
  }
}

/**
 * The cluster's service IP and node port allocator. Each call either reserves and returns a
 * value, or returns the upstream error text (e.g. `provided IP is already allocated`).
 */
export interface ServiceAllocator {
  readonly primaryFamily: IPFamily;
  allocateClusterIP(requested: string | undefined): { ip: string } | { error: string };
  allocateNodePort(requested: number | undefined): { port: number } | { error: string };
}

/** kube-apiserver's default --service-cluster-ip-range: the `kubernetes` ServiceCIDR's range. */
export const defaultServiceClusterIPRange = '10.96.0.0/12';

export interface ServiceAllocatorOptions {
  /** Where each dynamic allocation starts its scan. */
  random: Random;
  /**
   * The ranges cluster IPs come from: the ready ServiceCIDRs' CIDRs, tried in order. Absent, the
   * API server's own --service-cluster-ip-range.
   */
  serviceCIDRs?: readonly string[];
  /** The node port range (--service-node-port-range). */
  nodePortRange?: { base: number; size: number };
  /** Already allocated values (from stored Services and IPAddresses), which are skipped. */
  usedIPs?: Iterable<string>;
  usedNodePorts?: Iterable<number>;
}

interface AllocatableRange {
  prefix: IPPrefix;
  /** The network and (IPv4) broadcast addresses are never handed out. */
  first: bigint;
  last: bigint;
  /** The lower band's size, kept for static allocations (KEP-3070). */
  offset: bigint;
}

/** min(max(min, size/step), max), 0 for a range of `min` or less (KEP-3070, KEP-3668). */
function rangeOffset(size: bigint, min: bigint, max: bigint, step: bigint): bigint {
  if (size <= min) return 0n;
  const offset = size / step;
  return offset < min ? min : offset > max ? max : offset;
}

function allocatableRange(cidr: string): AllocatableRange | undefined {
  const prefix = parsePrefix(cidr, false);
  if (!prefix) return undefined;
  const network = prefixNetwork(prefix);
  const last = network + prefixSize(prefix) - (prefix.family === 4 ? 2n : 1n);
  return { prefix, first: network + 1n, last, offset: rangeOffset(prefixSize(prefix), 16n, 256n, 16n) };
}

/**
 * The first free value scanning [from, to] from a random point and wrapping, as upstream's
 * ipIterator and randomScanStrategyWithOffset do.
 */
function scanFrom(random: Random, from: bigint, to: bigint, free: (n: bigint) => boolean): bigint | undefined {
  const size = to - from + 1n;
  if (size <= 0n) return undefined;
  const start = size > BigInt(Number.MAX_SAFE_INTEGER) ? 0n : BigInt(random.int(Number(size)));
  for (let i = 0n; i < size; i++) {
    const n = from + ((start + i) % size);
    if (free(n)) return n;
  }
  return undefined;
}

/**
 * The cluster's allocator over the ServiceCIDRs (upstream's MetaAllocator) and the node port range:
 * a dynamic value comes from a random point of the range's upper band, and from its lower band only
 * once the upper is full, so static values (kube-dns's 10.96.0.10, a chosen node port) stay free.
 * Upstream: pkg/registry/core/service/ipallocator/{cidrallocator.go,ipallocator.go},
 * pkg/registry/core/service/portallocator/allocator.go, allocator/bitmap.go (randomScanStrategyWithOffset).
 */
export function serviceAllocator(opts: ServiceAllocatorOptions): ServiceAllocator {
  const ranges = (opts.serviceCIDRs ?? [defaultServiceClusterIPRange]).map(allocatableRange).filter((r): r is AllocatableRange => r?.prefix.family === 4);
  const portBase = opts.nodePortRange?.base ?? 30000;
  const portSize = opts.nodePortRange?.size ?? 2768;
  const ips = new Set(opts.usedIPs ?? []);
  const ports = new Set(opts.usedNodePorts ?? []);
  return {
    primaryFamily: 'IPv4',
    allocateClusterIP(requested) {
      if (requested) {
        const ip = parseIP(requested, false);
        const range = ip && ranges.find((r) => prefixContains(r.prefix, ip));
        if (!ip || !range) return { error: `failed to allocate IP ${requested}: the provided network does not match the current range` };
        if (ip.value < range.first || ip.value > range.last) return { error: `failed to allocate IP ${requested}: provided IP ${requested} is not in the valid range` };
        if (ips.has(requested)) return { error: `failed to allocate IP ${requested}: provided IP is already allocated` };
        ips.add(requested);
        return { ip: requested };
      }
      const free = (n: bigint): boolean => !ips.has(formatIP(4, n));
      for (const range of ranges) {
        const n = scanFrom(opts.random, range.first + range.offset, range.last, free) ?? scanFrom(opts.random, range.first, range.first + range.offset - 1n, free);
        if (n === undefined) continue;
        const ip = formatIP(4, n);
        ips.add(ip);
        return { ip };
      }
      return { error: 'failed to allocate a serviceIP: range is full' };
    },
    allocateNodePort(requested) {
      if (requested !== undefined) {
        if (requested < portBase || requested >= portBase + portSize) {
          return { error: `provided port is not in the valid range. The range of valid ports is ${portBase}-${portBase + portSize - 1}` };
        }
        if (ports.has(requested)) return { error: 'provided port is already allocated' };
        ports.add(requested);
        return { port: requested };
      }
      const free = (n: bigint): boolean => !ports.has(Number(n));
      const base = BigInt(portBase);
      const offset = rangeOffset(BigInt(portSize), 16n, 128n, 32n);
      const n = scanFrom(opts.random, base + offset, base + BigInt(portSize) - 1n, free) ?? scanFrom(opts.random, base, base + offset - 1n, free);
      if (n === undefined) return { error: 'range is full' };
      ports.add(Number(n));
      return { port: Number(n) };
    },
  };
}

function otherFamily(f: IPFamily): IPFamily {
  return f === 'IPv4' ? 'IPv6' : 'IPv4';
}

/** initIPFamilyFields for a single-stack cluster. */
function initIPFamilyFields(svc: Service, primary: IPFamily): void {
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return;
  if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) {
    // Headless without selector: any family the endpoints may carry.
    spec.ipFamilyPolicy ??= 'RequireDualStack';
    if (!spec.ipFamilies?.length) spec.ipFamilies = [primary];
    const first = spec.ipFamilies[0] ?? primary;
    if (spec.ipFamilies.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') spec.ipFamilies.push(otherFamily(first));
    return;
  }
  spec.ipFamilyPolicy ??= 'SingleStack';
  if (!spec.ipFamilies?.length) spec.ipFamilies = [primary];
}

/**
 * The REST layer's allocation for a create (old undefined) or update: clusterIP(s), ipFamilies,
 * ipFamilyPolicy and node ports. Runs after defaults and before validation; returns allocation
 * failures as field errors. Upstream: pkg/registry/core/service/storage/alloc.go.
 */
export function prepareService(svc: Service, old: Service | undefined, alloc: ServiceAllocator): FieldError[] {
  const spec = (svc.spec ??= {});
  const errs: FieldError[] = [];
  if (old && spec.type !== 'ExternalName' && old.spec?.type !== 'ExternalName') {
    // An update that leaves the IPs out keeps the allocated ones (patchAllocatedValues).
    if (!spec.clusterIP && old.spec?.clusterIP) spec.clusterIP = old.spec.clusterIP;
    if (!spec.clusterIPs?.length && old.spec?.clusterIPs) spec.clusterIPs = [...old.spec.clusterIPs];
    if (!spec.ipFamilies?.length && old.spec?.ipFamilies) spec.ipFamilies = [...old.spec.ipFamilies];
    if (!spec.ipFamilyPolicy && old.spec?.ipFamilyPolicy) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    if (needsNodePorts(spec.type) && needsNodePorts(old.spec?.type)) {
      for (const p of spec.ports ?? []) {
        if (p.nodePort) continue;
        const prev = old.spec?.ports?.find((o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
        if (prev?.nodePort) p.nodePort = prev.nodePort;
      }
    }
  }
  if (spec.type === 'ExternalName') {
    delete spec.clusterIP;
    delete spec.clusterIPs;
    delete spec.ipFamilies;
    delete spec.ipFamilyPolicy;
    return errs;
  }
  if (!spec.clusterIPs?.length && spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
  initIPFamilyFields(svc, alloc.primaryFamily);
  const alreadyOwned = old?.spec?.clusterIPs?.[0];
  if (spec.clusterIP !== 'None') {
    const requested = spec.clusterIPs?.[0];
    if (!requested || requested !== alreadyOwned) {
      const r = alloc.allocateClusterIP(requested || undefined);
      if ('error' in r) errs.push(invalidGoValue(FieldPath.root('spec').child('clusterIPs'), spec.clusterIPs ?? [], goStringSlice(spec.clusterIPs ?? []), r.error));
      else {
        spec.clusterIP = r.ip;
        spec.clusterIPs = [r.ip, ...(spec.clusterIPs ?? []).slice(1)];
      }
    }
  } else spec.clusterIPs = ['None'];
  if (needsNodePorts(spec.type) && !(spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === false)) {
    (spec.ports ?? []).forEach((p, i) => {
      const owned = old?.spec?.ports?.some((o) => o.nodePort === p.nodePort && p.nodePort !== undefined);
      if (owned) return;
      const r = alloc.allocateNodePort(p.nodePort || undefined);
      if ('error' in r) errs.push({ type: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`, badValue: p.nodePort ?? 0, detail: r.error });
      else p.nodePort = r.port;
    });
  }
  return errs;
}

/** The node ports a service holds, as a set (sameNodePorts compares these). */
const nodePortsOf = (svc: Service): Set<number> => new Set((svc.spec?.ports ?? []).flatMap((p) => (p.nodePort ? [p.nodePort] : [])));
const needsHealthCheckNodePort = (svc: Service): boolean => svc.spec?.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';

/**
 * dropTypeDependentFields: what the old type needed and the new one does not goes with it, unless
 * the caller changed it too (then validation judges it): node ports (unless net-new ones were added),
 * the health-check node port, allocateLoadBalancerNodePorts, the load balancer class, the external
 * traffic policy, and a load balancer's status.
 */
function dropTypeDependentFields(svc: Service, old: Service): void {
  const spec = svc.spec;
  if (!spec) return;
  const oldNodePorts = nodePortsOf(old);
  if (needsNodePorts(old.spec?.type) && !needsNodePorts(spec.type) && [...nodePortsOf(svc)].every((p) => oldNodePorts.has(p))) {
    for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(svc) && spec.healthCheckNodePort === old.spec?.healthCheckNodePort) delete spec.healthCheckNodePort;
  if (old.spec?.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (spec.loadBalancerClass === old.spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (isExternallyAccessible(old) && !isExternallyAccessible(svc) && spec.externalTrafficPolicy === old.spec?.externalTrafficPolicy) delete spec.externalTrafficPolicy;
  // De-provisioning is asynchronous, but the user need not see a stale ingress.
  if (spec.type !== 'LoadBalancer') svc.status = { ...svc.status, loadBalancer: {} };
}

function loadBalancerStatusText(svc: Service): string {
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  const set = new Set<string>();
  for (const ing of ingress) {
    if (ing.ip) set.add(ing.ip);
    else if (ing.hostname) set.add(ing.hostname);
  }
  // Server-side tables are built wide, so the 16-character clipping never applies.
  return [...set].sort().join(',');
}

/** getServiceExternalIP. */
export function serviceExternalIP(svc: Service): string {
  const external = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerStatusText(svc);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString: `80/TCP` or `80:30080/TCP`. */
export function servicePortsText(ports: readonly ServicePort[] | undefined): string {
  return (ports ?? []).map((p) => (p.nodePort && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
}

const serviceTable: TablePrinter<Service> = {
  columns: [
    nameColumn,
    column(
      'Type',
      'string',
      'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
    ),
    column(
      'Cluster-IP',
      'string',
      'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
    ),
    column(
      'External-IP',
      'string',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
    ),
    column('Port(s)', 'string', 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies'),
    ageColumn,
    column(
      'Selector',
      'string',
      'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
      1,
    ),
  ],
  cells: (svc, now) => [
    svc.metadata.name ?? '',
    svc.spec?.type ?? '',
    svc.spec?.clusterIPs?.[0] ?? '<none>',
    serviceExternalIP(svc),
    servicePortsText(svc.spec?.ports) || '<none>',
    translateTimestampSince(svc.metadata.creationTimestamp, now),
    formatLabels(svc.spec?.selector),
  ],
};

export const serviceDefinition: ResourceDefinition<Service> = {
  group: '',
  version: 'v1',
  kind: 'Service',
  resource: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  subresources: [
    { name: 'proxy', kind: 'ServiceProxyOptions', verbs: proxyVerbs, connect: serviceProxyConnect },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultService,
  prepareForCreate(svc) {
    svc.status = { loadBalancer: {} };
  },
  prepareForUpdate(svc, old, ctx) {
    if (ctx.subresource === 'status') {
      keepField(svc, old, 'spec');
      return;
    }
    keepField(svc, old, 'status');
    dropTypeDependentFields(svc, old);
  },
  validateCreate: validateService,
  validateUpdate: validateServiceUpdate,
  validateStatusUpdate: validateServiceStatusUpdate,
  table: serviceTable,
  fieldLabels: {
    'spec.clusterIP': (svc) => svc.spec?.clusterIP ?? '',
    'spec.type': (svc) => svc.spec?.type ?? '',
  },
};
