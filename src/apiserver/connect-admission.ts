// CONNECT admission of the connecters the kubelet's routes serve (pods' exec, attach, portforward and
// the pod, service and node proxies): a query with dryRun is refused, then the query, decoded as the
// connecter's options kind (v1 PodExecOptions, ..., NodeProxyOptions; a proxy's path from the URL after
// `proxy`), is admitted with the URL's namespace and name before the stream or proxy is served, as
// upstream's ConnectResource does before its Connect reads the object. Only connecter paths pay for it.
// Upstream: apiserver/pkg/endpoints/handlers/rest.go (ConnectResource), handlers/get.go
// (getRequestOptions' subpath), k8s.io/api/core/v1/types.go (the options' JSON fields),
// pkg/apis/core/v1/zz_generated.conversion.go (Convert_url_Values_To_v1_*).
import type { UserInfo } from '../api/index.ts';
import { badRequest, queryBool } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { ResourceTarget } from './request-info.ts';
import type { ApiServer } from './server.ts';

type Connecter = 'exec' | 'attach' | 'portforward';

/** runtime.Convert_Slice_string_To_Slice_int32: comma lists of ports; undefined when one does not parse. */
function ports(query: URLSearchParams): number[] | undefined {
  const out: number[] = [];
  for (const value of query.getAll('ports')) {
    for (const part of value.split(',')) {
      if (!/^\d+$/.test(part) || Number(part) > 65535) return undefined;
      out.push(Number(part));
    }
  }
  return out;
}

/**
 * The options object the connecter's query decodes to, as its v1 JSON (omitempty fields left out),
 * or undefined when the query does not decode (the route refuses it).
 */
export function connectOptions(subresource: Connecter, query: URLSearchParams): KubeObject | undefined {
  if (subresource === 'portforward') {
    const list = ports(query);
    if (!list) return undefined;
    return { kind: 'PodPortForwardOptions', apiVersion: 'v1', ...(list.length ? { ports: list } : {}) } as unknown as KubeObject;
  }
  const flags: Record<string, boolean> = {};
  for (const name of ['stdin', 'stdout', 'stderr', 'tty']) if (queryBool(query, name)) flags[name] = true;
  const container = query.get('container');
  return {
    kind: subresource === 'exec' ? 'PodExecOptions' : 'PodAttachOptions',
    apiVersion: 'v1',
    ...flags,
    ...(container ? { container } : {}),
    // `json:"command"` without omitempty: a query without one decodes to a nil slice, written null.
    ...(subresource === 'exec' ? { command: query.getAll('command').length ? query.getAll('command') : null } : {}),
  } as unknown as KubeObject;
}

const proxyPrefix = /^\/api\/v1\/(?:namespaces\/[^/]+\/)?[^/]+\/[^/]+\/proxy(?=\/|$)/;

/**
 * getRequestOptions' subpath: the request path after `proxy` (Go's decoded URL.Path, split and joined
 * as RequestInfo's parts), with a leading slash, and a trailing one when the request had it (`proxy/`
 * alone reads `/`); empty when nothing follows (the options' path is then left out).
 */
export function proxySubpath(pathname: string): string {
  const prefix = proxyPrefix.exec(pathname)?.[0] ?? pathname;
  let rest = pathname.slice(prefix.length);
  try {
    rest = decodeURIComponent(rest);
  } catch {
    // Go's server refused such a path before here; the raw text is the nearest reading.
  }
  const joined = rest.replace(/^\/+|\/+$/g, '');
  const path = joined === '' ? '' : '/' + joined;
  return rest.endsWith('/') && !path.endsWith('/') ? path + '/' : path;
}

/** The options object a connecter's request decodes to, or undefined when its query does not decode. */
function optionsFor(kind: string, subresource: string, pathname: string, query: URLSearchParams): KubeObject | undefined {
  if (subresource === 'exec' || subresource === 'attach' || subresource === 'portforward') return connectOptions(subresource, query);
  const path = proxySubpath(pathname);
  return { kind, apiVersion: 'v1', ...(path ? { path } : {}) } as unknown as KubeObject;
}

/** Admits a CONNECT to a connecter; other requests pass at once. Throws the refusal (dryRun's or admission's). */
export function admitConnect(server: ApiServer, target: ResourceTarget, pathname: string, query: URLSearchParams, user: UserInfo | undefined): Promise<void> | undefined {
  if (!target.subresource || !target.name) return undefined;
  const def = server.index.find(target.group, target.version, target.resource);
  const subresource = def?.subresources?.find((s) => s.name === target.subresource);
  if (!def || !subresource?.connect) return undefined;
  if (query.has('dryRun')) throw badRequest('dryRun is not supported');
  const options = optionsFor(subresource.kind ?? '', target.subresource, pathname, query);
  if (!options) return undefined;
  return server.storage.admitConnect(def, target.namespace, target.name, options, { dryRun: false, fieldManager: '', subresource: target.subresource, user });
}
