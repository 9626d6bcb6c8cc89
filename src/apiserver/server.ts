// ApiServer: the object-level request pipeline shared by the HTTP edge and LocalClient
// (fastify `inject` style). Decoding and encoding live at the edges; everything between
// — lookup, subresources, patch, admission, strategy, validation, storage — is here.
import type { PatchMeta, ResourceDefinition, ResourceRef } from '../api/index.ts';
import type { Clock, KubeObject, Random } from '../core/index.ts';
import { ApiError, badRequest, methodNotSupported, notFound } from '../core/index.ts';
import type { Store } from '../storage/index.ts';
import { Admission } from './admission.ts';
import { checkNamespaceDeletion } from './admission-plugins.ts';
import type { AdmissionPlugin } from './admission.ts';
import { listObjects } from './list.ts';
import type { ListPage } from './list.ts';
import { applyPatch } from './patching.ts';
import type { PatchType } from './patching.ts';
import { ResourceIndex } from './resource-index.ts';
import { ResourceStorage } from './resource-storage.ts';
import type { DeleteRequest, DeleteResult, WriteContext, WriteResult } from './resource-storage.ts';
import { buildSelection } from './selection.ts';
import { mutableCopy } from './stored-object.ts';
import { bindPod, evictPod, readScale, writeScale } from './subresources.ts';
import { startWatch } from './watch.ts';
import type { ActiveWatch, WatchSink } from './watch.ts';

export interface ApiServerOptions {
  store: Store;
  clock: Clock;
  random: Random;
  definitions: readonly ResourceDefinition[];
  admissionPlugins?: readonly AdmissionPlugin[];
  /** Patch metadata by kind, for strategic merge patch and server-side apply. */
  patchMetaFor?: (def: ResourceDefinition) => PatchMeta | undefined;
  /** Fields of a decoded object its schema does not know, for fieldValidation (paths like `spec.foo`). */
  unknownFields?: (def: ResourceDefinition, obj: unknown) => string[];
  version?: ServerVersion;
}

export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
}

export interface ListParams {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface WatchParams extends ListParams {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean | undefined;
  timeoutSeconds?: number | undefined;
}

export interface WriteParams {
  dryRun?: boolean;
  /** Strict rejects unknown fields (400); Warn reports them through `warnings`; Ignore drops them. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Collects warning texts for the response's Warning headers. */
  warnings?: string[];
  fieldManager?: string;
  subresource?: string;
  force?: boolean;
}

/** What a read or write of one object returns: a stored value, or an object built on the fly. */
export type ObjectResult = WriteResult;

export class ApiServer {
  readonly index: ResourceIndex;
  readonly storage: ResourceStorage;
  readonly clock: Clock;
  readonly random: Random;
  readonly version: ServerVersion;
  readonly #patchMetaFor: (def: ResourceDefinition) => PatchMeta | undefined;
  readonly #unknownFields: (def: ResourceDefinition, obj: unknown) => string[];

  constructor(options: ApiServerOptions) {
    this.index = new ResourceIndex(options.definitions);
    this.clock = options.clock;
    this.random = options.random;
    this.version = options.version ?? { major: '1', minor: '35', gitVersion: 'v1.35.0' };
    this.storage = new ResourceStorage({
      store: options.store,
      clock: options.clock,
      random: options.random,
      admission: new Admission(options.admissionPlugins ?? []),
      findDefinition: (group, version, resource) => this.index.find(group, version, resource),
    });
    this.#patchMetaFor = options.patchMetaFor ?? ((def) => def.patchMeta);
    this.#unknownFields = options.unknownFields ?? (() => []);
  }

  /** Upstream's strict decoding: unknown fields fail Strict, warn under Warn. */
  checkFields(def: ResourceDefinition, obj: unknown, params: WriteParams): void {
    const mode = params.fieldValidation ?? 'Ignore';
    if (mode === 'Ignore') return;
    const unknown = this.#unknownFields(def, obj);
    if (unknown.length === 0) return;
    if (mode === 'Strict') {
      const list = unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ');
      throw badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: strict decoding error: ${list}`);
    }
    for (const f of unknown) params.warnings?.push(`unknown field ${JSON.stringify(f)}`);
  }

  resolve(ref: ResourceRef): ResourceDefinition {
    const def = this.index.find(ref.group, ref.version, ref.resource);
    if (!def) throw new ApiError('NotFound', 'the server could not find the requested resource', {});
    return def;
  }

  patchMetaFor(def: ResourceDefinition): PatchMeta | undefined {
    return this.#patchMetaFor(def);
  }

  async get(ref: ResourceRef, namespace: string, name: string, subresource = ''): Promise<ObjectResult> {
    const def = this.resolve(ref);
    checkSubresource(def, subresource, 'get');
    const kv = await this.storage.get(def, namespace, name);
    if (subresource === 'scale') return { kind: 'dry-run', object: readScale(def, mutableCopy(kv)) };
    return { kind: 'stored', kv };
  }

  async list(ref: ResourceRef, namespace: string, params: ListParams): Promise<{ def: ResourceDefinition; page: ListPage }> {
    const def = this.resolve(ref);
    checkVerb(def, 'list');
    const selection = buildSelection(def, params.labelSelector ?? '', params.fieldSelector ?? '');
    const page = await listObjects(this.storage, def, {
      namespace: def.namespaced ? namespace : '',
      selection,
      limit: params.limit ?? 0,
      continue: params.continue ?? '',
      resourceVersion: params.resourceVersion ?? '',
      resourceVersionMatch: params.resourceVersionMatch ?? '',
    });
    return { def, page };
  }

  async watch(ref: ResourceRef, namespace: string, params: WatchParams, sink: WatchSink): Promise<{ def: ResourceDefinition; watch: ActiveWatch }> {
    const def = this.resolve(ref);
    checkVerb(def, 'watch');
    const selection = buildSelection(def, params.labelSelector ?? '', params.fieldSelector ?? '');
    const watch = await startWatch({ storage: this.storage, clock: this.clock, random: this.random }, def, {
      namespace: def.namespaced ? namespace : '',
      selection,
      resourceVersion: params.resourceVersion ?? '',
      resourceVersionMatch: params.resourceVersionMatch ?? '',
      allowWatchBookmarks: params.allowWatchBookmarks ?? false,
      sendInitialEvents: params.sendInitialEvents,
      timeoutSeconds: params.timeoutSeconds,
    }, sink);
    return { def, watch };
  }

  /** POST to a collection, or to a creating subresource (binding, eviction) of `name`. */
  async create(ref: ResourceRef, namespace: string, obj: KubeObject, params: WriteParams & { name?: string }): Promise<ObjectResult> {
    const def = this.resolve(ref);
    const ctx = writeContext(params);
    if (ctx.subresource === 'binding') return bindPod(this, def, namespace, params.name ?? '', obj, ctx);
    if (ctx.subresource === 'eviction') return evictPod(this, def, namespace, params.name ?? '', obj, ctx);
    if (ctx.subresource) throw methodNotSupported(def, 'create');
    checkVerb(def, 'create');
    this.checkFields(def, obj, params);
    return this.storage.create(def, namespace, obj, ctx);
  }

  async update(ref: ResourceRef, namespace: string, name: string, obj: KubeObject, params: WriteParams): Promise<ObjectResult> {
    const def = this.resolve(ref);
    const ctx = writeContext(params);
    checkSubresource(def, ctx.subresource, 'update');
    if (obj.metadata?.name && obj.metadata.name !== name) {
      throw badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (ctx.subresource === 'scale') return writeScale(this, def, namespace, name, () => obj, ctx);
    this.checkFields(def, obj, params);
    // Without a resourceVersion a PUT is unconditional: it takes the current one.
    return this.storage.update(def, namespace, name, (current) => {
      const desired = structuredClone(obj);
      desired.metadata ??= {};
      desired.metadata.resourceVersion ||= current.metadata.resourceVersion ?? '';
      return desired;
    }, ctx);
  }

  async patch(ref: ResourceRef, namespace: string, name: string, type: PatchType, body: unknown, params: WriteParams): Promise<ObjectResult> {
    const def = this.resolve(ref);
    const ctx = writeContext(params);
    checkSubresource(def, ctx.subresource, 'patch');
    const meta = this.patchMetaFor(def);
    if (ctx.subresource === 'scale') {
      return writeScale(this, def, namespace, name, (scale) => applyPatch(type, scale, body, undefined, def), ctx);
    }
    if (type === 'apply') throw badRequest('server-side apply is not supported yet');
    // A resourceVersion set by the patch is a precondition, as upstream.
    return this.storage.update(def, namespace, name, (current) => applyPatch(type, current, body, meta, def), ctx);
  }

  async delete(ref: ResourceRef, namespace: string, name: string, request: DeleteRequest): Promise<DeleteResult> {
    const def = this.resolve(ref);
    checkVerb(def, 'delete');
    if (def.group === '' && def.resource === 'namespaces') checkNamespaceDeletion(name);
    return this.storage.delete(def, namespace, name, request, { dryRun: request.dryRun, fieldManager: '', subresource: '' });
  }
}

function writeContext(params: WriteParams): WriteContext {
  return { dryRun: params.dryRun ?? false, fieldManager: params.fieldManager ?? '', subresource: params.subresource ?? '' };
}

function checkVerb(def: ResourceDefinition, verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete'): void {
  if (def.verbs && !def.verbs.includes(verb)) throw methodNotSupported(def, verb);
}

function checkSubresource(def: ResourceDefinition, subresource: string, verb: 'get' | 'update' | 'patch'): void {
  if (!subresource) {
    checkVerb(def, verb);
    return;
  }
  const sub = def.subresources?.find((s) => s.name === subresource);
  if (!sub) throw notFound({ group: def.group, resource: `${def.resource}/${subresource}` }, '');
  if (!sub.verbs.includes(verb)) throw methodNotSupported({ group: def.group, resource: `${def.resource}/${subresource}` }, verb);
}
