// Informer: a list+watch cache of one resource, with event handlers and indexes.
//
// Contract (after client-go's SharedInformer, tools/cache/shared_informer.go):
// - After start(), the cache converges to the server's state: it lists, then watches from
//   the list's resourceVersion; when the watch ends or fails (410 Expired included) it
//   lists again after a short backoff and replays the differences as handler calls.
// - Handlers are called in the order the cache changes, one at a time, never inside the
//   writer's call stack. onUpdate also fires when only the resourceVersion changed.
// - hasSynced() is true once the first list has been delivered to the handlers.
// - Objects handed out are shared and frozen: never mutate them.
import type { ResourceRef } from '../api/index.ts';
import type { Clock, KubeObject } from '../core/index.ts';
import { jsonEqual, keyOf } from '../core/index.ts';
import type { Client, ClientWatch, ClientWatchEvent } from './client.ts';

export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  client: Client;
  ref: ResourceRef;
  clock: Clock;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  log?: (line: string) => void;
  /** Delay before relisting after a watch ends with an error (default 1 s). */
  relistDelayMs?: number;
  /**
   * Shared by several components (SharedInformers): each calls start() and stop() once; it lists
   * and watches from the first start until the last stop.
   */
  shared?: boolean;
}

export type IndexFunc<T> = (obj: T) => readonly string[];

/**
 * A cached object, shared by the item map and every index bucket that holds it: an update that
 * keeps the object's indexed values (a status write keeps its node, namespace and owner) replaces
 * `obj` once instead of writing the new object into each bucket, a map write that missed the CPU
 * caches for every index (ten on the controller manager's pods). client-go's indexer keeps keys
 * in its buckets for the same reason (thread_safe_store.go updateIndices).
 */
interface Cell<T> {
  obj: T;
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly #options: InformerOptions;
  readonly #items = new Map<string, Cell<T>>();
  // Each handler's callbacks, looked up once: every cache change calls them, and reading the
  // method off a dozen differently shaped handler objects at each call costs more than the call.
  readonly #onAdd: ((obj: T) => void)[] = [];
  readonly #onUpdate: ((oldObj: T, newObj: T) => void)[] = [];
  readonly #onDelete: ((obj: T) => void)[] = [];
  /** The indexes in the order added: a name, its function and its buckets (value -> key -> cell). */
  readonly #indexList: { name: string; fn: IndexFunc<T>; buckets: Map<string, Map<string, Cell<T>>> }[] = [];
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  #watch: ClientWatch | undefined;
  #stopped = true;
  #resourceVersion = '';
  #users = 0;

  constructor(options: InformerOptions) {
    this.#options = options;
  }

  addHandlers(handlers: InformerHandlers<T>): void {
    if (handlers.onAdd) this.#onAdd.push(handlers.onAdd.bind(handlers));
    if (handlers.onUpdate) this.#onUpdate.push(handlers.onUpdate.bind(handlers));
    if (handlers.onDelete) this.#onDelete.push(handlers.onDelete.bind(handlers));
    if (this.#synced) for (const cell of this.#items.values()) handlers.onAdd?.(cell.obj);
  }

  /**
   * Adds a named index; lookups with byIndex(name, value). Built from the cached objects when added
   * late. On a shared informer a name means one index for every user: the same name, the same function.
   */
  addIndex(name: string, fn: IndexFunc<T>): void {
    const buckets = new Map<string, Map<string, Cell<T>>>();
    const at = this.#indexList.findIndex((i) => i.name === name);
    if (at >= 0) this.#indexList[at] = { name, fn, buckets };
    else this.#indexList.push({ name, fn, buckets });
    for (const [key, cell] of this.#items) indexInsert(buckets, fn(cell.obj), key, cell);
  }

  start(): void {
    if (this.#options.shared && this.#users++ > 0) return;
    if (!this.#stopped) return;
    this.#stopped = false;
    void this.#listAndWatch();
  }

  stop(): void {
    if (this.#options.shared && --this.#users > 0) return;
    this.#stopped = true;
    this.#watch?.stop();
    this.#watch = undefined;
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  waitForSync(): Promise<void> {
    if (this.#synced) return Promise.resolve();
    return new Promise((resolve) => this.#syncWaiters.push(resolve));
  }

  get(key: string): T | undefined {
    return this.#items.get(key)?.obj;
  }

  getByName(namespace: string | undefined, name: string): T | undefined {
    return this.#items.get(namespace ? `${namespace}/${name}` : name)?.obj;
  }

  list(): T[] {
    return Array.from(this.#items.values(), objectOf);
  }

  get size(): number {
    return this.#items.size;
  }

  byIndex(name: string, value: string): T[] {
    const bucket = this.#indexList.find((index) => index.name === name)?.buckets.get(value);
    return bucket ? Array.from(bucket.values(), objectOf) : [];
  }

  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  async #listAndWatch(): Promise<void> {
    const { client, ref, namespace, labelSelector, fieldSelector } = this.#options;
    const selectors: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {};
    if (namespace) selectors.namespace = namespace;
    if (labelSelector) selectors.labelSelector = labelSelector;
    if (fieldSelector) selectors.fieldSelector = fieldSelector;
    try {
      const list = await client.list<T>(ref, selectors);
      if (this.#stopped) return;
      this.#replace(list.items);
      this.#resourceVersion = list.metadata.resourceVersion ?? '';
      this.#markSynced();
      this.#watch = client.watch<T>(
        ref,
        { resourceVersion: this.#resourceVersion, allowWatchBookmarks: true, ...selectors },
        (event) => this.#onWatchEvent(event),
        (error) => this.#onWatchClosed(error),
      );
    } catch (error) {
      this.#onWatchClosed(error);
    }
  }

  #onWatchEvent(event: ClientWatchEvent<T>): void {
    if (this.#stopped) return;
    const obj = event.object as T;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.#resourceVersion = obj.metadata.resourceVersion ?? this.#resourceVersion;
        this.#upsert(obj);
        return;
      case 'DELETED':
        this.#resourceVersion = obj.metadata.resourceVersion ?? this.#resourceVersion;
        this.#remove(keyOf(obj));
        return;
      case 'BOOKMARK':
        this.#resourceVersion = obj.metadata.resourceVersion ?? this.#resourceVersion;
        return;
      case 'ERROR':
        // An ERROR (410 Expired) ends this watch; the close handler relists.
        return;
      default: {
        const never: never = event.type;
        throw new Error(`unknown watch event ${String(never)}`);
      }
    }
  }

  #onWatchClosed(error?: unknown): void {
    this.#watch = undefined;
    if (this.#stopped) return;
    if (error) this.#options.log?.(`informer ${this.#options.ref.resource}: ${error instanceof Error ? error.message : String(error)}; relisting`);
    const delay = error ? (this.#options.relistDelayMs ?? 1000) : 0;
    this.#options.clock.after(delay, () => {
      if (!this.#stopped) void this.#listAndWatch();
    });
  }

  #replace(items: readonly T[]): void {
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(keyOf(obj));
      this.#upsert(obj);
    }
    for (const key of [...this.#items.keys()]) if (!seen.has(key)) this.#remove(key);
  }

  #upsert(obj: T): void {
    const key = keyOf(obj);
    let cell = this.#items.get(key);
    const old = cell?.obj;
    if (old === obj) return;
    if (cell === undefined) this.#items.set(key, (cell = { obj }));
    else cell.obj = obj;
    for (const { fn, buckets } of this.#indexList) {
      const values = fn(obj);
      if (old) {
        const before = fn(old);
        // The buckets hold the cell, which already holds the new object.
        if (jsonEqual(before, values)) continue;
        indexRemove(buckets, before, key);
      }
      indexInsert(buckets, values, key, cell);
    }
    if (old) {
      for (const onUpdate of this.#onUpdate) {
        try {
          onUpdate(old, obj);
        } catch (error) {
          this.#handlerFailed(error, key);
        }
      }
    } else {
      for (const onAdd of this.#onAdd) {
        try {
          onAdd(obj);
        } catch (error) {
          this.#handlerFailed(error, key);
        }
      }
    }
  }

  /**
   * A handler that throws is one component's bug (utilruntime.HandleError): logged, and the cache
   * and the other handlers go on. Thrown from the watch's delivery, it would end the process, API
   * server and all, for one odd object a user wrote.
   */
  #handlerFailed(error: unknown, key: string): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.#options.log?.(`informer ${this.#options.ref.resource}: handler failed on ${key}: ${detail}`);
  }

  #remove(key: string): void {
    const old = this.#items.get(key)?.obj;
    if (!old) return;
    this.#items.delete(key);
    for (const { fn, buckets } of this.#indexList) indexRemove(buckets, fn(old), key);
    for (const onDelete of this.#onDelete) {
      try {
        onDelete(old);
      } catch (error) {
        this.#handlerFailed(error, key);
      }
    }
  }

  #markSynced(): void {
    if (this.#synced) return;
    this.#synced = true;
    for (const resolve of this.#syncWaiters.splice(0)) resolve();
  }
}

function objectOf<T>(cell: Cell<T>): T {
  return cell.obj;
}

function indexInsert<T>(buckets: Map<string, Map<string, Cell<T>>>, values: readonly string[], key: string, cell: Cell<T>): void {
  for (const value of values) {
    let bucket = buckets.get(value);
    if (!bucket) buckets.set(value, (bucket = new Map()));
    bucket.set(key, cell);
  }
}

function indexRemove<T>(buckets: Map<string, Map<string, Cell<T>>>, values: readonly string[], key: string): void {
  for (const value of values) {
    const bucket = buckets.get(value);
    bucket?.delete(key);
    if (bucket?.size === 0) buckets.delete(value);
  }
}

/** Index function for the conventional namespace index. */
export function namespaceIndex<T extends KubeObject>(obj: T): readonly string[] {
  return [obj.metadata.namespace ?? ''];
}
