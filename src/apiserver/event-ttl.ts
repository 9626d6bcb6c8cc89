// Events live an hour after their last write, as kube-apiserver keeps them (--event-ttl, 1 h by
// default): upstream stores each Event under an etcd lease of that length, renewed by every write,
// so a cluster's Events do not pile up and `kubectl get events` shows the last hour. Here the API
// server watches its own store's Events and deletes one whose last write is that old, in the store
// itself (no admission, no finalizers), which watchers see as a DELETED event, as a lease's expiry.
// Upstream: pkg/registry/core/event/storage/storage.go (ttlFunc), apiserver's etcd3 lease manager.
import type { Clock, Timer } from '../core/index.ts';
import type { Store, Watch } from '../storage/index.ts';
import { storagePrefix } from './stored-object.ts';

export const defaultEventTtlMs = 60 * 60 * 1000;

/**
 * How often expired Events are deleted: etcd removes an expired lease's keys within a second or so,
 * and the API server's lease manager lets Events written within a minute of one another share one
 * lease; a minute's sweep is as close.
 */
const sweepEveryMs = 60 * 1000;

interface Expiry {
  readonly at: number;
  readonly key: string;
  readonly revision: number;
}

export class EventTtl {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  // In write order, so in expiry order: the clock does not go back.
  #queue: Expiry[] = [];
  #head = 0;
  #watch: Watch | undefined;
  #timer: Timer | undefined;
  #stopped = false;

  constructor(store: Store, clock: Clock, ttlMs = defaultEventTtlMs) {
    this.#store = store;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  /** Events already stored (a cluster started from its data directory) get an hour from now. */
  async start(): Promise<void> {
    const prefix = storagePrefix('', 'events', '');
    const listed = await this.#store.list(prefix);
    const now = this.#clock.now();
    for (const kv of listed.items) this.#queue.push({ at: now + this.#ttlMs, key: kv.key, revision: kv.modRevision });
    this.#watch = this.#store.watch(prefix, listed.revision, {
      onEvent: (event) => {
        if (event.type === 'PUT') this.#queue.push({ at: this.#clock.now() + this.#ttlMs, key: event.kv.key, revision: event.kv.modRevision });
      },
      // The store's history never runs out under a watch that keeps up; nothing to resume.
      onError: () => {},
    });
    this.#timer = this.#clock.after(sweepEveryMs, () => void this.#sweep());
  }

  stop(): void {
    this.#stopped = true;
    this.#watch?.stop();
    this.#timer?.cancel();
  }

  async #sweep(): Promise<void> {
    const now = this.#clock.now();
    while (!this.#stopped && this.#head < this.#queue.length) {
      const next = this.#queue[this.#head] as Expiry;
      if (next.at > now) break;
      this.#head++;
      // Only if nothing wrote it since: a later write queued its own expiry.
      await this.#store.delete(next.key, next.revision).catch(() => {});
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    if (!this.#stopped) this.#timer = this.#clock.after(sweepEveryMs, () => void this.#sweep());
  }
}
