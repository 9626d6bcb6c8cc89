// pods/proxy, services/proxy and nodes/proxy: the API server's proxy to a pod's port, to a ready endpoint
// of a Service, or to a node's kubelet. A simulated node's kubelet answers itself (kubelet-server.ts). A
// pod whose containers are host processes (a `runtime: process` pool) is reached on the loopback, where
// they listen; a simulated container listens nowhere, so dialing it is refused as a closed port is.
// Upstream: pkg/registry/core/{pod,node}/strategy.go (ResourceLocation), pkg/registry/core/service/storage
// (ResourceLocation, isValidAddress), apimachinery/pkg/util/net/port_split.go (SplitSchemeNamePort),
// apimachinery/pkg/util/proxy (UpgradeAwareHandler, transport.go's "error trying to reach service").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refs } from '../api/index.ts';
import type { Endpoints, EndpointAddress, Node, Pod, Service } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, Random } from '../core/index.ts';
import { ApiError, badRequest, cleanRootedPath, ipIsGlobalUnicast, isApiError, parseIP, serviceUnavailable } from '../core/index.ts';
import { kubeletResponse } from './kubelet-server.ts';
import { forwardToLoopback, joinHostPort } from './loopback-proxy.ts';
import { kubeletPort } from './node-object.ts';
import type { PodLogs } from './nodes.ts';
import { sendStatus } from './log-route.ts';
import type { Route } from './log-route.ts';

export interface ProxyRouteOptions {
  client: Client;
  clock: Clock;
  /** Which endpoint a services/proxy request starts from, as upstream picks one at random. */
  random: Random;
  /** node name -> kubelet. */
  podLogs: PodLogs;
}

const proxyPath = /^\/api\/v1\/(?:namespaces\/([^/]+)\/(pods|services)|(nodes))\/([^/]+)\/proxy(?:\/(.*))?$/;

/** Where a proxied request goes: a kubelet drydock simulates, a host process's port, or an address nothing listens on. */
type Destination =
  | { kind: 'kubelet'; node: string }
  | { kind: 'loopback'; scheme: string; port: string; shownHost: string }
  | { kind: 'unreachable'; host: string; port: string };

/** SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port`, the scheme http, https or empty. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  if (parts.length > 3) return undefined;
  const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0], parts[1] ?? ''];
  if (!name || !(scheme === '' || scheme === 'http' || scheme === 'https')) return undefined;
  return { scheme: scheme ?? '', name, port: port ?? '' };
}

/**
 * net.IP.IsGlobalUnicast of netutils.ParseIPSloppy's address: not unspecified, the IPv4 broadcast,
 * loopback, multicast or link-local (an IPv4-mapped IPv6 address judged as its IPv4 one).
 */
export function isGlobalUnicast(text: string): boolean {
  const ip = parseIP(text, false);
  return ip !== undefined && ipIsGlobalUnicast(ip);
}

const defaultPort = (scheme: string): string => (scheme === 'https' ? '443' : '80');

function refused(host: string, port: string): ApiError {
  return serviceUnavailable(`error trying to reach service: dial tcp ${joinHostPort(host, port)}: connect: connection refused`);
}

/** A pod's destination: the loopback when its containers run as host processes, else its own (unreachable) IP. */
function podDestination(o: ProxyRouteOptions, pod: Pod, scheme: string, ip: string, port: string): Destination {
  const worker = pod.spec.nodeName ? o.podLogs.kubelet(pod.spec.nodeName)?.worker(pod.metadata.namespace ?? '', pod.metadata.name ?? '') : undefined;
  const resolvedScheme = scheme || 'http';
  const resolvedPort = port || defaultPort(resolvedScheme);
  if (worker?.runsHostProcesses()) return { kind: 'loopback', scheme: resolvedScheme, port: resolvedPort, shownHost: ip };
  return { kind: 'unreachable', host: ip, port: resolvedPort };
}

async function podLocation(o: ProxyRouteOptions, namespace: string, id: string): Promise<Destination> {
  const split = splitSchemeNamePort(id);
  if (!split) throw badRequest(`invalid pod request ${JSON.stringify(id)}`);
  const pod = await o.client.get<Pod>(refs.pods, namespace, split.name);
  // No port given: the first port any container declares.
  const port = split.port || String(pod.spec.containers.find((c) => (c.ports?.length ?? 0) > 0)?.ports?.[0]?.containerPort ?? '');
  const ip = pod.status?.podIPs?.[0]?.ip ?? '';
  if (!isGlobalUnicast(ip)) throw badRequest('address not allowed');
  return podDestination(o, pod, split.scheme, ip, port);
}

async function serviceLocation(o: ProxyRouteOptions, namespace: string, id: string): Promise<Destination> {
  const split = splitSchemeNamePort(id);
  if (!split) throw badRequest(`invalid service request ${JSON.stringify(id)}`);
  let portName = split.port;
  // A port number names the Service port it is; a name is matched against the endpoints' port names.
  if (/^[+-]?\d+$/.test(portName)) {
    const number = Number(portName);
    const service = await o.client.get<Service>(refs.services, namespace, split.name);
    const match = service.spec?.ports?.find((p) => p.port === number);
    if (!match) throw serviceUnavailable(`no service port ${number} found for service ${JSON.stringify(split.name)}`);
    portName = match.name ?? '';
  }
  const endpoints = await o.client.get<Endpoints>(refs.endpoints, namespace, split.name);
  if (!endpoints.subsets?.length) throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(split.name)}`);
  // A random subset to start from, and in it a random address to start from, each tried in turn.
  const subsets = endpoints.subsets;
  const subsetSeed = o.random.int(subsets.length);
  for (let s = 0; s < subsets.length; s++) {
    const subset = subsets[(subsetSeed + s) % subsets.length];
    const addresses = subset?.addresses ?? [];
    if (addresses.length === 0) continue;
    for (const p of subset?.ports ?? []) {
      if ((p.name ?? '') !== portName) continue;
      const addressSeed = o.random.int(addresses.length);
      for (let a = 0; a < addresses.length; a++) {
        const address = addresses[(addressSeed + a) % addresses.length] as EndpointAddress;
        const pod = await endpointPod(o, namespace, address);
        if (pod) return podDestination(o, pod, split.scheme, address.ip, String(p.port));
      }
    }
  }
  throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}

/** isValidAddress: an address counts when it is a pod of the namespace that has that IP. */
async function endpointPod(o: ProxyRouteOptions, namespace: string, address: EndpointAddress): Promise<Pod | undefined> {
  const ref = address.targetRef;
  if (!ref || ref.namespace !== namespace || !ref.name) return undefined;
  const pod = await o.client.get<Pod>(refs.pods, namespace, ref.name).catch((error: unknown) => {
    if (isApiError(error)) return undefined;
    throw error;
  });
  return pod?.status?.podIPs?.some((p) => p.ip === address.ip) ? pod : undefined;
}

// The API server's --kubelet-preferred-address-types, in order.
const preferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

async function nodeLocation(o: ProxyRouteOptions, id: string): Promise<Destination> {
  const split = splitSchemeNamePort(id);
  if (!split) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
  const node = await o.client.get<Node>(refs.nodes, undefined, split.name);
  const addresses = node.status?.addresses ?? [];
  const ip = addresses.find((a) => a.type === 'InternalIP')?.address ?? preferredAddressTypes.map((t) => addresses.find((a) => a.type === t)?.address).find((a) => a);
  if (!ip) throw new ApiError('', `no preferred addresses found; known addresses: []`);
  const port = String(node.status?.daemonEndpoints?.kubeletEndpoint?.Port || kubeletPort);
  // Another port of the node is dialed as it is; a simulated node listens on none.
  if (split.port !== '' && split.port !== port) return { kind: 'unreachable', host: ip, port: split.port };
  // A node without a simulated kubelet, or whose kubelet is down (drydock node fail), refuses the dial.
  return o.podLogs.kubelet(split.name)?.serving ? { kind: 'kubelet', node: split.name } : { kind: 'unreachable', host: ip, port };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`invalid URL escape ${JSON.stringify(segment)}`);
  }
}

/** path.Join of the proxy's path, its trailing slash kept as the UpgradeAwareHandler keeps it. */
function targetPath(raw: string | undefined): string {
  const decoded = decodeSegment(raw ?? '');
  const joined = cleanRootedPath(decoded);
  return decoded.endsWith('/') && joined !== '/' ? `${joined}/` : joined;
}

/** The proxy route for the HTTP edge's extraRoutes. */
export function proxyRoute(o: ProxyRouteOptions): Route {
  return (req, res, url) => {
    // Every request passes here: most are told apart by a substring test before the pattern runs,
    // and passed on at once, not after a turn.
    const m = url.pathname.includes('/proxy') ? proxyPath.exec(url.pathname) : null;
    return m ? serveProxy(o, m, req, res, url) : false;
  };
}

async function serveProxy(o: ProxyRouteOptions, m: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: Parameters<Route>[2]): Promise<boolean> {
  const [, namespace = '', kind = 'nodes', , id = '', rest] = m;
  try {
    const name = decodeSegment(id);
    const ns = decodeSegment(namespace);
    const destination = kind === 'pods' ? await podLocation(o, ns, name) : kind === 'services' ? await serviceLocation(o, ns, name) : await nodeLocation(o, name);
    const path = targetPath(rest);
    if (destination.kind === 'unreachable') throw refused(destination.host, destination.port);
    if (destination.kind === 'loopback') {
      await forwardToLoopback(destination, `${path}${url.search}`, req, res);
      return true;
    }
    const kubelet = o.podLogs.kubelet(destination.node);
    if (!kubelet) throw refused(destination.node, String(kubeletPort));
    const answer = kubeletResponse(kubelet, req.method ?? 'GET', path, o.clock.now());
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  } catch (error) {
    if (!isApiError(error)) throw error;
    sendStatus(res, error);
  }
  return true;
}
