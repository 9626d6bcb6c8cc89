// Parses a request path into what it addresses, as upstream's RequestInfoFactory does.
// Upstream: staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go.
import { boundedMemo } from '../core/index.ts';

export type RequestTarget =
  | { kind: 'version' }
  | { kind: 'health'; check: string }
  | { kind: 'metrics' }
  | { kind: 'openapi'; path: string }
  | { kind: 'discovery-root'; prefix: 'api' | 'apis' }
  | { kind: 'discovery-group'; group: string }
  | { kind: 'discovery-version'; group: string; version: string }
  | { kind: 'resource'; target: ResourceTarget }
  /** A path with an escape that decodes to nothing (`%ZZ`): Go's server refuses the request line itself. */
  | { kind: 'malformed' }
  | { kind: 'other'; path: string };

export interface ResourceTarget {
  group: string;
  version: string;
  /** '' for cluster-wide requests, including lists across all namespaces. */
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
  /** Addressed under the deprecated `/watch/` prefix (`/api/v1/watch/namespaces/ns/pods/web`), which only watches. */
  legacyWatch?: true;
}

const healthPaths = new Set(['healthz', 'livez', 'readyz']);

/** What the handlers read of a request's URL: the fields of a WHATWG URL they use. */
export interface RequestUrl {
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

// A path and query of these characters read the same through the WHATWG URL parser, which a third of a
// create's request handling went to: nothing to percent-encode (a `'` is, in a query), no `.` or `..`
// segment to resolve, no backslash to read as a slash, no leading `//` to read as a host, no fragment.
const plainPath = /^\/(?!\/)[\w\-.~!$&()*+,;=:@/]*$/;
const plainQuery = /^[\w\-.~!$&()*+,;=:@/?%]*$/;
const dotSegmentOf = /\/\.\.?(?:\/|$)/;

/** The request-target as `new URL(target, base)` reads it, without the parser for a plain one. */
export function requestUrl(target: string): RequestUrl {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  if (plainPath.test(path) && !dotSegmentOf.test(path) && plainQuery.test(query)) {
    return { pathname: path, search: query === '' ? '' : `?${query}`, searchParams: new URLSearchParams(query) };
  }
  return new URL(target, 'http://drydock.local');
}

// Every request's path is parsed by the metrics and again by the handler, and most requests name a
// few collections: the parsed targets are kept, and shared (callers never change them). Bounded,
// since names and garbage make paths without end.
/** Upstream's RequestInfoFactory reading of a path; the result is shared and must not be changed. */
export const parseRequestPath: (pathname: string) => RequestTarget = boundedMemo(512, (pathname) => parsePath(pathname));

function parsePath(pathname: string): RequestTarget {
  const parts: string[] = [];
  for (const part of pathname.split('/')) {
    if (part === '') continue;
    const decoded = part.includes('%') ? decodePart(part) : part;
    if (decoded === undefined) return { kind: 'malformed' };
    parts.push(decoded);
  }
  const [head] = parts;
  if (head === undefined) return { kind: 'other', path: pathname };
  if (head === 'version' && parts.length === 1) return { kind: 'version' };
  if (healthPaths.has(head)) return { kind: 'health', check: parts.join('/') };
  if (head === 'metrics' && parts.length === 1) return { kind: 'metrics' };
  if (head === 'openapi') return { kind: 'openapi', path: parts.slice(1).join('/') };
  if (head === 'api') {
    if (parts.length === 1) return { kind: 'discovery-root', prefix: 'api' };
    const version = parts[1] ?? '';
    if (parts.length === 2) return { kind: 'discovery-version', group: '', version };
    return resourceTarget('', version, parts.slice(2), pathname);
  }
  if (head === 'apis') {
    if (parts.length === 1) return { kind: 'discovery-root', prefix: 'apis' };
    const group = parts[1] ?? '';
    if (parts.length === 2) return { kind: 'discovery-group', group };
    const version = parts[2] ?? '';
    if (parts.length === 3) return { kind: 'discovery-version', group, version };
    return resourceTarget(group, version, parts.slice(3), pathname);
  }
  return { kind: 'other', path: pathname };
}

function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function resourceTarget(group: string, version: string, rest: string[], path: string): RequestTarget {
  let namespace = '';
  const legacyWatch = rest[0] === 'watch' && rest.length > 1;
  let tail = legacyWatch ? rest.slice(1) : rest;
  // `namespaces/{ns}/{resource}...` addresses a namespaced resource; `namespaces/{ns}` alone
  // (or with a subresource such as status/finalize) is the Namespace object itself.
  if (tail[0] === 'namespaces' && tail.length >= 3 && !(group === '' && isNamespaceSubresource(tail))) {
    namespace = tail[1] ?? '';
    tail = tail.slice(2);
  }
  const [resource, name = '', subresource = '', ...extra] = tail;
  // Only a proxy takes a path of its own after the subresource (`nodes/n/proxy/stats/summary`).
  if (!resource || (extra.length > 0 && subresource !== 'proxy')) return { kind: 'other', path };
  const target: ResourceTarget = { group, version, namespace, resource, name, subresource };
  if (legacyWatch) target.legacyWatch = true;
  return { kind: 'resource', target };
}

function isNamespaceSubresource(tail: string[]): boolean {
  return tail.length === 3 && (tail[2] === 'status' || tail[2] === 'finalize');
}
