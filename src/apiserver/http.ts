// The HTTP edge: authentication, routing, decoding, content negotiation and encoding
// around the ApiServer pipeline. One funnel turns any thrown value into a metav1.Status.
// Upstream: apiserver/pkg/endpoints/handlers/{get,create,update,patch,delete,watch}.go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { isStaticToken } from './token-review.ts';
import type { ResourceDefinition, UserInfo, Verb } from '../api/index.ts';
import { clusterAdminUser, isValidPathSegmentName, privilegedGroup } from '../api/index.ts';
import { admitConnect } from './connect-admission.ts';
import { authorize, connectCreateAttributes, forbiddenError, impersonatedUser, requestAttributes } from './authorization.ts';
import type { Clock, KubeObject, Status } from '../core/index.ts';
import { ApiError, RealClock, simulatedBuild, badRequest, forbidden, goJsonKind, internalError, methodNotAllowed, pathNotFound, queryBool, unauthorized, unsupportedMediaType } from '../core/index.ts';
import { BodyDecodeError, decodeObjectBody, decodeOptionsBody, decodeText, parseJsonText, readBody } from './body.ts';
import type { ApiMetrics } from './metrics.ts';
import { duplicateFields } from './duplicate-fields.ts';
import type { TaggedDiscovery } from './discovery.ts';
import { apiVersions, encodedAggregatedDiscovery, encodedApiGroupDocument, encodedApiGroupList, encodedResourceList } from './discovery.ts';
import { jsonPieces, listJson, listJsonPieces, listMetadata, resultJson, resultObject, toYaml, watchLine } from './encode.ts';
import { bodyType, negotiate } from './negotiation.ts';
import type { Representation } from './negotiation.ts';
import { parseListQuery, parseWriteQuery, parseInteger } from './options.ts';
import type { ListQuery } from './options.ts';
import { customResourceInfo } from './crd/custom-resource.ts';
import { patchContentTypes, supportedPatchTypes, unsupportedPatchType } from './patching.ts';
import type { PatchType } from './patching.ts';
import type { RequestUrl, ResourceTarget } from './request-info.ts';
import { parseRequestPath, requestUrl } from './request-info.ts';
import type { ApiServer, ObjectResult } from './server.ts';
import type { DeleteRequest } from './resource-storage.ts';
import { storedObject } from './stored-object.ts';
import { tableRow, toTable, tableColumns } from './table.ts';
import type { ServerWatchEvent } from './watch.ts';
import { shortTurns } from './short-turns.ts';
import { sendServiceUnavailable, unservedRemoteGroupVersions } from './aggregated-apis.ts';
import { acceptsOpenApiV2Protobuf, openApiV2ProtobufType } from './openapi/swagger2-protobuf.ts';
import { serveContent } from './conditional-get.ts';
import type { ServedDocument } from './conditional-get.ts';

/** Documents as bytes: a string of megabytes would be copied into fresh memory at every write. */
export interface OpenApiSource {
  root(): ServedDocument;
  /** `hash` is the bare hash of the root's `?hash=`. */
  groupVersion(path: string): (ServedDocument & { hash: string }) | undefined;
  /** The swagger document in JSON and in protobuf, under the JSON's tag for both as upstream. */
  v2(): ServedDocument;
  v2Protobuf(): ServedDocument;
}

export interface HttpHandlerOptions {
  server: ApiServer;
  /** Bearer tokens accepted; an empty list disables authentication. */
  tokens: readonly string[];
  openapi?: OpenApiSource;
  /** Extra routes (logs, metrics) tried before the resource routes; return false to pass. */
  extraRoutes?: readonly ExtraRoute[];
  log?: (line: string) => void;
  /** Counts and times requests, and serves /metrics. */
  metrics?: ApiMetrics;
  /**
   * The cluster CA (PEM) when the TLS server asks for client certificates: one it issued names the
   * user (the x509 authenticator).
   */
  clientCA?: string;
}

export type ExtraRoute = (req: IncomingMessage, res: ServerResponse, url: RequestUrl) => boolean | Promise<boolean>;

const publicPaths = new Set(['/healthz', '/livez', '/readyz', '/version']);
const watchBufferLimit = 32 * 1024 * 1024;
/** Events held for one socket write at most; a longer burst is written in parts of about this size. */
const watchBurstBytes = 64 * 1024;

export function createHttpHandler(options: HttpHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const tokens = options.tokens.map((t) => Buffer.from(t));
  const clientCA = options.clientCA ? new X509Certificate(options.clientCA) : undefined;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(options, tokens, clientCA, req, res).catch((error: unknown) => {
      sendError(res, error, options.log);
    });
  };
  // Outside the turns, the request metrics count the wait for a turn, as upstream's count the wait in
  // priority-and-fairness queues.
  const dispatched = shortTurns(handler);
  return options.metrics ? options.metrics.instrument(dispatched) : dispatched;
}

function impersonates(req: IncomingMessage): boolean {
  for (const name in req.headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

/**
 * The user of a client certificate the cluster CA issued (the x509 authenticator): the common name,
 * the organizations as groups. Checked here rather than by the TLS layer, whose CA store costs
 * start-up ~15 ms: issued by the CA and signed with its key, in its validity period, for client
 * auth. Worked out once per connection.
 */
const certificateUsers = new WeakMap<object, UserInfo | null>();
const clientAuth = '1.3.6.1.5.5.7.3.2';
function certificateUser(req: IncomingMessage, ca: X509Certificate, clock: Clock): UserInfo | undefined {
  const socket = req.socket as TLSSocket;
  let user = certificateUsers.get(socket);
  if (user === undefined) {
    user = null;
    const peer = socket.getPeerX509Certificate?.();
    const now = clock.now();
    const valid = peer !== undefined && peer.checkIssued(ca) && peer.verify(ca.publicKey) && Date.parse(peer.validFrom) <= now && now <= Date.parse(peer.validTo) && (peer.keyUsage === undefined || peer.keyUsage.includes(clientAuth));
    if (valid) {
      const subject = Object.fromEntries(peer.subject.split('\n').map((line) => line.split('=')).map(([k = '', ...v]) => [k, v.join('=')]));
      const organizations = peer.subject.split('\n').filter((l) => l.startsWith('O=')).map((l) => l.slice(2));
      if (subject.CN) user = { username: subject.CN, groups: [...organizations, 'system:authenticated'] };
    }
    certificateUsers.set(socket, user);
  }
  return user ?? undefined;
}

/** A service account token's user (`kubectl create token`), when the bearer token is one. */
async function tokenUser(server: ApiServer, header: string | undefined): Promise<UserInfo | undefined> {
  if (!header?.startsWith('Bearer ')) return undefined;
  return server.authenticateToken(header.slice(7).trim());
}

function isAuthorized(tokens: Buffer[], header: string | undefined): boolean {
  if (tokens.length === 0) return true;
  return header?.startsWith('Bearer ') === true && isStaticToken(tokens, header.slice(7).trim());
}

async function handle(options: HttpHandlerOptions, tokens: Buffer[], clientCA: X509Certificate | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req.url ?? '/');
  const path = trimTrailingSlashes(url.pathname);
  const server = options.server;
  const target = parseRequestPath(path);
  if (target.kind === 'malformed') return refuseRequestLine(res);
  // The URL parser resolved `.`/`..` segments (`pods/%2e%2e` would be the namespace itself); Go's server
  // does not, so such a path names an object `..`, which no key can have.
  if (hasDotSegment(req.url ?? '/')) throw dotSegmentError(req.url ?? '/');
  const method = req.method ?? 'GET';
  let user: UserInfo | undefined;
  if (!publicPaths.has(path)) {
    user = (clientCA ? certificateUser(req, clientCA, server.storage.clock) : undefined) ?? (isAuthorized(tokens, req.headers.authorization) ? clusterAdminUser : await tokenUser(server, req.headers.authorization));
    if (!user) throw unauthorized();
    if (impersonates(req)) user = await impersonatedUser(server.storage, user, req);
    // The admin (system:masters) is allowed without looking at RBAC, as upstream's first authorizer does.
    if (!user.groups?.includes(privilegedGroup)) {
      const attributes = requestAttributes(target, method, url.pathname, url.searchParams);
      const decision = await authorize(server.storage, user, attributes);
      if (!decision.allowed) throw forbiddenError(user, attributes, decision.reason);
      const create = server.storage.featureGates.AuthorizePodWebsocketUpgradeCreatePermission ? connectCreateAttributes(attributes) : undefined;
      if (create) {
        const connect = await authorize(server.storage, user, create);
        if (!connect.allowed) throw forbidden({ group: '', resource: 'pods' }, create.resourceRequest ? create.name : '', connect.reason);
      }
    }
  }
  // ConnectResource admits a connecter's options before its Connect, which the kubelet's routes serve.
  const connect = target.kind === 'resource' ? admitConnect(server, target.target, url.pathname, url.searchParams, user) : undefined;
  if (connect) await connect;
  for (const route of options.extraRoutes ?? []) {
    const served = route(req, res, url);
    if (served === true || (served !== false && (await served))) return;
  }
  switch (target.kind) {
    case 'version':
      return sendJson(res, 200, JSON.stringify(versionInfo(server)));
    case 'health':
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('ok');
      return;
    case 'openapi':
      return serveOpenApi(options.openapi, target.path, url.searchParams, req, res);
    case 'discovery-root': {
      const rep = negotiate(req.headers.accept, url.searchParams, { table: false, discovery: true });
      // The legacy group is always served here, so only /apis can list an APIService's group.
      const remote = target.prefix === 'apis' ? await unservedRemoteGroupVersions(server) : [];
      if (rep.kind === 'discovery') return sendAggregatedDiscovery(req, res, encodedAggregatedDiscovery(server.index, target.prefix, rep.apiVersion, remote), rep.contentType);
      const host = req.headers.host ?? '127.0.0.1';
      return sendJson(res, 200, target.prefix === 'api' ? JSON.stringify(apiVersions(host)) : encodedApiGroupList(server.index, remote), undefined, { Vary: 'Accept' });
    }
    case 'discovery-group': {
      const doc = encodedApiGroupDocument(server.index, target.group) ?? encodedApiGroupDocument(server.index, target.group, await unservedRemoteGroupVersions(server));
      if (!doc) throw pathNotFound();
      return sendJson(res, 200, doc);
    }
    case 'discovery-version': {
      const doc = encodedResourceList(server.index, target.group, target.version);
      if (!doc && (await isUnservedRemote(server, target.group, target.version))) return sendServiceUnavailable(res);
      if (!doc) throw pathNotFound();
      return sendJson(res, 200, doc);
    }
    case 'resource': {
      const t = target.target;
      if (!server.index.find(t.group, t.version, t.resource) && (await isUnservedRemote(server, t.group, t.version))) return sendServiceUnavailable(res);
      return handleResource(options, t, method, url, req, res, user);
    }
    case 'metrics':
      if (options.metrics) return options.metrics.serve(res);
      throw pathNotFound();
    case 'other':
      throw pathNotFound();
    default: {
      const never: never = target;
      throw internalError(never);
    }
  }
}

/** The path without its trailing slashes; `/` for the root. */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === path.length ? path : end === 0 ? '/' : path.slice(0, end);
}

const dotSegment = /\/(?:\.|%2e){1,2}(?=\/|$|\?)/i;

function hasDotSegment(requestUrl: string): boolean {
  const q = requestUrl.indexOf('?');
  return dotSegment.test(q < 0 ? requestUrl : requestUrl.slice(0, q));
}

/** What the storage's key function says of a `.` or `..` name (NamespaceKeyFunc); another place, no route. */
function dotSegmentError(requestUrl: string): ApiError {
  const q = requestUrl.indexOf('?');
  const target = parseRequestPath(q < 0 ? requestUrl : requestUrl.slice(0, q));
  if (target.kind === 'resource' && (target.target.name === '.' || target.target.name === '..')) return invalidName(target.target.name);
  return pathNotFound();
}

/** An object name that cannot be a storage key (IsValidPathSegmentName), as the key functions refuse it. */
function invalidName(name: string): ApiError {
  return badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${isValidPathSegmentName(name).join(';')}`);
}

/**
 * Go's HTTP server refuses a request whose path does not unescape before any handler runs: a plain
 * `400 Bad Request`, and the connection closed.
 */
function refuseRequestLine(res: ServerResponse): void {
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end('400 Bad Request');
}

/** Whether requests to this group-version would be proxied to an APIService's Service. */
async function isUnservedRemote(server: ApiServer, group: string, version: string): Promise<boolean> {
  if (server.index.inGroupVersion(group, version).length > 0) return false;
  return (await unservedRemoteGroupVersions(server)).some((gv) => gv.group === group && gv.version === version);
}

function versionInfo(server: ApiServer): Record<string, string> {
  const v = server.version;
  return {
    major: v.major,
    minor: v.minor,
    emulationMajor: v.major,
    emulationMinor: v.minor,
    minCompatibilityMajor: v.major,
    minCompatibilityMinor: String(Math.max(0, Number(v.minor) - 1)),
    gitVersion: v.gitVersion,
    ...simulatedBuild,
  };
}

async function handleResource(options: HttpHandlerOptions, t: ResourceTarget, method: string, url: RequestUrl, req: IncomingMessage, res: ServerResponse, user: UserInfo | undefined): Promise<void> {
  const server = options.server;
  const ref = { group: t.group, version: t.version, resource: t.resource };
  const def = server.resolve(ref);
  const query = url.searchParams;
  if (t.namespace === '' && def.namespaced && t.name !== '' ) throw pathNotFound();
  if (!def.namespaced && t.namespace !== '') throw pathNotFound();
  const rep = negotiate(req.headers.accept, query, { table: true, discovery: false });
  if (def.deprecationWarning) setWarnings(res, [def.deprecationWarning]);
  // A subresource the kind does not have is a path no route serves.
  if (t.subresource !== '' && !def.subresources?.some((s) => s.name === t.subresource)) throw pathNotFound();
  if (!routed(def, t, method)) throw methodNotAllowed();
  if (t.name !== '' && isValidPathSegmentName(t.name).length > 0) throw invalidName(t.name);
  switch (method) {
    case 'GET': {
      if (t.legacyWatch) return serveWatch(server, def, { ...t, name: '' }, legacyWatchQuery(parseListQuery(query), t.name), rep, res);
      if (t.name === '') {
        const list = parseListQuery(query);
        if (list.watch) return serveWatch(server, def, t, list, rep, res);
        const { page } = await server.list(ref, t.namespace, list);
        if (rep.kind === 'table') {
          const objects = page.items.map((kv) => storedObject(kv));
          return sendJsonPieces(res, 200, jsonPieces(toTable(def, objects, server.clock.now(), rep.includeObject, listMetadata(page)), 'rows'), rep.contentType);
        }
        if (rep.kind === 'partial-metadata') {
          const items = page.items.map((kv) => partialMetadata(storedObject(kv)));
          return sendJsonPieces(res, 200, jsonPieces({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: listMetadata(page), items }, 'items'), rep.contentType);
        }
        if (rep.kind === 'yaml') return sendRepresentation(res, 200, listJson(def, page), rep);
        return sendJsonPieces(res, 200, listJsonPieces(def, page));
      }
      const result = await server.get(ref, t.namespace, t.name, t.subresource, query.get('resourceVersion') ?? '');
      return sendObject(server, def, res, 200, result, rep, t.subresource);
    }
    case 'POST': {
      const write = parseWriteQuery(query);
      const { obj: body, duplicates } = await decodedBody(req, def, write.fieldValidation);
      const warnings: string[] = [];
      // The query's options are spread last (they share no key with the rest): in Node 20's V8 each
      // key added after a leading spread takes a slow path, ~1 us a key, 6 us of every write.
      const result = await server.create(ref, t.namespace, body, { subresource: t.subresource, name: t.name, warnings, userAgent: req.headers['user-agent'], duplicateFields: duplicates, user, ...write });
      setWarnings(res, warnings);
      return sendObject(server, def, res, 201, result, rep, t.subresource);
    }
    case 'PUT': {
      const write = parseWriteQuery(query);
      const { obj: body, duplicates } = await decodedBody(req, def, write.fieldValidation);
      const warnings: string[] = [];
      const result = await server.update(ref, t.namespace, t.name, body, { subresource: t.subresource, warnings, userAgent: req.headers['user-agent'], duplicateFields: duplicates, user, ...write });
      setWarnings(res, warnings);
      return sendObject(server, def, res, 200, result, rep, t.subresource);
    }
    case 'PATCH': {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const type = patchContentTypes[contentType];
      if (!type) throw unsupportedPatchType(supportedPatchTypes(customResourceInfo(def) !== undefined));
      const bytes = await readBody(req);
      const write = parseWriteQuery(query);
      const text = bytes.toString('utf8');
      const patchBody = type === 'apply' ? decodeText(text, 'yaml', { kind: def.kind, version: def.version }) : decodePatchBody(text, type, write.fieldValidation);
      const duplicates = write.fieldValidation === 'Ignore' || type === 'apply' ? [] : duplicateFields(text);
      const warnings: string[] = [];
      const result = await server.patch(ref, t.namespace, t.name, type, patchBody, { subresource: t.subresource, warnings, userAgent: req.headers['user-agent'], duplicateFields: duplicates, user, ...write });
      setWarnings(res, warnings);
      return sendObject(server, def, res, result.created ? 201 : 200, result, rep, t.subresource);
    }
    case 'DELETE': {
      const request = await deleteRequest(server, req, query);
      if (t.name === '') return sendJsonPieces(res, 200, listJsonPieces(def, await server.deleteCollection(ref, t.namespace, parseListQuery(query), request, user)));
      const outcome = await server.delete(ref, t.namespace, t.name, request, user);
      if (outcome.kind === 'pending') return sendObject(server, def, res, 200, outcome.result, rep, '');
      if (def.group === '' && def.resource === 'pods') return sendRepresentation(res, 200, JSON.stringify(outcome.last), rep);
      const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200, details: { name: t.name, group: def.group, kind: def.resource, uid: outcome.last.metadata.uid ?? '' } };
      return sendJson(res, 200, JSON.stringify(status));
    }
    default:
      throw methodNotAllowed();
  }
}

/**
 * Whether upstream's installer registers a route for this method on this path: the verbs a kind or
 * subresource serves. Any other method is go-restful's bare 405, whatever the body holds.
 */
function routed(def: ResourceDefinition, t: ResourceTarget, method: string): boolean {
  if (t.legacyWatch) return method === 'GET' && t.subresource === '' && (!def.verbs || def.verbs.includes('watch'));
  const verb = routeVerbs[method]?.[t.subresource !== '' ? 2 : t.name !== '' ? 1 : 0];
  if (verb === undefined || verb === null) return false;
  // A namespaced kind's all-namespaces path (/api/v1/pods) is only listed and watched.
  if (def.namespaced && t.namespace === '' && verb !== 'list') return false;
  if (t.subresource === '') return !def.verbs || def.verbs.includes(verb) || (verb === 'list' && def.verbs.includes('watch'));
  return def.subresources?.find((s) => s.name === t.subresource)?.verbs.includes(verb) ?? false;
}

/** A `/watch/` path's query: a watch, of one object by name when the path names one. */
function legacyWatchQuery(list: ListQuery, name: string): ListQuery {
  const byName = name === '' ? '' : `metadata.name=${name}`;
  return { ...list, watch: true, fieldSelector: [byName, list.fieldSelector].filter((s) => s !== '').join(',') };
}

// The verb of a method on a collection, an object and an object's subresource; null where upstream
// registers no route.
const routeVerbs: Record<string, readonly [Verb | null, Verb | null, Verb]> = {
  GET: ['list', 'get', 'get'],
  POST: ['create', null, 'create'],
  PUT: [null, 'update', 'update'],
  PATCH: [null, 'patch', 'patch'],
  DELETE: ['deletecollection', 'delete', 'delete'],
};

async function decodedBody(req: IncomingMessage, def: ResourceDefinition, fieldValidation: string): Promise<{ obj: KubeObject; duplicates: string[] }> {
  const type = bodyType(req.headers['content-type']);
  if (!type) throw unsupportedMediaType(req.headers['content-type'] ?? '');
  const bytes = await readBody(req);
  const text = type === 'json' ? bytes.toString('utf8') : undefined;
  const obj = decodeObjectBody(bytes, type, { kind: def.kind, version: def.version }, text) as KubeObject;
  // YAML bodies reject repeated keys while decoding; protobuf cannot repeat them.
  const duplicates = text !== undefined && fieldValidation !== 'Ignore' ? duplicateFields(text) : [];
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  return { obj, duplicates };
}

/**
 * A JSON, merge or strategic merge patch's body, refused as applyJSPatch and strategicPatchObject
 * refuse one that is not JSON: "error decoding patch" from the strict decode that fieldValidation
 * Warn (the default) and Strict run first; under Ignore, evanphx/json-patch's words (its decode's
 * error for a JSON patch, ErrBadJSONPatch for a merge patch); a strategic merge patch's decode error as it is.
 */
function decodePatchBody(text: string, type: Exclude<PatchType, 'apply'>, fieldValidation: string): unknown {
  if (text.length === 0) throw badRequest('the body of the request is empty');
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (error) {
    if (!(error instanceof BodyDecodeError)) throw error;
    if (type === 'strategic') throw badRequest(error.detail);
    if (fieldValidation !== 'Ignore') throw badRequest(`error decoding patch: ${error.detail}`);
    throw badRequest(type === 'merge' ? 'Invalid JSON Patch' : error.detail);
  }
  return patchOfShape(value, type, fieldValidation !== 'Ignore');
}

/**
 * A patch that parsed but is not the shape its type reads: the strict decode into its Go type fails first
 * under Warn and Strict (patch.go applyJSPatch, strategicPatchObject). `null` decodes as no patch where
 * the Go type is a map or a slice; a merge patch of null or of a scalar is json-patch's ErrBadJSONPatch,
 * and one that is a list becomes the patched document (MergePatch), whose decoding then fails.
 */
function patchOfShape(value: unknown, type: Exclude<PatchType, 'apply'>, strict: boolean): unknown {
  const isMap = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (type === 'json') {
    if (value === null) return [];
    if (strict && !Array.isArray(value)) throw badRequest(`error decoding patch: json: cannot unmarshal ${goJsonKind(value)} into Go value of type []handlers.jsonPatchOp`);
    return value;
  }
  if (isMap) return value;
  if (type === 'strategic') {
    if (value === null) return {};
    throw badRequest(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`);
  }
  if (!strict && Array.isArray(value)) return value;
  if (value === null || !strict) throw badRequest('Invalid JSON Patch');
  throw badRequest(`error decoding patch: json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`);
}

/**
 * A DELETE's options: from its body when it has one, else from the query; never both (delete.go).
 * The server validates them (ValidateDeleteOptions) before it reads anything.
 */
async function deleteRequest(server: ApiServer, req: IncomingMessage, query: URLSearchParams): Promise<DeleteRequest> {
  const bytes = await readBody(req);
  if (bytes.length === 0) {
    const dryRunValues = query.getAll('dryRun');
    const out: DeleteRequest = { dryRun: dryRunValues.length > 0, dryRunValues };
    const grace = parseInteger(query, 'gracePeriodSeconds');
    if (grace !== undefined) out.gracePeriodSeconds = grace;
    const policy = query.get('propagationPolicy');
    if (policy !== null) out.propagationPolicy = policy;
    const orphan = queryBool(query, 'orphanDependents');
    if (orphan !== undefined) out.orphanDependents = orphan;
    return out;
  }
  const body = decodeOptionsBody(bytes, bodyType(req.headers['content-type']) ?? 'json');
  server.checkDeleteOptions(body);
  const dryRunValues = Array.isArray(body.dryRun) ? body.dryRun.map(String) : [];
  const out: DeleteRequest = { dryRun: dryRunValues.length > 0, dryRunValues };
  if (typeof body.gracePeriodSeconds === 'number') out.gracePeriodSeconds = body.gracePeriodSeconds;
  if (typeof body.propagationPolicy === 'string') out.propagationPolicy = body.propagationPolicy;
  if (typeof body.orphanDependents === 'boolean') out.orphanDependents = body.orphanDependents;
  if (typeof body.preconditions === 'object' && body.preconditions !== null) out.preconditions = body.preconditions as { uid?: string; resourceVersion?: string };
  return out;
}

/** Adds Warning headers, keeping any already set (a deprecated API's comes first). */
function setWarnings(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const previous = res.getHeader('Warning');
  const kept = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  res.setHeader('Warning', [...kept, ...warnings.map((w) => `299 - ${JSON.stringify(w)}`)]);
}

function partialMetadata(obj: KubeObject): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

function sendObject(server: ApiServer, def: ResourceDefinition, res: ServerResponse, code: number, result: ObjectResult, rep: Representation, subresource: string): void {
  const obj = result.kind === 'dry-run' || result.kind === 'removed' ? result.object : undefined;
  if (obj && obj.kind === 'Status') {
    const status = obj as unknown as Status;
    return sendJson(res, status.code || code, JSON.stringify(status));
  }
  if (rep.kind === 'table' && subresource === '') {
    return sendJson(res, code, JSON.stringify(toTable(def, [resultObject(result)], server.clock.now(), rep.includeObject, {})), rep.contentType);
  }
  if (rep.kind === 'partial-metadata') return sendJson(res, code, JSON.stringify(partialMetadata(resultObject(result))), rep.contentType);
  sendRepresentation(res, code, resultJson(result), rep);
}

function sendRepresentation(res: ServerResponse, code: number, json: string, rep: Representation): void {
  if (rep.kind === 'yaml') {
    res.writeHead(code, { 'Content-Type': 'application/yaml' });
    res.end(toYaml(json));
    return;
  }
  sendJson(res, code, json);
}

function sendJson(res: ServerResponse, code: number, json: string, contentType = 'application/json', extra?: Record<string, string>): void {
  const body = json !== '' && prettyPrint(res.req) ? indented(json) : json;
  const headers: Record<string, string | number> = { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) };
  // Spread only when there is something to add: V8 copies a spread key by key on its slow path.
  res.writeHead(code, extra === undefined ? headers : { ...headers, ...extra });
  res.end(body);
}

/**
 * negotiation.go's isPrettyPrint: `?pretty` as strconv.ParseBool reads it (an error is false), else a
 * human's client by its User-Agent (curl, Wget, a browser).
 */
function prettyPrint(req: IncomingMessage | undefined): boolean {
  if (req === undefined) return false;
  const pretty = req.url?.includes('pretty') ? new URL(req.url, 'http://localhost').searchParams.get('pretty') : null;
  if (pretty) return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(pretty);
  const agent = req.headers['user-agent'] ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

/** The pretty serializer's text (json.MarshalIndent): two-space indents, <, > and & escaped as Go escapes them. */
function indented(json: string): string {
  return JSON.stringify(JSON.parse(json), null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * sendJson for a body in pieces (see arrayPieces). One piece goes out with its Content-Length; a
 * longer body goes out chunked, each piece made when the socket has taken the last, so a reader
 * slower than the loopback holds back the rest. Upstream streams a list the same way since 1.33
 * (KEP-5116: items encoded one at a time, written in batches of 128 KB, chunked over HTTP/1.1);
 * pieces here are 32 KB, whose UTF-8 copy for the socket stays under glibc's 128 KB mmap threshold.
 */
function sendJsonPieces(res: ServerResponse, code: number, pieces: IterableIterator<string>, contentType = 'application/json'): void {
  if (prettyPrint(res.req)) return sendJson(res, code, [...pieces].join(''), contentType);
  const first = pieces.next();
  const second = first.done ? first : pieces.next();
  if (first.done || second.done) return sendJson(res, code, first.done ? '' : first.value, contentType);
  res.writeHead(code, { 'Content-Type': contentType });
  const all = (function* () {
    yield first.value;
    yield second.value;
    yield* pieces;
  })();
  let piece = all.next();
  const pump = (): void => {
    try {
      while (!piece.done) {
        const more = res.write(piece.value);
        piece = all.next();
        if (!more && !piece.done) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    } catch {
      // A piece that cannot be made once the status went out (a stored value without its metadata)
      // ends the response short, as a broken connection would, rather than the process.
      res.destroy();
    }
  };
  pump();
}

export function sendError(res: ServerResponse, error: unknown, log?: (line: string) => void): void {
  const apiError = error instanceof ApiError ? error : internalError(error);
  if (!(error instanceof ApiError)) log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // As responsewriters.ErrorNegotiated: a status that says when to retry says it in the header too,
  // the one place client-go's retry reads it.
  const retryAfter = apiError.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) res.setHeader('Retry-After', String(retryAfter));
  sendJson(res, apiError.code, JSON.stringify(apiError.toStatus()));
}

/**
 * As upstream's ServeHTTPWithETag: the tag, Vary and Cache-Control on every answer, and 304 with no
 * body when If-None-Match is exactly the current tag (the discovery handler compares the header
 * whole, not as ServeContent does).
 */
function sendAggregatedDiscovery(req: IncomingMessage, res: ServerResponse, doc: TaggedDiscovery, contentType: string): void {
  const headers = { ETag: doc.etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (req.headers['if-none-match'] !== doc.etag) return sendJson(res, 200, doc.json, contentType, headers);
  res.writeHead(304, headers);
  res.end();
}

function serveOpenApi(source: OpenApiSource | undefined, path: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): void {
  if (!source) throw pathNotFound();
  if (path === 'v2') {
    const protobuf = acceptsOpenApiV2Protobuf(req.headers.accept ?? '');
    return serveContent(req, res, protobuf ? source.v2Protobuf() : source.v2(), protobuf ? openApiV2ProtobufType : 'application/json', { Vary: 'Accept' });
  }
  if (path === 'v3') return serveContent(req, res, source.root(), 'application/json');
  if (path.startsWith('v3/')) {
    const groupVersion = path.slice(3);
    const doc = source.groupVersion(groupVersion);
    if (!doc) throw pathNotFound();
    return sendGroupVersionDocument(req, res, groupVersion, doc, query.get('hash'));
  }
  throw pathNotFound();
}

// HTTP caches judge Expires by the wall clock, whatever the cluster's clock.
const wallClock = new RealClock();

/**
 * A group-version document as kube-openapi's handler3 serves it: the root names it with `?hash=` its
 * ETag; a URL with that hash may be cached as immutable for a year, one with another hash (a copy of
 * the root from before a CRD changed the group) is redirected to the current one.
 */
function sendGroupVersionDocument(req: IncomingMessage, res: ServerResponse, groupVersion: string, doc: ServedDocument & { hash: string }, hash: string | null): void {
  const current = doc.hash;
  if (!hash) return serveContent(req, res, doc, 'application/json', { Vary: 'Accept' });
  if (hash !== current) {
    res.writeHead(301, { 'Content-Type': 'application/json', ETag: doc.etag, Vary: 'Accept', Location: `/openapi/v3/${groupVersion}?hash=${current}`, 'Content-Length': 0 });
    res.end();
    return;
  }
  const expires = new Date(wallClock.now());
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  // Go's time.RFC1123 in UTC, as upstream writes it.
  serveContent(req, res, doc, 'application/json', { Vary: 'Accept', 'Cache-Control': 'public, immutable', Expires: expires.toUTCString().replace(/GMT$/, 'UTC') });
}

async function serveWatch(
  server: ApiServer,
  def: ResourceDefinition,
  t: ResourceTarget,
  list: ReturnType<typeof parseListQuery>,
  rep: Representation,
  res: ServerResponse,
): Promise<void> {
  const contentType = rep.kind === 'table' ? rep.contentType : 'application/json';
  let headerSent = false;
  let closed = false;
  const pending: (string | Buffer)[] = [];
  // The events of one event-loop turn leave in one socket write (one TLS record for a small burst)
  // rather than one each, as upstream's WatchServer flushes only once no more events are queued.
  let corked = 0;
  const uncork = (): void => {
    if (corked === 0) return;
    corked = 0;
    res.uncork();
  };
  const write = (line: string | Buffer): void => {
    if (closed) return;
    if (!headerSent) {
      pending.push(line);
      return;
    }
    if (corked === 0) {
      res.cork();
      setImmediate(uncork);
    }
    res.write(line);
    corked += line.length;
    if (corked > watchBurstBytes) uncork();
    // A watcher that cannot keep up is dropped rather than buffered without bound.
    if (res.writableLength > watchBufferLimit) {
      closed = true;
      res.destroy();
    }
  };
  let first = true;
  const encode = (event: ServerWatchEvent): string | Buffer => {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return `${JSON.stringify({ type: event.type, object: event.object })}\n`;
    if (rep.kind === 'table') {
      const obj = storedObject(event.kv);
      const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: obj.metadata.resourceVersion }, columnDefinitions: first ? tableColumns(def) : [], rows: [tableRow(def, obj, server.clock.now(), rep.includeObject)] };
      first = false;
      return `${JSON.stringify({ type: event.type, object: table })}\n`;
    }
    if (rep.kind === 'partial-metadata') return `${JSON.stringify({ type: event.type, object: partialMetadata(storedObject(event.kv)) })}\n`;
    return watchLine(event.type, event.kv);
  };
  const { watch } = await server.watch({ group: def.group, version: def.version, resource: def.resource }, t.namespace, list, {
    send: (event) => write(encode(event)),
    close: () => {
      if (closed) return;
      closed = true;
      uncork();
      if (headerSent) res.end();
    },
  });
  res.on('close', () => {
    closed = true;
    watch.stop();
  });
  res.writeHead(200, { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  headerSent = true;
  for (const line of pending.splice(0)) res.write(line);
  if (closed) res.end();
}
