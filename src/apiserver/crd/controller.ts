// Serves custom resources as their CustomResourceDefinitions come and go: a CRD that is created
// gets its names checked, its versions served (discovery and OpenAPI follow the ResourceIndex)
// and its NamesAccepted/Established conditions; a deleted one stays served while its finalizer
// (finalizer.ts) deletes its objects, and stops being served when it goes.
// Upstream: apiextensions-apiserver/pkg/controller/{status/naming_controller.go,
// establish/establishing_controller.go, finalizer/crd_finalizer.go}, apiserver/customresource_handler.go.
import type { PatchMeta, ResourceDefinition, ResourceRef } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { Condition, KubeObject } from '../../core/index.ts';
import { formatTime, isApiError } from '../../core/index.ts';
import type { DecodeCheck } from '../openapi/index.ts';
import { checkObjectMeta } from '../openapi/index.ts';
import type { OpenApiSchema } from '../openapi/index.ts';
import type { ApiServer } from '../server.ts';
import { storedObject } from '../stored-object.ts';
import type { ServerWatchEvent } from '../watch.ts';
import { customResourceDefinition, customResourceInfo } from './custom-resource.ts';
import { customResourceDefinitionKind } from './definition.ts';
import { CrdFinalizer, isFinalizing, releasedCrd } from './finalizer.ts';
import type { TerminatingCondition } from './finalizer.ts';
import { pruneUnknown } from './schema.ts';
import { coerceEmbedded } from './embedded-resource.ts';
import { applyTypeErrors } from './apply-typing.ts';
import { publishedSchema } from './openapi-schema.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from './types.ts';

const crdRef: ResourceRef = refs.customResourceDefinitions;

export interface CustomResourcesOptions {
  /** ObjectMeta's patch metadata, for server-side apply of custom objects. */
  metadataMeta?: PatchMeta | undefined;
  log?: ((line: string) => void) | undefined;
}

export class CustomResources {
  readonly #server: ApiServer;
  readonly #options: CustomResourcesOptions;
  /** CRD name -> the definitions it serves. */
  readonly #served = new Map<string, ResourceDefinition[]>();
  #queue: Promise<void> = Promise.resolve();
  #watch: { stop(): void } | undefined;
  #stopped = false;
  readonly #finalizer: CrdFinalizer;

  constructor(server: ApiServer, options: CustomResourcesOptions = {}) {
    this.#server = server;
    this.#options = options;
    if (!server.index.find(crdRef.group, crdRef.version, crdRef.resource)) server.index.add(customResourceDefinitionKind);
    this.#finalizer = new CrdFinalizer({
      server,
      definitionOf: (crd) => this.#definitionOf(crd),
      release: (name, condition) => this.#inQueue(() => this.#release(name, condition)),
      log: options.log,
    });
  }

  /** Serves the CRDs already stored, then follows changes. Resolves once the stored ones serve. */
  async start(): Promise<void> {
    const { page } = await this.#server.list(crdRef, '', {});
    for (const kv of page.items) await this.#reconcile(storedObject(kv) as CustomResourceDefinition);
    const { watch } = await this.#server.watch(crdRef, '', { resourceVersion: String(page.revision) }, {
      send: (event) => this.#enqueue(event),
      close: () => {},
    });
    this.#watch = watch;
  }

  stop(): void {
    this.#stopped = true;
    this.#watch?.stop();
    this.#finalizer.stop();
  }

  /**
   * Resolves when every change seen so far has been acted on and each deleted CRD's finalizer is
   * waiting (to poll for its remaining objects, or to retry) or done (tests, bootstrap).
   */
  async settled(): Promise<void> {
    await this.#queue;
    await this.#finalizer.idle();
    await this.#queue;
  }

  #enqueue(event: ServerWatchEvent): void {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
    const crd = storedObject(event.kv) as CustomResourceDefinition;
    void this.#inQueue(async () => {
      if (event.type === 'DELETED') this.#unserve(crd.metadata.name ?? '');
      else await this.#reconcile(crd);
    }).catch((error: unknown) => {
      this.#options.log?.(`crd ${crd.metadata.name ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Runs `step` after every change queued so far; the queue goes on whatever `step` throws. */
  #inQueue(step: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(() => (this.#stopped ? undefined : step()));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #reconcile(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name ?? '';
    // Released by its finalizer, waiting on finalizers of others: its objects are gone.
    if (crd.metadata.deletionTimestamp && !isFinalizing(crd)) {
      this.#unserve(name);
      return;
    }
    const conflict = this.#conflict(crd);
    if (!conflict) this.#serve(crd);
    // A terminating CRD keeps serving, so its objects' own finalizers can be removed.
    if (crd.metadata.deletionTimestamp) {
      this.#finalizer.enqueue(crd);
      return;
    }
    await this.#writeStatus(name, conflict);
  }

  /** A plural or kind another CRD of the group already serves: `"foos" is already in use`. */
  #conflict(crd: CustomResourceDefinition): { reason: string; message: string } | undefined {
    const { group, names } = crd.spec;
    for (const [other, defs] of this.#served) {
      if (other === crd.metadata.name) continue;
      for (const d of defs) {
        if (d.group !== group) continue;
        if (d.resource === names.plural) return { reason: 'PluralConflict', message: `"${names.plural}" is already in use` };
        if (d.kind === names.kind) return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
      }
    }
    return undefined;
  }

  #serve(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name ?? '';
    const defs = crd.spec.versions.filter((v) => v.served).map((v) => customResourceDefinition(crd, v, this.#options.metadataMeta));
    const index = this.#server.index;
    for (const old of this.#served.get(name) ?? []) {
      if (!defs.some((d) => d.version === old.version && d.resource === old.resource)) index.remove(old.group, old.version, old.resource);
    }
    for (const def of defs) index.add(def);
    this.#served.set(name, defs);
  }

  #unserve(name: string): void {
    for (const def of this.#served.get(name) ?? []) this.#server.index.remove(def.group, def.version, def.resource);
    this.#served.delete(name);
  }

  async #writeStatus(name: string, conflict: { reason: string; message: string } | undefined): Promise<void> {
    const now = formatTime(this.#server.clock.now());
    await this.#server.storage.update(customResourceDefinitionKind, '', name, (_current, mutable) => {
      const crd = mutable() as CustomResourceDefinition;
      const status = crd.status ?? {};
      const accepted: CustomResourceDefinitionNames = conflict ? (status.acceptedNames ?? { plural: '', kind: '' }) : crd.spec.names;
      const conditions = mergeConditions(status.conditions ?? [], [
        conflict
          ? { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message }
          : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
        conflict
          ? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }
          : { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
      ], now);
      const storage = crd.spec.versions.find((v) => v.storage)?.name;
      const storedVersions = [...(status.storedVersions ?? [])];
      if (storage && !storedVersions.includes(storage)) storedVersions.push(storage);
      return { ...crd, status: { ...status, conditions, acceptedNames: accepted, storedVersions } } as KubeObject;
    }, { dryRun: false, fieldManager: '', subresource: 'status' });
  }

  /** The storage version's definition: every version's objects are stored under its key. */
  #definitionOf(crd: CustomResourceDefinition): ResourceDefinition | undefined {
    const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
    return version && customResourceDefinition(crd, version, this.#options.metadataMeta);
  }

  /** The finalizer is done: stop serving, then store its last condition without its finalizer. */
  async #release(name: string, condition: TerminatingCondition): Promise<void> {
    this.#unserve(name);
    const now = formatTime(this.#server.clock.now());
    try {
      await this.#server.storage.update(customResourceDefinitionKind, '', name, (_current, mutable) => releasedCrd(mutable() as CustomResourceDefinition, condition, now), {
        dryRun: false,
        fieldManager: '',
        subresource: 'status',
      });
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'NotFound') throw error;
    }
  }

  /** Typed decoding of a custom object: unknown fields per its schema (pruned with `prune`). */
  decodeCheck(def: ResourceDefinition, obj: unknown, prune: boolean, keep?: ReadonlySet<string>): DecodeCheck | undefined {
    const info = customResourceInfo(def);
    if (!info) return undefined;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { unknown: [], typeError: undefined };
    const json = obj as Record<string, unknown>;
    const metadata = checkObjectMeta(obj, keep ? { prune, keep } : { prune });
    // Server-side apply types the configuration before anything is pruned, and may accept what pruning drops.
    const applyErrors = prune ? [] : applyTypeErrors(json, info.schema);
    const rest = pruneUnknown(json, info.schema, prune, keep);
    const embedded = coerceEmbedded(json, info.schema, prune, keep);
    const typed = [...(metadata.typed ?? []), ...embedded.typed, ...applyErrors];
    const check: DecodeCheck = { unknown: [...metadata.unknown, ...rest, ...embedded.unknown], typeError: metadata.typeError ?? embedded.typeError };
    // Present even when empty: not every unknown field of a custom resource fails its typing.
    check.typed = typed;
    return check;
  }

  /** The OpenAPI component of a served custom kind: `com.example.stable.v1.CronTab`. */
  openApiSchema(def: ResourceDefinition, v2 = false): { name: string; schema: OpenApiSchema } | undefined {
    const info = customResourceInfo(def);
    if (!info) return undefined;
    const name = `${def.group.split('.').reverse().join('.')}.${def.version}.${def.kind}`;
    return { name, schema: publishedSchema(info.schema, def, v2) };
  }

  /** Whether `def` is a custom resource (strategic merge patch does not apply to them). */
  isCustom(def: ResourceDefinition): boolean {
    return customResourceInfo(def) !== undefined;
  }
}

function mergeConditions(existing: readonly Condition[], desired: readonly Omit<Condition, 'lastTransitionTime'>[], now: string): Condition[] {
  const out = existing.filter((c) => !desired.some((d) => d.type === c.type));
  for (const d of desired) {
    const was = existing.find((c) => c.type === d.type);
    out.push({ ...d, lastTransitionTime: was && was.status === d.status ? (was.lastTransitionTime ?? now) : now });
  }
  return out;
}
