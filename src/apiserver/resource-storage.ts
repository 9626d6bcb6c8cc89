// The generic registry store: create, read, update and delete of any kind through its
// ResourceDefinition, with upstream's BeforeCreate/BeforeUpdate order, optimistic
// concurrency, graceful deletion and finalizers.
// Upstream: apiserver/pkg/registry/generic/registry/store.go, registry/rest/{create,update,delete}.go.
import type { FeatureGates, ResourceDefinition, StrategyContext, UserInfo } from '../api/index.ts';
import type { Clock, FieldError, KubeObject, Random } from '../core/index.ts';
import {
  ApiError,
  OptimisticLockErrorMsg,
  alreadyExists,
  badRequest,
  conflict,
  formatTime,
  forbidden,
  forbiddenField,
  generateName,
  invalid,
  notFound,
} from '../core/index.ts';
import type { KeyValue, Store } from '../storage/index.ts';
import { StoreError } from '../storage/index.ts';
import { encodeOwnedForStorage, encodeStored, mutableCopy, rememberStoredObject, storageKey, storagePrefix, storedObject, viewOf } from './stored-object.ts';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../api/index.ts';
import type { ValidateNameFunc } from '../api/index.ts';
import { jsonEqual } from './patch/index.ts';
import { etcdKey, etcdMayRefuse, etcdWriteRefusal, isTooLargeError } from './etcd-limits.ts';
import { customResourceInfo } from './crd/custom-resource.ts';
import type { JsonValue } from './patch/index.ts';
import type { Admission } from './admission.ts';
import { admissionName } from './admission.ts';
import { createWhileTerminatingMessage, isCrdConditionTrue } from './crd/definition.ts';
import type { CustomResourceDefinition } from './crd/types.ts';

export interface WriteContext {
  dryRun: boolean;
  fieldManager: string;
  subresource: string;
  /**
   * `fieldManager` and `fieldValidation` as the request sent them ('' when it did not): admission
   * reviews and policies see them in `request.options`.
   */
  sentFieldManager?: string | undefined;
  sentFieldValidation?: string | undefined;
  /** Who the request acts as; absent for in-process writers (the cluster's own components). */
  user?: UserInfo | undefined;
  /** Where admission's warnings go (the response's Warning headers), when the caller takes them. */
  warnings?: string[] | undefined;
  /**
   * The subresource the request addressed, when the write lands on the main resource (a `scale`
   * write updates the object itself): what admission predicates match, as upstream's attributes carry it.
   */
  requestSubresource?: string | undefined;
  /**
   * The write is a subresource's own change to the object it names (BindingREST's assignPod, the
   * eviction's condition and delete): upstream's REST storage writes it with ValidateAllObjectFunc,
   * so no admission sees it; the request's own object (the Binding, the Eviction) was admitted.
   */
  unadmitted?: boolean | undefined;
  /**
   * Records the write's managedFields on the defaulted object, before admission and the
   * strategy (upstream's fieldManager.UpdateNoErrors); absent for applies, which did so.
   */
  manageFields?: ((live: KubeObject | undefined, obj: KubeObject) => void) | undefined;
  /**
   * How the handler tries again when etcd refuses the write for its size (the handlers' isTooLargeError):
   * 'all' stores the object without managedFields (create, patch); 'sent' drops the body's, so the field
   * manager falls back to the live object's (update); absent, no second try (apply).
   */
  tooLargeRetry?: 'all' | 'sent' | undefined;
}

/** What a write returns: the stored value, or for dry runs the object that would be stored. */
export type WriteResult =
  | { kind: 'stored'; kv: KeyValue }
  | { kind: 'dry-run'; object: KubeObject }
  /** An update removed the last finalizer of an object being deleted, so it is gone. */
  | { kind: 'removed'; object: KubeObject };

export interface DeleteRequest {
  gracePeriodSeconds?: number | undefined;
  propagationPolicy?: string | undefined;
  orphanDependents?: boolean | undefined;
  preconditions?: { uid?: string | undefined; resourceVersion?: string | undefined } | undefined;
  dryRun: boolean;
  /** dryRun's values as sent (validation refuses any but All); absent from in-process callers. */
  dryRunValues?: readonly string[] | undefined;
}

export type DeleteResult = { kind: 'pending'; result: WriteResult } | { kind: 'deleted'; last: KubeObject };

export interface ResourceStorageOptions {
  store: Store;
  clock: Clock;
  random: Random;
  admission: Admission;
  /** Looks up another served kind (admission plugins read namespaces, priority classes). */
  findDefinition: (group: string, version: string, resource: string) => ResourceDefinition | undefined;
  /** The served kind of a group-version (admission policies' paramKind). */
  findKind?: (group: string, version: string, kind: string) => ResourceDefinition | undefined;
  featureGates: FeatureGates;
}

const maxGenerateNameAttempts = 8;

export class ResourceStorage {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #admission: Admission;
  readonly #featureGates: FeatureGates;
  readonly findDefinition: ResourceStorageOptions['findDefinition'];
  readonly findKind: NonNullable<ResourceStorageOptions['findKind']>;

  constructor(options: ResourceStorageOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#random = options.random;
    this.#admission = options.admission;
    this.#featureGates = options.featureGates;
    this.findDefinition = options.findDefinition;
    this.findKind = options.findKind ?? (() => undefined);
  }

  /** The server's clock, for admission plugins that judge time (quota: pods past their grace period). */
  get clock(): Clock {
    return this.#clock;
  }

  get store(): Store {
    return this.#store;
  }

  get featureGates(): FeatureGates {
    return this.#featureGates;
  }

  get random(): Random {
    return this.#random;
  }

  key(def: ResourceDefinition, namespace: string, name: string): string {
    const at = def.storedAs ?? def;
    return storageKey({ group: at.group, resource: at.resource, namespace: def.namespaced ? namespace : '', name });
  }

  prefix(def: ResourceDefinition, namespace: string): string {
    const at = def.storedAs ?? def;
    return storagePrefix(at.group, at.resource, def.namespaced ? namespace : '');
  }

  /**
   * The stored object of another served kind (shared, read-only), or undefined when it is absent or
   * the kind is not served: what admission plugins and authenticators look up in passing.
   */
  async lookup(group: string, version: string, resource: string, namespace: string, name: string): Promise<KubeObject | undefined> {
    const def = this.findDefinition(group, version, resource);
    const kv = def ? await this.#store.get(this.key(def, namespace, name)) : undefined;
    return def && kv ? storedObject(viewOf(def, kv)) : undefined;
  }

  async get(def: ResourceDefinition, namespace: string, name: string): Promise<KeyValue> {
    const kv = await this.#store.get(this.key(def, namespace, name));
    if (!kv) throw notFound(def, name);
    return viewOf(def, kv);
  }

  async create(def: ResourceDefinition, namespace: string, input: KubeObject, ctx: WriteContext): Promise<WriteResult> {
    const obj = input;
    const meta = obj.metadata ?? (obj.metadata = {});
    if (def.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = namespace || meta.namespace || '';
    } else {
      delete meta.namespace;
    }
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    const strategy = this.#strategyContext(ctx);
    const validate = (): FieldError[] => {
      const own = def.validateCreate?.(obj, strategy) ?? [];
      return withoutRepeats(def.validateCreateChecksMeta ? own : [...validateObjectMeta(meta, { namespaced: def.namespaced, nameValidator: nameValidatorOf(def) }), ...own]);
    };
    const mutated = explainFailure(def, meta.name ?? '', validate, () => {
      def.defaults?.(obj);
      if (ctx.manageFields) {
        ctx.manageFields(undefined, obj);
        if (obj.metadata.managedFields) meta.managedFields = obj.metadata.managedFields;
        else delete meta.managedFields;
        obj.metadata = meta;
      }
      const admit = (): Promise<void> | undefined => this.#admission.mutate({ operation: 'CREATE', def, object: obj, old: undefined, ctx, storage: this });
      return customResourceInfo(def) ? this.#refuseWhileTerminating(def, obj).then(admit) : admit();
    });
    if (mutated) await mutated;
    const named = !meta.name && meta.generateName;
    let strippedManagedFields = false;
    for (let attempt = 0; ; attempt++) {
      if (named) meta.name = generateName(this.#random, meta.generateName ?? '');
      this.#initializeMeta(def, obj);
      const prepared = explainFailure(def, meta.name ?? '', validate, () => def.prepareForCreate?.(obj, strategy));
      if (prepared) await prepared;
      const errors = validate();
      if (errors.length > 0) throw invalid(def, meta.name ?? meta.generateName ?? '', errors);
      const admitted = this.#admission.validate({ operation: 'CREATE', def, object: obj, old: undefined, ctx, storage: this });
      if (admitted) await admitted;
      def.pruneForStorage?.(obj);
      if (ctx.dryRun) {
        if (await this.#store.get(this.key(def, namespace, meta.name ?? ''))) throw alreadyExists(def, meta.name ?? '');
        return { kind: 'dry-run', object: obj };
      }
      try {
        const key = this.key(def, meta.namespace ?? '', meta.name ?? '');
        const text = def.storedAs ? encodeStored(def, obj) : encodeOwnedForStorage(obj);
        this.#checkSize(def, meta.namespace ?? '', meta.name ?? '', text, 0, obj);
        if (def.storedAs) return { kind: 'stored', kv: viewOf(def, await this.#store.create(key, text)) };
        return { kind: 'stored', kv: await this.#store.create(key, text, (written) => rememberStoredObject(written, obj)) };
      } catch (error) {
        if (isTooLargeError(error) && ctx.tooLargeRetry && !strippedManagedFields) {
          // create.go sets the object's managedFields to nil and creates again (a new name for generateName).
          strippedManagedFields = true;
          obj.metadata = meta;
          delete meta.managedFields;
          continue;
        }
        if (error instanceof StoreError && error.kind === 'key-exists') {
          if (named && attempt < maxGenerateNameAttempts) {
            // The encoding swapped in the storable metadata; the next name goes on the request's.
            obj.metadata = meta;
            continue;
          }
          throw alreadyExists(def, meta.name ?? '');
        }
        throw error;
      }
    }
  }

  /**
   * Admission of a creating subresource's object (a Binding, an Eviction, a TokenRequest), which is
   * stored nowhere: `mutate` is the create handler's mutating admission, before the REST storage's
   * Create; `validate` the createValidation that Create runs after its own checks. `def` is the
   * resource the request addressed (pods, serviceaccounts, the legacy bindings), `name` the URL's.
   * Upstream: apiserver/pkg/endpoints/handlers/create.go, pkg/registry/core/pod/storage (BindingREST,
   * EvictionREST), pkg/registry/core/serviceaccount/storage/token.go.
   */
  async admitCreate(phase: 'mutate' | 'validate', def: ResourceDefinition, name: string, object: KubeObject, ctx: WriteContext): Promise<void> {
    const attributes = { operation: 'CREATE', def, name, object, old: undefined, ctx, storage: this } as const;
    await (phase === 'mutate' ? this.#admission.mutate(attributes) : this.#admission.validate(attributes));
  }

  /**
   * ConnectResource's admission of a connecter's options (a PodExecOptions ...), mutating then
   * validating, with the URL's namespace and name. Upstream: apiserver/pkg/endpoints/handlers/rest.go.
   */
  async admitConnect(def: ResourceDefinition, namespace: string, name: string, options: KubeObject, ctx: WriteContext): Promise<void> {
    const attributes = { operation: 'CONNECT', def, namespace, name, object: options, old: undefined, ctx, storage: this } as const;
    await this.#admission.mutate(attributes);
    await this.#admission.validate(attributes);
  }

  /**
   * The custom resource handler's forbidCreateAdmission, which wraps admission while the CRD's
   * Terminating condition is True: a create, by POST or by an apply, is forbidden.
   */
  async #refuseWhileTerminating(def: ResourceDefinition, obj: KubeObject): Promise<void> {
    const info = customResourceInfo(def);
    if (!info) return;
    const crd = await this.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', '', info.crd.metadata.name ?? '');
    if (crd && isCrdConditionTrue(crd as CustomResourceDefinition, 'Terminating')) throw forbidden(def, admissionName(obj), createWhileTerminatingMessage);
  }

  #initializeMeta(def: ResourceDefinition, obj: KubeObject): void {
    const meta = obj.metadata;
    meta.uid = this.#random.uuid();
    meta.creationTimestamp = formatTime(this.#clock.now());
    // Deleting a field that is there leaves V8 a slow dictionary-mode object: only when needed.
    if (meta.deletionTimestamp !== undefined) delete meta.deletionTimestamp;
    if (meta.deletionGracePeriodSeconds !== undefined) delete meta.deletionGracePeriodSeconds;
    if (meta.selfLink !== undefined) delete meta.selfLink;
    if (tracksGeneration(def)) meta.generation = 1;
    else if (meta.generation !== undefined) delete meta.generation;
    if (!obj.apiVersion) obj.apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
    if (!obj.kind) obj.kind = def.kind;
    // managedFields goes last when the object is encoded (storableMetadata).
  }

  /**
   * Read-modify-write with retries: `mutate` gets a fresh copy of the current object and
   * returns the desired one (or throws an ApiError). A resourceVersion precondition (from a
   * PUT body or a patch) fails with 409 instead of retrying.
   */
  async update(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    mutate: (current: Readonly<KubeObject>, mutable: () => KubeObject) => KubeObject | Promise<KubeObject>,
    ctx: WriteContext,
  ): Promise<WriteResult> {
    const key = this.key(def, namespace, name);
    // Set once etcd refused the write for its size and the handler tries again without managedFields.
    let stripped: 'all' | 'sent' | undefined;
    for (;;) {
      const storedKv = await this.#store.get(key);
      if (!storedKv) throw notFound(def, name);
      const currentKv = viewOf(def, storedKv);
      // The live object is the shared decoded one (never written to); `mutate` asks for a private
      // copy only when it edits the current object rather than replacing it.
      const old = storedObject(currentKv);
      const desired = await mutate(old, () => editableCopy(currentKv, old));
      if (stripped === 'sent' && desired.metadata?.managedFields !== undefined) delete desired.metadata.managedFields;
      // The desired object's resourceVersion is the precondition: a PUT body's, a patch's, or
      // (untouched) the current one, which a concurrent write makes stale and so retries.
      const precondition = desired.metadata?.resourceVersion;
      if (precondition && precondition !== String(currentKv.modRevision)) throw conflict(def, name, OptimisticLockErrorMsg);
      const prepared = await this.#prepareUpdate(def, desired, old, currentKv.value, ctx, stripped === 'all');
      const next = prepared.object;
      // Encoded once: the same text decides "no change" and is what gets stored.
      if (prepared.encoded === currentKv.value) return { kind: 'stored', kv: currentKv };
      // A dry run answers as if written: the object keeps the version it was read at.
      if (ctx.dryRun) return { kind: 'dry-run', object: { ...next, metadata: { ...next.metadata, resourceVersion: String(currentKv.modRevision) } } };
      try {
        if (isFinalized(next)) {
          await this.#store.delete(key, currentKv.modRevision);
          return { kind: 'removed', object: next };
        }
        const text = def.storedAs ? encodeStored(def, next) : prepared.encoded;
        this.#checkSize(def, namespace, name, text, currentKv.modRevision, next);
        if (def.storedAs) return { kind: 'stored', kv: viewOf(def, await this.#store.update(key, text, currentKv.modRevision)) };
        const kv = await this.#store.update(key, text, currentKv.modRevision, (written) => rememberStoredObject(written, next));
        return { kind: 'stored', kv };
      } catch (error) {
        if (isTooLargeError(error) && ctx.tooLargeRetry && !stripped) {
          stripped = ctx.tooLargeRetry;
          continue;
        }
        if (error instanceof StoreError && error.kind === 'revision-mismatch') continue;
        if (error instanceof StoreError && error.kind === 'not-found') throw notFound(def, name);
        throw error;
      }
    }
  }

  async #prepareUpdate(def: ResourceDefinition, input: KubeObject, old: Readonly<KubeObject>, oldText: string, ctx: WriteContext, withoutManagedFields = false): Promise<{ object: KubeObject; encoded: string }> {
    const strategy = this.#strategyContext(ctx);
    let obj = input;
    obj.metadata ??= {};
    if (obj.metadata.name !== undefined && obj.metadata.name !== old.metadata.name) {
      throw badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${old.metadata.name})`);
    }
    if (def.namespaced && obj.metadata.namespace && obj.metadata.namespace !== old.metadata.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.apiVersion ||= old.apiVersion ?? '';
    obj.kind ||= old.kind ?? def.kind;
    def.defaults?.(obj);
    if (ctx.subresource === 'status') {
      // An apply to status brings its managed fields; an update's are recomputed from the live ones.
      const managedFields = obj.metadata.managedFields;
      // Built-in status strategies reset spec only (plus what prepareForUpdate restores); custom
      // resources keep all stored metadata (statusResetsMetadata), as upstream.
      obj = { ...old, status: obj.status, metadata: def.statusResetsMetadata ? { ...old.metadata } : { ...obj.metadata } };
      setOrDelete(obj.metadata, 'managedFields', managedFields);
    } else if (ctx.subresource === 'finalize') {
      obj = { ...old, metadata: { ...old.metadata }, spec: { ...(old.spec as object), finalizers: (obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [] } };
    } else if (ctx.subresource === '' && def.hasStatus) {
      obj.status = old.status;
    }
    this.#keepServerMetadata(obj, old);
    ctx.manageFields?.(old, obj);
    if (!ctx.unadmitted) await this.#admission.mutate({ operation: 'UPDATE', def, object: obj, old, ctx, storage: this });
    // patch.go's second try strips them after the patch, the field manager and mutating admission.
    if (withoutManagedFields && obj.metadata.managedFields !== undefined) delete obj.metadata.managedFields;
    def.prepareForUpdate?.(obj, old, strategy);
    // BindingREST writes nodeName straight to storage, so a bind leaves the generation alone (pods/resize then goes 1 -> 2).
    if (tracksGeneration(def) && ctx.subresource !== 'binding' && specChanged(obj, old, def.hasStatus)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    const errors: FieldError[] = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...finalizerErrors(obj, old)];
    // binding and finalize are server-side strategies with their own checks (BindingREST, finalizeStrategy).
    if (ctx.subresource === 'status') errors.push(...(def.validateStatusUpdate?.(obj, old, strategy) ?? []));
    else if (ctx.subresource !== 'binding' && ctx.subresource !== 'finalize') errors.push(...(def.validateUpdate?.(obj, old, strategy) ?? []));
    if (errors.length > 0) throw invalid(def, old.metadata.name ?? '', withoutRepeats(errors));
    if (!ctx.unadmitted) await this.#admission.validate({ operation: 'UPDATE', def, object: obj, old, ctx, storage: this });
    def.pruneForStorage?.(obj);
    // The storable metadata leaves resourceVersion out.
    return { object: obj, encoded: encodeOwnedForStorage(obj, { object: old, text: oldText }) };
  }

  /** etcd's size limits, which a write meets in the store (a dry run never gets there). */
  #checkSize(def: ResourceDefinition, namespace: string, name: string, text: string, modRevision: number, object: KubeObject): void {
    if (!etcdMayRefuse(text)) return;
    const at = def.storedAs ?? def;
    const custom = customResourceInfo(def) !== undefined;
    const key = etcdKey({ group: at.group, resource: at.resource, custom }, def.namespaced ? namespace : '', name);
    // A kind stored as another is measured in its stored form, which only the text holds.
    const refusal = etcdWriteRefusal({ key, value: text, object: def.storedAs ? undefined : (object as unknown as Record<string, unknown>), custom, modRevision });
    if (refusal) throw refusal;
  }

  #keepServerMetadata(obj: KubeObject, old: KubeObject): void {
    const meta = obj.metadata;
    const was = old.metadata;
    meta.name = was.name ?? '';
    if (was.namespace !== undefined) meta.namespace = was.namespace;
    setOrDelete(meta, 'uid', was.uid);
    setOrDelete(meta, 'creationTimestamp', was.creationTimestamp);
    setOrDelete(meta, 'deletionTimestamp', was.deletionTimestamp);
    setOrDelete(meta, 'deletionGracePeriodSeconds', was.deletionGracePeriodSeconds);
    setOrDelete(meta, 'generation', was.generation);
    setOrDelete(meta, 'generateName', meta.generateName ?? was.generateName);
    delete meta.selfLink;
  }

  async delete(def: ResourceDefinition, namespace: string, name: string, request: DeleteRequest, ctx: WriteContext): Promise<DeleteResult> {
    const key = this.key(def, namespace, name);
    for (;;) {
      const storedKv = await this.#store.get(key);
      if (!storedKv) throw notFound(def, name);
      const currentKv = viewOf(def, storedKv);
      const current = mutableCopy(currentKv);
      checkPreconditions(def, name, current, request);
      if (!ctx.unadmitted) await this.#admission.validateDelete({ def, old: current, ctx, storage: this, options: request });
      const plan = this.#planDeletion(def, current, request);
      if (plan.kind === 'delete-now') {
        if (request.dryRun) return { kind: 'deleted', last: current };
        try {
          await this.#store.delete(key, currentKv.modRevision);
          return { kind: 'deleted', last: current };
        } catch (error) {
          if (error instanceof StoreError && error.kind === 'revision-mismatch') continue;
          if (error instanceof StoreError && error.kind === 'not-found') throw notFound(def, name);
          throw error;
        }
      }
      if (plan.kind === 'unchanged' || request.dryRun) {
        return { kind: 'pending', result: request.dryRun ? { kind: 'dry-run', object: plan.object } : { kind: 'stored', kv: currentKv } };
      }
      try {
        delete plan.object.metadata.resourceVersion;
        const text = encodeStored(def, plan.object);
        this.#checkSize(def, namespace, name, text, currentKv.modRevision, plan.object);
        const kv = await this.#store.update(key, text, currentKv.modRevision);
        return { kind: 'pending', result: { kind: 'stored', kv } };
      } catch (error) {
        if (error instanceof StoreError && error.kind === 'revision-mismatch') continue;
        throw error;
      }
    }
  }

  /** Decides between removing now and marking for deletion (finalizers, graceful pods). */
  #planDeletion(def: ResourceDefinition, obj: KubeObject, request: DeleteRequest): { kind: 'delete-now' } | { kind: 'unchanged' | 'mark'; object: KubeObject } {
    const meta = obj.metadata;
    const finalizers = [...(meta.finalizers ?? [])];
    const policy = request.propagationPolicy ?? (request.orphanDependents === true ? 'Orphan' : request.orphanDependents === false ? 'Background' : undefined);
    const grace = gracefulPeriod(def, obj, request);
    const alreadyDeleting = meta.deletionTimestamp !== undefined;
    if (alreadyDeleting) {
      const currentGrace = meta.deletionGracePeriodSeconds ?? 0;
      if (grace !== undefined && grace < currentGrace) {
        if (grace === 0 && finalizers.length === 0) return { kind: 'delete-now' };
        meta.deletionGracePeriodSeconds = grace;
        meta.deletionTimestamp = formatTime(this.#clock.now() + graceMilliseconds(grace));
        return { kind: 'mark', object: obj };
      }
      return { kind: 'unchanged', object: obj };
    }
    if (policy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
    if (policy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
    const namespaceFinalizers = specFinalizers(obj);
    if (finalizers.length === 0 && (grace ?? 0) === 0 && namespaceFinalizers.length === 0) return { kind: 'delete-now' };
    if (namespaceFinalizers.length > 0) obj.status = { ...(obj.status as object), phase: 'Terminating' };
    meta.finalizers = finalizers;
    if (finalizers.length === 0) delete meta.finalizers;
    meta.deletionGracePeriodSeconds = grace ?? 0;
    meta.deletionTimestamp = formatTime(this.#clock.now() + graceMilliseconds(grace ?? 0));
    if (tracksGeneration(def)) meta.generation = (meta.generation ?? 0) + 1;
    return { kind: 'mark', object: obj };
  }

  #strategyContext(ctx: WriteContext): StrategyContext {
    const strategy: StrategyContext = { now: this.#clock.now(), featureGates: this.#featureGates };
    if (ctx.subresource) strategy.subresource = ctx.subresource;
    if (ctx.user) strategy.user = ctx.user;
    return strategy;
  }
}

/**
 * Most kinds' validation checks their ObjectMeta too, as each upstream strategy's Validate does, and
 * the generic checks here (upstream's BeforeCreate/BeforeUpdate) would report the same mistake again.
 */
function withoutRepeats(errors: FieldError[]): FieldError[] {
  if (errors.length < 2) return errors;
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.type}\u0000${e.field}\u0000${e.detail}\u0000${e.omitValue ? '' : JSON.stringify(e.badValue) ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Strategy hooks (defaults, admission, prepare) assume a structurally valid object, as Go's
 * typed decoding guarantees upstream. When one throws on malformed input, the validation
 * errors are what the user needs to see; an error with no validation failure is a bug.
 */
function explainFailure(def: ResourceDefinition, name: string, validate: () => FieldError[], run: () => unknown): Promise<void> | undefined {
  // A step that finishes at once (most prepareForCreate hooks) is explained at once: an async
  // wrapper cost every create two turns of the microtask queue for nothing.
  let pending: unknown;
  try {
    pending = run();
  } catch (error) {
    throw explained(def, name, validate, error);
  }
  if (!(pending instanceof Promise)) return undefined;
  return pending.then(
    () => undefined,
    (error: unknown) => {
      throw explained(def, name, validate, error);
    },
  );
}

/** The error a failed step answers with: an ApiError as it is, else validation's errors when it finds any, else the failure itself. */
function explained(def: ResourceDefinition, name: string, validate: () => FieldError[], error: unknown): unknown {
  if (error instanceof ApiError) return error;
  let errors: FieldError[] = [];
  try {
    errors = validate();
  } catch {
    // Validation itself could not cope with the object: report the original failure.
  }
  return errors.length > 0 ? invalid(def, name, errors) : error;
}

/**
 * A grace period as BeforeDelete adds it to now: `time.Second * time.Duration(seconds)`, an int64 of
 * nanoseconds that wraps past ~292 years rather than leaving the range a timestamp can be written in.
 */
function graceMilliseconds(seconds: number): number {
  if (Math.abs(seconds) <= 9_000_000_000) return seconds * 1000;
  const nanoseconds = BigInt.asIntN(64, BigInt(Math.trunc(seconds)) * 1_000_000_000n);
  return Number(nanoseconds / 1_000_000n);
}

// Upstream: each strategy's NameFunc — namespaces are DNS labels, services DNS-1035 labels.
function nameValidatorOf(def: ResourceDefinition): ValidateNameFunc {
  if (def.validateName) return def.validateName;
  if (def.group === '' && def.resource === 'namespaces') return nameIsDNSLabel;
  if (def.group === '' && def.resource === 'services') return nameIsDNS1035Label;
  return nameIsDNSSubdomain;
}

/** Kinds with a spec/status split track generation, as upstream strategies do, unless theirs does not. */
function tracksGeneration(def: ResourceDefinition): boolean {
  return def.tracksGeneration ?? def.hasStatus;
}

// Everything but metadata and status is "spec" here, as each strategy's PrepareForUpdate compares it; a
// kind without a status subresource (a custom resource's) counts its status too, as copyNonMetadata does.
function specChanged(obj: KubeObject, old: KubeObject, statusApart: boolean): boolean {
  for (const key of new Set([...Object.keys(obj), ...Object.keys(old)])) {
    if (key === 'metadata' || (key === 'status' && statusApart)) continue;
    if (!jsonEqual(obj[key] as JsonValue | undefined, old[key] as JsonValue | undefined)) return true;
  }
  return false;
}

/**
 * A private copy of the live object for a read-modify-write, except that managedFields stays the
 * live (shared) list: writers replace it and never edit it, and keeping its identity lets the
 * field manager reuse the live entries' decoded field sets when a patch leaves them alone.
 */
function editableCopy(kv: KeyValue, live: Readonly<KubeObject>): KubeObject {
  const copy = mutableCopy(kv);
  const managedFields = live.metadata.managedFields;
  if (managedFields) copy.metadata.managedFields = managedFields;
  return copy;
}

function isFinalized(obj: KubeObject): boolean {
  const meta = obj.metadata;
  return meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).length === 0 && (meta.deletionGracePeriodSeconds ?? 0) === 0 && specFinalizers(obj).length === 0;
}

/** Namespaces carry their own finalizers in spec.finalizers (emptied through /finalize). */
function specFinalizers(obj: KubeObject): readonly string[] {
  if (obj.kind !== 'Namespace') return [];
  return (obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
}

function finalizerErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  if (!old.metadata.deletionTimestamp) return [];
  const before = new Set(old.metadata.finalizers ?? []);
  const added = (obj.metadata.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return [];
  return [forbiddenField('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`)];
}

// Upstream: pkg/registry/core/pod/strategy.go CheckGracefulDelete — bound, non-terminal
// pods are deleted gracefully; everything else goes at once.
function gracefulPeriod(def: ResourceDefinition, obj: KubeObject, request: DeleteRequest): number | undefined {
  if (def.group !== '' || def.resource !== 'pods') return request.gracePeriodSeconds === undefined ? undefined : 0;
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const status = (obj.status ?? {}) as { phase?: string };
  let grace = request.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  if (!spec.nodeName || status.phase === 'Succeeded' || status.phase === 'Failed') grace = 0;
  return Math.max(0, grace);
}

function checkPreconditions(def: ResourceDefinition, name: string, obj: KubeObject, request: DeleteRequest): void {
  const pre = request.preconditions;
  if (pre?.uid && pre.uid !== obj.metadata.uid) {
    throw new ApiError('Conflict', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`, {
      name,
      group: def.group,
      kind: def.resource,
    });
  }
  if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw new ApiError(
      'Conflict',
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
      { name, group: def.group, kind: def.resource },
    );
  }
}

function setOrDelete<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}
