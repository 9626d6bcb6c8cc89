// Store: a revisioned key-value store with etcd semantics. Only the API server uses it.
//
// Contract, for every backend (memory, sqlite, etcd), checked by store.conformance.ts:
// - One global revision, strictly increasing by exactly 1 per successful write
//   (create, update or delete). It never goes backwards, including across restarts.
// - A key's modRevision is the revision of the write that last changed it; an
//   object's resourceVersion is its modRevision. createRevision is the revision of
//   the create that started its current life.
// - Values are opaque strings (serialized JSON). Keys are `/`-separated paths such as
//   `/registry/pods/default/web`. Prefix queries match by plain string prefix.
// - Conditional writes: update/delete with expectedModRevision fail with
//   'revision-mismatch' unless the key's current modRevision equals it; create fails
//   with 'key-exists' if the key is live.
// - list returns keys in ascending byte order at one revision (latest, or atRevision
//   if given and not compacted), with limit and continue-after-key paging. Reading at
//   exactly compactedRevision() works; asking for a revision above revision() is a bug
//   and throws a plain Error (the apiserver decides whether to wait or refuse).
// - watch(prefix, fromRevision) delivers every event with revision > fromRevision, in
//   revision order, first replaying history, then live. Asking for history older than
//   the compacted revision yields an error of kind 'compacted' at once, through onError,
//   never thrown. No callback runs before watch() returns (memory and sqlite deliver
//   the replay on a microtask and live events synchronously inside the write).
// - compact(revision) forgets history at or below revision; reads at revisions below
//   it then fail with 'compacted'. Compacting at or below compactedRevision() is a
//   no-op; above revision() it throws. Backends also keep only a bounded history
//   (MemoryStore historyLimit), so compactedRevision() can advance on its own.
// - Writes are durable when the promise resolves (sqlite: committed to its WAL, which
//   survives kill -9 of the process; synchronous=NORMAL may lose the last commits on
//   power loss or an OS crash, never corrupting the file).

export interface KeyValue {
  readonly key: string;
  readonly value: string;
  readonly createRevision: number;
  readonly modRevision: number;
}

export type StoreErrorKind = 'key-exists' | 'not-found' | 'revision-mismatch' | 'compacted';

export class StoreError extends Error {
  readonly kind: StoreErrorKind;
  readonly key: string;
  /** For 'revision-mismatch' and 'key-exists': the current value ('compacted' sets compactedRevision instead). */
  readonly current: KeyValue | undefined;
  readonly compactedRevision: number | undefined;
  constructor(kind: StoreErrorKind, key: string, extra?: { current?: KeyValue; compactedRevision?: number }) {
    super(`${kind}: ${key}`);
    this.kind = kind;
    this.key = key;
    this.current = extra?.current;
    this.compactedRevision = extra?.compactedRevision;
  }
}

export interface ListOptions {
  /** Maximum number of items; 0 or absent means all. */
  limit?: number;
  /** Return keys strictly greater than this one (continue token's start key). */
  after?: string;
  /** Read at this revision instead of the latest. */
  atRevision?: number;
}

export interface ListResult {
  readonly items: readonly KeyValue[];
  /** The revision the list was read at. */
  readonly revision: number;
  /** True when more keys under the prefix follow the last item returned. */
  readonly more: boolean;
  /** How many keys follow, when more is true. */
  readonly remaining: number;
}

export type WatchEventType = 'PUT' | 'DELETE';

export interface WatchEvent {
  readonly type: WatchEventType;
  /** For PUT: the new value; for DELETE: the last value before deletion, with modRevision = the delete's revision. */
  readonly kv: KeyValue;
  /** The value before this event, when there was one (updates and deletes). */
  readonly prevKv: KeyValue | undefined;
  /** True when this PUT created the key. */
  readonly created: boolean;
}

export interface Watch {
  /** Stops delivery; no callback runs after it returns. */
  stop(): void;
}

export interface WatchHandlers {
  /** Events arrive in revision order. Handlers must not block; they run synchronously. */
  onEvent(event: WatchEvent): void;
  /** A terminal error (compacted history, backend failure). No event follows it. */
  onError(error: StoreError | Error): void;
}

/**
 * Runs with a write's new value once it is applied and before any watcher sees it: the API
 * server attaches the decoded object it wrote, so no reader decodes the value again.
 */
export type CommitHook = (kv: KeyValue) => void;

export interface Store {
  get(key: string): Promise<KeyValue | undefined>;
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Counts live keys under a prefix (for metrics and remainingItemCount). */
  count(prefix: string): Promise<number>;
  create(key: string, value: string, onCommit?: CommitHook): Promise<KeyValue>;
  /** expectedModRevision undefined means unconditional (the key must exist). */
  update(key: string, value: string, expectedModRevision?: number, onCommit?: CommitHook): Promise<KeyValue>;
  /** Returns the deleted value, with modRevision set to the delete's revision. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): Watch;
  compact(revision: number): Promise<void>;
  revision(): number;
  compactedRevision(): number;
  close(): Promise<void>;
}
