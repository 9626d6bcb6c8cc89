// ApiServer: the object-level request pipeline shared by the HTTP edge and LocalClient
// (fastify `inject` style). Decoding and encoding live at the edges; everything between
// — lookup, subresources, patch, admission, strategy, validation, storage — is here.
import type { FeatureGates, PatchMeta, ResourceDefinition, ResourceRef, UserInfo, Verb } from '../api/index.ts';
import { apiVersionOf, apiVersionParts, clusterAdminUser, defaultFeatureGates } from '../api/index.ts';
import type { Clock, KubeObject, Random } from '../core/index.ts';
import { ApiError, badRequest, copyJson, copyJsonSharing, copyJsonSharingEqual, formatTime, invalid, isApiError, methodNotSupported, notFound, setOwn } from '../core/index.ts';
import { unsupportedPatchType } from './patching.ts';
import type { Store } from '../storage/index.ts';
import { Admission } from './admission.ts';
import { checkNamespaceDeletion } from './admission-plugins.ts';
import type { AdmissionPlugin } from './admission.ts';
import { applyError, fieldManagerOptions, fieldTracker, managerName, newObjectConversionFailure, typedPatchFailure } from './field-manager.ts';
import { customResourceInfo } from './crd/custom-resource.ts';
import { applyServerSide } from './patch/index.ts';
import { patchDecodingFailure, supportedPatchTypes } from './patching.ts';
import { listObjects } from './list.ts';
import type { ListPage } from './list.ts';
import { applyPatch } from './patching.ts';
import { checkBodyTypeMeta, deleteOptionsTypeMeta, patchedTypeMeta } from './type-meta.ts';
import type { PatchType } from './patching.ts';
import { ResourceIndex } from './resource-index.ts';
import { ResourceStorage } from './resource-storage.ts';
import type { DeleteRequest, DeleteResult, WriteContext, WriteResult } from './resource-storage.ts';
import { buildSelection } from './selection.ts';
import { mutableCopy, storedObject } from './stored-object.ts';
import { bindPod, evictPod, getScale, writeScale } from './subresources.ts';
import { startWatch } from './watch.ts';
import { waitUntilFresh } from './wait-until-fresh.ts';
import { requestedResourceVersion } from './resource-version.ts';
import { validateDeleteOptions, validateListOptions, validatePatchOptions, validateWriteOptions } from './options.ts';
import { delegatedList } from './delegated.ts';
import type { DelegatedResource } from './delegated.ts';
import type { ActiveWatch, WatchSink } from './watch.ts';
import { authorize, rulesFor } from './authorization.ts';
import { writeFollowerOf } from './write-followers.ts';
import { reviewBearerToken } from './token-review.ts';
import { ServiceAccountTokens, authenticateServiceAccountToken, createServiceAccountKey, requestServiceAccountToken } from './service-account-tokens.ts';

export interface ApiServerOptions {
  store: Store;
  clock: Clock;
  random: Random;
  definitions: readonly ResourceDefinition[];
  admissionPlugins?: readonly AdmissionPlugin[];
  /** The PKCS#8 PEM key service account tokens are signed with; absent: a new one for this server. */
  serviceAccountKey?: string;
  /** The kubeconfig's bearer tokens (the admin's), which a TokenReview recognises. */
  staticTokens?: readonly string[];
  /** Patch metadata by kind, for strategic merge patch and server-side apply. */
  patchMetaFor?: (def: ResourceDefinition) => PatchMeta | undefined;
  /** Fields of a decoded object its schema does not know, for fieldValidation (paths like `spec.foo`). */
  unknownFields?: (def: ResourceDefinition, obj: unknown) => string[];
  /**
   * Typed decoding of a request body: drops (with `prune`) and reports unknown fields, and words the
   * first mistyped value as encoding/json does. Takes precedence over unknownFields when given.
   */
  decodeCheck?: (def: ResourceDefinition, obj: unknown, prune: boolean, keep?: ReadonlySet<string>) => { unknown: string[]; typeError: string | undefined; typed?: { path: string; message: string }[] };
  version?: ServerVersion;
  /** Fields of disabled gates are dropped on write; default: defaultFeatureGates. */
  featureGates?: FeatureGates;
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
  /** Only a watch may send it (the list handler's validation refuses it on a list). */
  sendInitialEvents?: boolean | undefined;
}

export interface WatchParams extends ListParams {
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number | undefined;
}

export interface WriteParams {
  dryRun?: boolean;
  /** dryRun's values as sent (the options' validation refuses any but All); absent from in-process callers. */
  dryRunValues?: readonly string[];
  /** Strict rejects unknown fields (400); Warn reports them through `warnings`; Ignore drops them. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** fieldValidation as the request sent it, '' when it did not (admission sees the options as sent). */
  sentFieldValidation?: string;
  /** Collects warning texts for the response's Warning headers. */
  warnings?: string[];
  fieldManager?: string;
  /** The request's User-Agent: its prefix names the manager of a write without fieldManager. */
  userAgent?: string | undefined;
  subresource?: string;
  /** Only for apply patches; any other patch that sets it is rejected, as upstream. */
  force?: boolean | undefined;
  /** Duplicate keys found while decoding the body (`metadata.name`), for fieldValidation. */
  duplicateFields?: readonly string[];
  /** Who the request authenticated as, for the review kinds (absent: the cluster admin). */
  user?: UserInfo | undefined;
}

/** A patch result; `created` when an apply created the object (201). */
export type PatchResult = ObjectResult & { created?: boolean };

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
  readonly #decodeCheck: ApiServerOptions['decodeCheck'];
  readonly #delegated = new Map<ResourceDefinition, DelegatedResource>();
  readonly #tokens: ServiceAccountTokens;
  readonly #staticTokens: readonly Buffer[];

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
      findKind: (group, version, kind) => this.index.findKind(group, version, kind),
      featureGates: options.featureGates ?? defaultFeatureGates,
    });
    this.#patchMetaFor = options.patchMetaFor ?? ((def) => def.patchMeta);
    this.#unknownFields = options.unknownFields ?? (() => []);
    this.#decodeCheck = options.decodeCheck;
    this.#tokens = new ServiceAccountTokens(options.serviceAccountKey ?? createServiceAccountKey());
    this.#staticTokens = (options.staticTokens ?? []).map((t) => Buffer.from(t));
  }

  /** The user a bearer token other than the kubeconfig's names: a service account's, or none. */
  authenticateToken(token: string): Promise<UserInfo | undefined> {
    return authenticateServiceAccountToken(this.#tokenDeps(), token);
  }

  #tokenDeps(): Parameters<typeof requestServiceAccountToken>[0] {
    return { storage: this.storage, clock: this.clock, random: this.random, tokens: this.#tokens };
  }

  /**
   * Upstream's typed, strict decoding of a request body: a mistyped value fails (400); unknown
   * and duplicate fields fail Strict, warn under Warn, and unknown ones are dropped. In-process
   * writes (no fieldValidation) are typed already and pass untouched.
   */
  checkFields(def: ResourceDefinition, obj: unknown, params: WriteParams): void {
    const mode = params.fieldValidation;
    if (mode === undefined) return;
    if (customResourceInfo(def) === undefined) {
      const wrongType = checkBodyTypeMeta(def, obj as KubeObject, this.index);
      if (wrongType) throw wrongType;
    }
    let unknown: string[];
    if (this.#decodeCheck) {
      const check = this.#decodeCheck(def, obj, true);
      if (check.typeError !== undefined) throw badRequest(cannotHandle(def) + check.typeError);
      unknown = check.unknown;
    } else {
      unknown = mode === 'Ignore' ? [] : this.#unknownFields(def, obj);
    }
    // The prefix is made only for a body with something to report.
    if (unknown.length > 0 || params.duplicateFields?.length) reportStrict(mode, unknown, params, cannotHandle(def));
  }

  resolve(ref: ResourceRef): ResourceDefinition {
    const def = this.index.find(ref.group, ref.version, ref.resource);
    if (!def) throw new ApiError('NotFound', 'the server could not find the requested resource', {});
    return def;
  }

  /** Serves a read-only kind from a provider instead of storage (an aggregated API such as metrics.k8s.io). */
  delegate(resource: DelegatedResource): void {
    this.index.add(resource.def);
    this.#delegated.set(resource.def, resource);
  }

  patchMetaFor(def: ResourceDefinition): PatchMeta | undefined {
    return this.#patchMetaFor(def);
  }

  /** `resourceVersion` as GetOptions: unset or "0" reads the latest, N the latest once the store has reached N. */
  async get(ref: ResourceRef, namespace: string, name: string, subresource = '', resourceVersion = ''): Promise<ObjectResult> {
    const def = this.resolve(ref);
    checkSubresource(def, subresource, 'get');
    const delegated = this.#delegated.get(def);
    if (delegated) return { kind: 'dry-run', object: await delegated.get(namespace, name) };
    const minimum = requestedResourceVersion(resourceVersion);
    if (minimum > 0) await waitUntilFresh(this.storage.store, this.clock, minimum);
    const kv = await this.storage.get(def, namespace, name);
    if (subresource === 'scale') return { kind: 'dry-run', object: getScale(def, mutableCopy(kv)) };
    return { kind: 'stored', kv };
  }

  async list(ref: ResourceRef, namespace: string, params: ListParams): Promise<{ def: ResourceDefinition; page: ListPage }> {
    const def = this.resolve(ref);
    checkVerb(def, 'list');
    validateListOptions({ ...params, watch: false });
    const selection = buildSelection(def, params.labelSelector ?? '', params.fieldSelector ?? '');
    const delegated = this.#delegated.get(def);
    if (delegated) return { def, page: await delegatedList(delegated, def.namespaced ? namespace : '', selection, this.storage.store.revision()) };
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
    validateListOptions({ ...params, watch: true });
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
    validateWriteOptions('CreateOptions', params);
    const ctx = writeContext(params);
    // create.go's EnsureObjectNamespaceMatchesRequestNamespace, for a creating subresource's body too.
    if (ctx.subresource) checkBodyNamespace(def, obj, namespace);
    if (ctx.subresource === 'binding') return bindPod(this, def, namespace, params.name ?? '', this.#checkSubresourceBody(bindingKind, obj, params), ctx);
    if (ctx.subresource === 'eviction') return evictPod(this, def, namespace, params.name ?? '', this.#checkSubresourceBody(evictionKind, obj, params), ctx);
    if (ctx.subresource === 'token' && def.group === '' && def.resource === 'serviceaccounts') {
      this.#checkSubresourceBody(tokenRequestKind, obj, params);
      return requestServiceAccountToken(this.#tokenDeps(), namespace, params.name ?? '', obj, { def, ctx });
    }
    if (ctx.subresource) throw methodNotSupported(def, 'create');
    checkVerb(def, 'create');
    if (def.group === '' && def.resource === 'bindings') return bindPod(this, this.resolve({ group: '', version: 'v1', resource: 'pods' }), namespace, obj.metadata?.name ?? '', obj, ctx, def);
    this.checkFields(def, obj, params);
    if (def.review) return this.#review(def, namespace, obj, params.user ?? clusterAdminUser);
    return this.#followed(def, undefined, await this.storage.create(def, namespace, obj, this.#tracked(def, ctx, 'all')));
  }

  /** A review kind's create: the answer to the question the object asks, stored nowhere. */
  async #review(def: ResourceDefinition, namespace: string, obj: KubeObject, user: UserInfo): Promise<ObjectResult> {
    obj.metadata ??= {};
    def.defaults?.(obj);
    if (def.namespaced) {
      // A local review asks within the request's namespace only.
      checkBodyNamespace(def, obj, namespace);
      obj.metadata.namespace = namespace;
    }
    const errors = def.validateCreate?.(obj, { now: this.clock.now() }) ?? [];
    if (errors.length > 0) throw invalid(def, '', errors);
    const decision = def.reviewAccess ? await authorize(this.storage, def.reviewSubject?.(obj) ?? user, def.reviewAccess(obj)) : undefined;
    const rules = def.reviewRulesIn ? await rulesFor(this.storage, user, def.reviewRulesIn(obj)) : undefined;
    const asked = def.reviewToken?.(obj);
    const authentication = asked ? await reviewBearerToken(this.#tokenDeps(), this.#staticTokens, asked.token, asked.audiences) : undefined;
    return { kind: 'dry-run', object: def.review?.(obj, { user, decision, rules, authentication }) ?? obj };
  }

  async update(ref: ResourceRef, namespace: string, name: string, obj: KubeObject, params: WriteParams): Promise<ObjectResult> {
    const def = this.resolve(ref);
    validateWriteOptions('UpdateOptions', params);
    const ctx = writeContext(params);
    checkSubresource(def, ctx.subresource, 'update');
    // The update handler's EnsureObjectNamespaceMatchesRequestNamespace, then its checkName: the body
    // names its object; the URL's name is not taken for it.
    checkBodyNamespace(def, obj, namespace);
    checkName(obj.metadata?.name, name);
    if (ctx.subresource === 'scale') {
      this.#checkSubresourceBody(scaleKind, obj, params);
      return writeScale(this, def, namespace, name, () => obj, this.#tracked(def, ctx, 'sent'));
    }
    this.checkFields(def, obj, params);
    // Without a resourceVersion a PUT is unconditional: it takes the current one.
    let before: KubeObject | undefined;
    const result = await this.storage.update(def, namespace, name, (current) => {
      before = current;
      const desired = attemptCopy(obj, ctx.subresource, current);
      desired.metadata ??= {};
      desired.metadata.resourceVersion ||= current.metadata.resourceVersion ?? '';
      return desired;
    }, this.#tracked(def, ctx, 'sent'));
    return this.#followed(def, before, result);
  }

  async patch(ref: ResourceRef, namespace: string, name: string, type: PatchType, body: unknown, params: WriteParams): Promise<PatchResult> {
    const def = this.resolve(ref);
    const ctx = writeContext(params);
    validatePatchOptions(type === 'apply', params.force, params);
    checkSubresource(def, ctx.subresource, 'patch');
    const custom = customResourceInfo(def) !== undefined;
    if (type === 'strategic' && custom) throw unsupportedPatchType(supportedPatchTypes(true));
    const meta = this.patchMetaFor(def);
    if (type === 'apply') return this.#apply(def, namespace, name, body, params, ctx);
    if (ctx.subresource === 'scale') {
      return writeScale(this, def, namespace, name, (scale) => this.#checkSubresourceBody(scaleKind, applyPatch(type, scale, body, undefined, def), params, { type, body }), this.#tracked(def, ctx, 'all'));
    }
    // The patched object is decoded as a body would be: strict errors name no kind, as upstream.
    const mode = params.fieldValidation;
    const check: WriteParams | undefined = mode === undefined ? undefined : { ...params };
    let live: KubeObject | undefined;
    const result = await this.storage.update(def, namespace, name, (stored, mutable) => {
      live = stored;
      const current = mutable();
      // Fields the live object already had unknown (in-process writers may set fields the schema
      // lacks) are not the patch's doing: they stay, unreported.
      const before = check ? new Set(this.#decodeCheck?.(def, current, false).unknown ?? []) : undefined;
      const patched = applyPatch(type, current, body, meta, def);
      if (check && before) {
        check.warnings = [];
        this.#checkPatched(def, patched, before, type, body, check);
      }
      checkPatchedName(patched, name, def.namespaced ? namespace : '');
      return patched;
    }, this.#tracked(def, ctx, 'all'));
    if (check?.warnings) params.warnings?.push(...check.warnings);
    return this.#followed(def, live, result);
  }

  #checkPatched(def: ResourceDefinition, patched: KubeObject, before: ReadonlySet<string>, type: PatchType, body: unknown, params: WriteParams): void {
    const mode = params.fieldValidation ?? 'Ignore';
    const wrongType = customResourceInfo(def) === undefined ? patchedTypeMeta(def, patched, this.index, type === 'json' || type === 'merge') : undefined;
    const check = wrongType === undefined ? this.#decodeCheck?.(def, patched, true, before) : undefined;
    const typeError = wrongType ?? check?.typeError;
    if (typeError !== undefined) throw patchedDecodingError(patched, type, body, typeError);
    reportStrict(mode, check?.unknown ?? [], params, '');
  }

  /**
   * The body of a subresource that speaks another kind (a Scale, an Eviction, a Binding), or a patched
   * Scale, decoded as that kind: `replicas: 1e308` is not an int32 (it reached the Deployment, and its
   * controller asked for that many pods). In-process writes pass, as elsewhere.
   */
  #checkSubresourceBody(kind: SubresourceKind, body: KubeObject, params: WriteParams, patch?: { type: PatchType; body: unknown }): KubeObject {
    const mode = params.fieldValidation;
    const check = mode === undefined ? undefined : this.#decodeCheck?.(kind as ResourceDefinition, body, true);
    if (mode === undefined || check === undefined) return body;
    const cannot = patch ? '' : `${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: `;
    if (check.typeError !== undefined) throw patch ? patchedDecodingError(body, patch.type, patch.body, check.typeError) : badRequest(cannot + check.typeError);
    reportStrict(mode, check.unknown, params, cannot);
    return body;
  }

  /** A DELETE's options body as the meta scheme decodes it: its kind, then its fields' types (400s since 1.35). */
  checkDeleteOptions(body: Record<string, unknown>): void {
    const failure = deleteOptionsTypeMeta(body) ?? this.#decodeCheck?.(deleteOptionsKind as ResourceDefinition, body, false).typeError;
    if (failure !== undefined) throw badRequest(failure);
  }

  /** Server-side apply: merge into the live object (or create it), with conflicts unless forced. */
  async #apply(def: ResourceDefinition, namespace: string, name: string, body: unknown, params: WriteParams, ctx: WriteContext): Promise<PatchResult> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('error decoding YAML: the patch is not an object');
    const applied = body as KubeObject;
    applied.metadata = typeof applied.metadata === 'object' && applied.metadata !== null ? applied.metadata : {};
    if (ctx.subresource === 'scale') {
      const spec = applied.spec as object | undefined;
      return writeScale(this, def, namespace, name, (scale) => this.#checkSubresourceBody(scaleKind, { ...scale, spec: { ...(scale.spec as object), ...spec } }, params, { type: 'apply', body }), ctx);
    }
    // The field manager's outermost layer (versionCheckManager) takes only the kind it serves.
    const gvk = appliedKind(applied);
    if (gvk !== `${def.group}/${def.version}, Kind=${def.kind}`) throw badRequest(`invalid object type: ${gvk}`);
    // structuredMergeManager.Apply: a configuration read back from the server carries managedFields.
    if (applied.metadata.managedFields !== undefined && applied.metadata.managedFields !== null) throw badRequest('metadata.managedFields must be nil');
    const check = this.#decodeCheck?.(def, applied, false);
    const typed = check?.typed ?? check?.unknown.map((path) => ({ path, message: 'field not declared in schema' }));
    if (typed?.length) throw typedPatchFailure(def, namespace, name, typed, applied, this.patchMetaFor(def));
    // The patch handler's checkName, once the field manager has taken the configuration.
    if (applied.metadata.name !== undefined && applied.metadata.name !== name) {
      throw badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (params.duplicateFields?.length && params.fieldValidation === 'Strict') {
      throw badRequest(`error strict decoding YAML: ${params.duplicateFields.map((f) => `duplicate field ${JSON.stringify(f)}`).join(', ')}`);
    }
    const options = () => ({
      ...fieldManagerOptions({ def, manager: ctx.fieldManager, subresource: ctx.subresource, meta: this.patchMetaFor(def), now: () => formatTime(this.clock.now()) }),
      force: params.force ?? false,
    });
    const run = (live: KubeObject | undefined): KubeObject => {
      const keep = live && this.#decodeCheck ? new Set(this.#decodeCheck(def, live, false).unknown) : undefined;
      const result = applyServerSide(live, structuredClone(applied), options());
      if (!result.ok) throw applyError(result, def, namespace, name);
      // The merged object becomes its Go type upstream: a null it holds (a list item the typed
      // patch allows) is that type's zero value. Fields the live object had unknown stay.
      const typeError = this.#decodeCheck?.(def, result.object, true, keep).typeError;
      if (typeError !== undefined) throw newObjectConversionFailure(def, namespace, name, typeError);
      return result.object;
    };
    try {
      let before: KubeObject | undefined;
      const result = await this.storage.update(def, namespace, name, (live, mutable) => {
        before = live;
        return run(mutable());
      }, ctx);
      return await this.#followed(def, before, result);
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'NotFound' || ctx.subresource !== '' || !(await this.#absent(def, namespace, name))) throw error;
    }
    const created = run(undefined);
    created.metadata = { ...created.metadata, name };
    if (def.namespaced) created.metadata.namespace = namespace;
    created.apiVersion ||= apiVersionOf(def);
    created.kind ||= def.kind;
    return { ...(await this.#followed(def, undefined, await this.storage.create(def, namespace, created, ctx))), created: true };
  }

  /** A stored write's follow-up by its kind (write-followers.ts), within the request. */
  /** The result, once the kind's follower (if any) has followed the write; at once without one. */
  #followed<R extends WriteResult>(def: ResourceDefinition, before: KubeObject | undefined, result: R): R | Promise<R> {
    const follower = writeFollowerOf(def);
    if (follower && result.kind === 'stored') return follower.follow(this, before, storedObject(result.kv)).then(() => result);
    return result;
  }

  async #absent(def: ResourceDefinition, namespace: string, name: string): Promise<boolean> {
    return (await this.storage.store.get(this.storage.key(def, namespace, name))) === undefined;
  }

  /**
   * The write context with the field manager recording this write's Update entry, and how the handler
   * tries again when etcd refuses the write for its size (create and patch without managedFields, update
   * without the body's).
   */
  #tracked(def: ResourceDefinition, ctx: WriteContext, tooLargeRetry: 'all' | 'sent'): WriteContext {
    // The tracker's keys first: in Node 20's V8 a key added after a leading spread takes a slow path.
    // A context reaching here has no tracker of its own (writeContext makes none).
    return {
      manageFields: fieldTracker({ def, manager: ctx.fieldManager, subresource: ctx.subresource, meta: this.patchMetaFor(def), now: () => formatTime(this.clock.now()) }),
      tooLargeRetry,
      ...ctx,
    };
  }

  /**
   * DELETE on a collection: every object the list options select is deleted with the same options
   * (one already gone is skipped), and the answer is the list as it was read. Not atomic, as
   * upstream's: an error stops it with what was deleted so far gone. A limit deletes one page.
   */
  async deleteCollection(ref: ResourceRef, namespace: string, params: ListParams, request: DeleteRequest, user?: UserInfo): Promise<ListPage> {
    const def = this.resolve(ref);
    checkVerb(def, 'deletecollection');
    validateDeleteOptions(request);
    const { page } = await this.list(ref, namespace, params);
    for (const kv of page.items) {
      const meta = storedObject(kv).metadata;
      try {
        await this.delete(ref, meta.namespace ?? namespace, meta.name ?? '', request, user);
      } catch (error) {
        if (!isApiError(error) || error.reason !== 'NotFound') throw error;
      }
    }
    return page;
  }

  /** `user` is who the request acts as (absent in process), for admission. */
  async delete(ref: ResourceRef, namespace: string, name: string, request: DeleteRequest, user?: UserInfo): Promise<DeleteResult> {
    const def = this.resolve(ref);
    checkVerb(def, 'delete');
    validateDeleteOptions(request);
    if (def.group === '' && def.resource === 'namespaces') checkNamespaceDeletion(name);
    const outcome = await this.storage.delete(def, namespace, name, request, { dryRun: request.dryRun, fieldManager: '', subresource: '', user });
    if (outcome.kind === 'deleted' && !request.dryRun) await writeFollowerOf(def)?.follow(this, outcome.last, undefined);
    return outcome;
  }
}

/**
 * A private copy of a PUT body for one attempt of the read-modify-write, except for what stays
 * shared: managedFields (writers replace the list and never edit it, as editableCopy, and a client
 * usually sends back the live entries, whose decoded sets the field manager then reuses), and
 * every part the body holds that is the live object's own (stored objects never change). A status
 * write keeps only the body's metadata and status (the status strategy takes the rest from the
 * live object), so only those are copied.
 */
function attemptCopy(obj: KubeObject, subresource: string, current: Readonly<KubeObject>): KubeObject {
  // The object and its metadata are always new (the write sets fields on them); below them, what
  // the body shares with the live object stays shared. managedFields is only read. A status write
  // also shares what it holds equal to the live object: the status strategies build what they change.
  if (subresource === 'status') return fieldsCopy(statusWriteBody(obj), current, 'metadata', statusMetadataCopy, copyJsonSharingEqual) as unknown as KubeObject;
  return fieldsCopy(obj, current, 'metadata', metadataCopy, copyJsonSharing) as unknown as KubeObject;
}

type Copy = (value: unknown, live: unknown) => unknown;

function metadataCopy(sent: unknown, live: unknown): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return copyJson(sent);
  return fieldsCopy(sent, live, 'managedFields', sharedAsIs, copyJsonSharing);
}

function statusMetadataCopy(sent: unknown, live: unknown): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return copyJson(sent);
  return fieldsCopy(sent, live, 'managedFields', sharedAsIs, copyJsonSharingEqual);
}

const sharedAsIs = (value: unknown): unknown => value;

/**
 * A new object with `from`'s defined fields, each a `copy` of it over `live`'s field of the same
 * name, but the field `own`, which `ownCopy` copies (given `live`'s value of it).
 */
function fieldsCopy(from: object, live: unknown, own: string, ownCopy: Copy, copy: Copy): Record<string, unknown> {
  const fields = from as Record<string, unknown>;
  const liveFields = (live ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    setOwn(out, key, key === own ? ownCopy(value, liveFields[key]) : copy(value, Object.hasOwn(liveFields, key) ? liveFields[key] : undefined));
  }
  return out;
}

function statusWriteBody(obj: KubeObject): KubeObject {
  const body: KubeObject = { metadata: obj.metadata };
  if (obj.apiVersion !== undefined) body.apiVersion = obj.apiVersion;
  if (obj.kind !== undefined) body.kind = obj.kind;
  if (obj.status !== undefined) body.status = obj.status;
  return body;
}

function writeContext(params: WriteParams): WriteContext {
  return {
    dryRun: params.dryRun ?? false,
    fieldManager: managerName(params.fieldManager, params.userAgent),
    subresource: params.subresource ?? '',
    user: params.user,
    warnings: params.warnings,
    sentFieldManager: params.fieldManager,
    sentFieldValidation: params.sentFieldValidation,
  };
}

/** Strict fails with every strict error at once; Warn turns each into a warning; Ignore drops them. */
/** The body's duplicate fields and the unknown ones at `unknown` (their paths), refused or warned of as `mode` says. */
/** The decoding error's prefix for a body of `def`'s kind. */
function cannotHandle(def: ResourceDefinition): string {
  return `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: `;
}

function reportStrict(mode: WriteParams['fieldValidation'], unknown: readonly string[], params: WriteParams, prefix: string): void {
  // Most bodies have nothing to report: no arrays built for them.
  if (unknown.length === 0 && !params.duplicateFields?.length) return;
  const errors = [...(params.duplicateFields ?? []).map((f) => `duplicate field ${JSON.stringify(f)}`), ...unknown.map((f) => `unknown field ${JSON.stringify(f)}`)];
  if (errors.length === 0 || mode === undefined || mode === 'Ignore') return;
  if (mode === 'Strict') throw badRequest(`${prefix}strict decoding error: ${errors.join(', ')}`);
  params.warnings?.push(...errors);
}

/** fmt's %+v of a decoded JSON map, as upstream prints a patch that did not decode. */
function goMapString(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goMapString).join(' ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, v]) => `${k}:${goMapString(v)}`).join(' ')}]`;
  }
  return value === null ? '<nil>' : String(value);
}

/** EnsureObjectNamespaceMatchesRequestNamespace: a namespaced body's namespace, when set, is the request's. */
function checkBodyNamespace(def: ResourceDefinition, obj: KubeObject, namespace: string): void {
  if (def.namespaced && obj.metadata?.namespace && obj.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/** The update and patch handlers' checkName: the object names the URL's object. */
function checkName(objectName: string | undefined, name: string): void {
  if (!objectName) throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (objectName !== name) throw badRequest(`the name of the object (${objectName}) does not match the name on the URL (${name})`);
}

/** The patch handler's checkName: the patched object still names the URL's object, in its namespace. */
function checkPatchedName(patched: KubeObject, name: string, namespace: string): void {
  checkName(patched.metadata?.name, name);
  const patchedNamespace = patched.metadata?.namespace ?? '';
  if (namespace !== '' && patchedNamespace !== '' && patchedNamespace !== namespace) {
    throw badRequest(`the namespace of the object (${patchedNamespace}) does not match the namespace on the request (${namespace})`);
  }
}

function checkVerb(def: ResourceDefinition, verb: Verb): void {
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

/** A kind a subresource reads and writes, not a resource of its own: what the decoding check needs of it. */
type SubresourceKind = Pick<ResourceDefinition, 'group' | 'version' | 'kind'>;
const scaleKind: SubresourceKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
const evictionKind: SubresourceKind = { group: 'policy', version: 'v1', kind: 'Eviction' };
const bindingKind: SubresourceKind = { group: '', version: 'v1', kind: 'Binding' };
const tokenRequestKind: SubresourceKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
const deleteOptionsKind: SubresourceKind = { group: '', version: 'v1', kind: 'DeleteOptions' };

/** A patched object that does not decode: the patched JSON shown, or for a strategic merge patch the patch. */
function patchedDecodingError(patched: KubeObject, type: PatchType, body: unknown, typeError: string): ApiError {
  return patchDecodingFailure(type === 'json' || type === 'merge' ? JSON.stringify(patched) : goMapString(body), typeError);
}

/**
 * An applied configuration's GroupVersionKind as Unstructured reads it (`apps/v1, Kind=Deployment`):
 * a field that is not a string reads as "", and an apiVersion ParseGroupVersion refuses (two
 * slashes) leaves the whole GroupVersionKind empty.
 */
function appliedKind(applied: KubeObject): string {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const apiVersion = text(applied.apiVersion);
  if (apiVersion.split('/').length > 2) return '/, Kind=';
  const { group, version } = apiVersionParts(apiVersion);
  return `${group}/${version}, Kind=${text(applied.kind)}`;
}
