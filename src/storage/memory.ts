// MemoryStore: the default Store, everything in memory with a bounded history; sqlite.ts
// composes it with a Journal that persists each write.
// Upstream: etcd server/storage/mvcc/kvstore.go, key_index.go, watchable_store.go.
//
// State, worked example (after etcd key_index.go). Writes:
//   rev 1 create /p/a "v1"   rev 2 create /p/b "x"   rev 3 update /p/a "v2"
//   rev 4 delete /p/b        rev 5 create /p/b "y"
// give one chain per key, ascending by revision, where a number is a tombstone at that revision:
//   /p/a: [{create 1, mod 1, "v1"}, {create 1, mod 3, "v2"}]
//   /p/b: [{create 2, mod 2, "x"}, 4, {create 5, mod 5, "y"}]
//   live = SortedKeys {/p/a, /p/b}   dead = {}   log = [ev1 … ev5]   compacted = 0
// A key whose chain ends in a tombstone sits in `dead` instead of `live`, so a list at the
// latest revision never sees it, and a list at an older revision merges both sets.
//   get /p/a      -> the chain's last entry: {mod 3, "v2"}
//   list at 4     -> /p/a: last entry <= 4 is {mod 3}; /p/b: last entry <= 4 is tombstone 4: absent
//   compact(3)    -> evicts ev1..ev3 from the log; evicting ev3 drops the /p/a entries older than
//                    3, so /p/a: [{mod 3}]. State at 3 stays readable; reads below 3 are 'compacted'.
//   compact(4)    -> evicting ev4 drops {mod 2} and the tombstone itself: /p/b: [{create 5}].
// Eviction runs in revision order, so when event r goes, every chain entry older than r for
// its key is superseded at r; each write is evicted once, keeping writes O(log n) amortized.

import { StoreError } from './store.ts';
import type { CommitHook, KeyValue, ListOptions, ListResult, Store, Watch, WatchEvent, WatchEventType, WatchHandlers } from './store.ts';
import { SortedKeys, prefixEnd } from './sorted-keys.ts';

const DEFAULT_HISTORY_LIMIT = 10_000;
const maxRoutes = 4096;

/** A number is a tombstone: the key was deleted at that revision. */
type Entry = KeyValue | number;

/** One key's chain: entries ascending by revision; dropped once empty. */
interface KeyRecord {
  readonly key: string;
  readonly entries: Entry[];
  /** The last entry when it is a value: saves listing two pointer hops per key. */
  current: KeyValue | undefined;
}

/** Persistence hook. append runs inside each write before it becomes visible: a throw fails the write and changes nothing. */
export interface Journal {
  append(event: WatchEvent): void;
  compact(revision: number): void;
  close(): void;
}

/** A write read back from a journal; for DELETE, kv is the last value with modRevision = the delete's revision. */
export interface ReplayedWrite {
  readonly type: WatchEventType;
  readonly kv: KeyValue;
}

/** Initial state: the live keys at revision (history at or below it counts as compacted), then writes after it. */
export interface Snapshot {
  readonly revision: number;
  readonly keys: Iterable<KeyValue>;
  readonly writes?: Iterable<ReplayedWrite>;
}

export interface MemoryStoreOptions {
  /** Events kept for watch-from-revision and list-at-revision; older requests are 'compacted'. */
  historyLimit?: number;
  journal?: Journal;
  snapshot?: Snapshot;
}

interface Watcher {
  readonly prefix: string;
  readonly handlers: WatchHandlers;
  stopped: boolean;
  /** The next revision this watcher may receive; guards against a replayed event arriving live too. */
  next: number;
  /** Set until the replay has been flushed; live events queue behind it. */
  backlog: WatchEvent[] | undefined;
}

export class MemoryStore implements Store {
  readonly #historyLimit: number;
  readonly #journal: Journal | undefined;
  readonly #records = new Map<string, KeyRecord>();
  readonly #live = new SortedKeys<KeyRecord>();
  readonly #dead = new SortedKeys<KeyRecord>();
  // Events compacted+1 … revision, starting at #logHead; the head is trimmed in batches.
  #log: (WatchEvent | undefined)[] = [];
  #logHead = 0;
  #revision = 0;
  #compacted = 0;
  readonly #watchers = new Map<string, Set<Watcher>>();
  // Watched prefixes that do not end at a '/' (and are not ''): delivery tests these one by one and
  // looks the others up by the key's own '/'-ended prefixes, a few per key however many are watched.
  readonly #unalignedPrefixes: string[] = [];
  // Per directory written to (a key up to its last '/'), the watcher sets of its '/'-ended prefixes in
  // delivery order, '' first: a write looks up one string rather than slicing out and looking up each
  // of its prefixes (five for a pod). Emptied whenever a watched prefix gains or loses its set.
  readonly #routes = new Map<string, Set<Watcher>[]>();
  readonly #pending: WatchEvent[] = [];
  #delivering = false;
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.#historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.#journal = options.journal;
    const snapshot = options.snapshot;
    if (snapshot === undefined) return;
    for (const kv of snapshot.keys) {
      const value = Object.freeze({ ...kv });
      const record: KeyRecord = { key: kv.key, entries: [value], current: value };
      this.#records.set(kv.key, record);
      this.#live.add(record);
    }
    this.#revision = this.#compacted = snapshot.revision;
    for (const write of snapshot.writes ?? []) this.#replay(write);
  }

  revision(): number {
    return this.#revision;
  }

  compactedRevision(): number {
    return this.#compacted;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.#checkOpen();
    return this.#current(key);
  }

  async count(prefix: string): Promise<number> {
    this.#checkOpen();
    return this.#live.rank(prefixEnd(prefix)) - this.#live.rank(prefix);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.#checkOpen();
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
    // Paging resumes strictly after the last key; a start key before the prefix means "from the prefix".
    const after = options.after;
    const exclusive = after !== undefined && after >= prefix;
    const from = exclusive ? after : prefix;
    const at = options.atRevision ?? this.#revision;
    this.#checkReadable(prefix, at);
    const end = prefixEnd(prefix);
    if (at === this.#revision) return this.#listLatest(end, from, exclusive, limit);
    return this.#listAt(end, from, exclusive, limit, at);
  }

  async create(key: string, value: string, onCommit?: CommitHook): Promise<KeyValue> {
    this.#checkOpen();
    const current = this.#current(key);
    if (current !== undefined) throw new StoreError('key-exists', key, { current });
    const rev = this.#revision + 1;
    const kv = Object.freeze({ key, value, createRevision: rev, modRevision: rev });
    this.#commit(Object.freeze({ type: 'PUT', kv, prevKv: undefined, created: true }), onCommit);
    return kv;
  }

  async update(key: string, value: string, expectedModRevision?: number, onCommit?: CommitHook): Promise<KeyValue> {
    const current = this.#checkWrite(key, expectedModRevision);
    const kv = Object.freeze({ key, value, createRevision: current.createRevision, modRevision: this.#revision + 1 });
    this.#commit(Object.freeze({ type: 'PUT', kv, prevKv: current, created: false }), onCommit);
    return kv;
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    const current = this.#checkWrite(key, expectedModRevision);
    const kv = Object.freeze({ ...current, modRevision: this.#revision + 1 });
    this.#commit(Object.freeze({ type: 'DELETE', kv, prevKv: current, created: false }));
    return kv;
  }

  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): Watch {
    this.#checkOpen();
    const watcher: Watcher = { prefix, handlers, stopped: false, next: fromRevision + 1, backlog: [] };
    // Decide "compacted" and take the replay now, so a later eviction cannot turn a valid
    // request into an error; deliver on a microtask so the caller holds the Watch first.
    let error: StoreError | undefined;
    if (fromRevision < this.#compacted) {
      error = new StoreError('compacted', prefix, { compactedRevision: this.#compacted });
    } else {
      for (let rev = fromRevision + 1; rev <= this.#revision; rev++) {
        const event = this.#eventAt(rev);
        if (event.kv.key.startsWith(prefix)) watcher.backlog?.push(event);
      }
      watcher.next = Math.max(watcher.next, this.#revision + 1);
      let set = this.#watchers.get(prefix);
      if (set === undefined) {
        this.#watchers.set(prefix, (set = new Set()));
        this.#routes.clear();
        if (prefix !== '' && !prefix.endsWith('/')) this.#unalignedPrefixes.push(prefix);
      }
      set.add(watcher);
    }
    queueMicrotask(() => this.#flush(watcher, error));
    return { stop: () => this.#stop(watcher) };
  }

  async compact(revision: number): Promise<void> {
    this.#checkOpen();
    if (revision > this.#revision) {
      throw new Error(`cannot compact to revision ${revision}: the current revision is ${this.#revision}`);
    }
    // The journal keeps its own watermark: it may hold more history than memory does (after
    // a restart, or after the history limit evicted events), and still needs compacting.
    this.#journal?.compact(revision);
    // Compacting to an already compacted revision is a no-op, so callers can retry freely.
    if (revision > this.#compacted) this.#evictThrough(revision);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const set of this.#watchers.values()) for (const w of set) w.stopped = true;
    this.#watchers.clear();
    this.#routes.clear();
    this.#unalignedPrefixes.length = 0;
    this.#journal?.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error('store is closed');
  }

  #checkReadable(key: string, revision: number): void {
    if (revision < this.#compacted) throw new StoreError('compacted', key, { compactedRevision: this.#compacted });
    if (revision > this.#revision) {
      throw new Error(`revision ${revision} is in the future: the current revision is ${this.#revision}`);
    }
  }

  #checkWrite(key: string, expectedModRevision: number | undefined): KeyValue {
    this.#checkOpen();
    const current = this.#current(key);
    if (current === undefined) throw new StoreError('not-found', key);
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new StoreError('revision-mismatch', key, { current });
    }
    return current;
  }

  #current(key: string): KeyValue | undefined {
    const record = this.#records.get(key);
    return record?.current;
  }

  #listLatest(end: string | undefined, from: string, exclusive: boolean, limit: number): ListResult {
    const items: KeyValue[] = [];
    let more = false;
    this.#live.scan(from, exclusive, end, (record) => {
      if (items.length === limit) {
        more = true;
        return false;
      }
      if (record.current !== undefined) items.push(record.current);
      return true;
    });
    const last = items[items.length - 1];
    const remaining = more && last !== undefined ? this.#live.rank(end) - this.#live.rank(last.key) - 1 : 0;
    return { items, revision: this.#revision, more, remaining };
  }

  // A key can exist at an older revision while it is dead now, so merge both key sets. Dead
  // keys are bounded by the history, and remaining needs the full walk anyway (as etcd's count).
  #listAt(end: string | undefined, from: string, exclusive: boolean, limit: number, revision: number): ListResult {
    const dead: KeyRecord[] = [];
    this.#dead.scan(from, exclusive, end, (record) => {
      dead.push(record);
      return true;
    });
    const items: KeyValue[] = [];
    let remaining = 0;
    const visit = (record: KeyRecord): void => {
      const kv = valueAt(record, revision);
      if (kv === undefined) return;
      if (items.length < limit) items.push(kv);
      else remaining++;
    };
    let d = 0;
    this.#live.scan(from, exclusive, end, (record) => {
      for (; d < dead.length && (dead[d] as KeyRecord).key < record.key; d++) visit(dead[d] as KeyRecord);
      visit(record);
      return true;
    });
    for (; d < dead.length; d++) visit(dead[d] as KeyRecord);
    return { items, revision, more: remaining > 0, remaining };
  }

  #commit(event: WatchEvent, onCommit?: CommitHook): void {
    this.#journal?.append(event);
    this.#apply(event);
    onCommit?.(event.kv);
    this.#deliver(event);
  }

  #replay(write: ReplayedWrite): void {
    const { type, kv } = write;
    if (kv.modRevision !== this.#revision + 1) {
      throw new Error(`replay: expected revision ${this.#revision + 1}, got ${kv.modRevision} for ${kv.key}`);
    }
    const prevKv = this.#current(kv.key);
    const frozen = Object.freeze({ ...kv });
    this.#apply(Object.freeze({ type, kv: frozen, prevKv, created: type === 'PUT' && prevKv === undefined }));
  }

  #apply(event: WatchEvent): void {
    const { key, modRevision } = event.kv;
    let record = this.#records.get(key);
    // A key with no record was never written or has left the history: it is in neither key set.
    const known = record !== undefined;
    if (record === undefined) this.#records.set(key, (record = { key, entries: [], current: undefined }));
    if (event.type === 'PUT') {
      record.entries.push(event.kv);
      record.current = event.kv;
      if (event.created) {
        if (known) this.#dead.delete(key);
        this.#live.add(record);
      }
    } else {
      record.entries.push(modRevision);
      record.current = undefined;
      this.#live.delete(key);
      this.#dead.add(record);
    }
    this.#revision = modRevision;
    this.#log.push(event);
    if (this.#revision - this.#compacted > this.#historyLimit) this.#evictThrough(this.#revision - this.#historyLimit);
  }

  #eventAt(revision: number): WatchEvent {
    return this.#log[this.#logHead + revision - this.#compacted - 1] as WatchEvent;
  }

  #evictThrough(revision: number): void {
    while (this.#compacted < revision) {
      const event = this.#log[this.#logHead] as WatchEvent;
      this.#log[this.#logHead++] = undefined;
      this.#compacted++;
      const key = event.kv.key;
      const record = this.#records.get(key) as KeyRecord;
      const entries = record.entries;
      let i = 0;
      while (entryRevision(entries[i]) < this.#compacted) i++;
      // entries[i] is this event's; a tombstone at or below the compacted revision says nothing.
      const drop = typeof entries[i] === 'number' ? i + 1 : i;
      if (drop > 0) entries.splice(0, drop);
      if (entries.length === 0) {
        this.#records.delete(key);
        this.#dead.delete(key);
      }
    }
    if (this.#logHead > 1024 && this.#logHead * 2 > this.#log.length) {
      this.#log = this.#log.slice(this.#logHead);
      this.#logHead = 0;
    }
  }

  // A handler may write to the store; its event queues here so every watcher still sees
  // revisions in order.
  #deliver(event: WatchEvent): void {
    this.#pending.push(event);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let i = 0; i < this.#pending.length; i++) {
        const next = this.#pending[i] as WatchEvent;
        const key = next.kv.key;
        for (const set of this.#routeOf(key)) this.#offerAll(set, next);
        for (const prefix of this.#unalignedPrefixes) if (key.startsWith(prefix)) this.#offerAll(this.#watchers.get(prefix), next);
      }
    } finally {
      this.#pending.length = 0;
      this.#delivering = false;
    }
  }

  #routeOf(key: string): Set<Watcher>[] {
    const directory = key.slice(0, key.lastIndexOf('/') + 1);
    let route = this.#routes.get(directory);
    if (route !== undefined) return route;
    route = [];
    const everything = this.#watchers.get('');
    if (everything !== undefined) route.push(everything);
    for (let at = directory.indexOf('/'); at >= 0; at = directory.indexOf('/', at + 1)) {
      const set = this.#watchers.get(directory.slice(0, at + 1));
      if (set !== undefined) route.push(set);
    }
    // Directories come and go with namespaces; a long-lived store keeps only those written lately.
    if (this.#routes.size >= maxRoutes) this.#routes.clear();
    this.#routes.set(directory, route);
    return route;
  }

  #offerAll(set: Set<Watcher> | undefined, event: WatchEvent): void {
    if (set !== undefined) for (const w of set) this.#offer(w, event);
  }

  #offer(w: Watcher, event: WatchEvent): void {
    if (w.stopped || event.kv.modRevision < w.next) return;
    w.next = event.kv.modRevision + 1;
    if (w.backlog !== undefined) w.backlog.push(event);
    else this.#send(w, event);
  }

  #flush(w: Watcher, error: StoreError | undefined): void {
    if (w.stopped) return;
    if (error !== undefined) {
      w.stopped = true;
      w.handlers.onError(error);
      return;
    }
    const backlog = w.backlog ?? [];
    for (let i = 0; i < backlog.length && !w.stopped; i++) this.#send(w, backlog[i] as WatchEvent);
    w.backlog = undefined;
  }

  // A throwing handler must not fail the write that already committed, nor starve other
  // watchers: it loses its watch and hears why.
  #send(w: Watcher, event: WatchEvent): void {
    try {
      w.handlers.onEvent(event);
    } catch (err) {
      this.#stop(w);
      try {
        w.handlers.onError(err instanceof Error ? err : new Error(String(err)));
      } catch {
        // Nowhere left to report it; the write and the other watchers go on.
      }
    }
  }

  #stop(w: Watcher): void {
    w.stopped = true;
    const set = this.#watchers.get(w.prefix);
    if (set === undefined) return;
    set.delete(w);
    if (set.size > 0) return;
    this.#watchers.delete(w.prefix);
    this.#routes.clear();
    const unaligned = this.#unalignedPrefixes.indexOf(w.prefix);
    if (unaligned >= 0) this.#unalignedPrefixes.splice(unaligned, 1);
  }
}

function valueAt(record: KeyRecord, revision: number): KeyValue | undefined {
  const entries = record.entries;
  // Binary search for the last entry at or below revision: hot keys have long chains.
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entryRevision(entries[mid]) <= revision) lo = mid + 1;
    else hi = mid;
  }
  const entry = entries[lo - 1];
  return typeof entry === 'object' ? entry : undefined;
}

function entryRevision(entry: Entry | undefined): number {
  return typeof entry === 'number' ? entry : (entry?.modRevision ?? Infinity);
}
