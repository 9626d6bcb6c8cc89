// WorkQueue: the stingy, fair queue controllers drain. A key is never processed by two
// workers at once, and adding a key that is already queued is a no-op ("dirty" set);
// a key re-added while being processed is queued again once done() is called.
// Upstream: client-go/util/workqueue/{queue.go,delaying_queue.go,default_rate_limiters.go}.
import type { Clock, Timer } from '../core/index.ts';

export interface WorkQueueOptions {
  clock: Clock;
  /** First retry delay for addRateLimited (default 5 ms, as client-go). */
  baseDelayMs?: number;
  /** Cap of the exponential retry delay (default 1000 s, as client-go). */
  maxDelayMs?: number;
}

export class WorkQueue<K = string> {
  readonly #clock: Clock;
  readonly #baseDelay: number;
  readonly #maxDelay: number;
  #queue: K[] = [];
  #head = 0;
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #failures = new Map<K, number>();
  readonly #delayed = new Map<K, { at: number; timer: Timer }>();
  #waiters: ((key: K | undefined) => void)[] = [];
  #shuttingDown = false;

  constructor(options: WorkQueueOptions) {
    this.#clock = options.clock;
    this.#baseDelay = options.baseDelayMs ?? 5;
    this.#maxDelay = options.maxDelayMs ?? 1_000_000;
  }

  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      this.#dirty.delete(key);
      this.#processing.add(key);
      waiter(key);
      return;
    }
    this.#queue.push(key);
  }

  /** Adds the key after `ms`; an earlier pending delay for the same key wins. */
  addAfter(key: K, ms: number): void {
    if (this.#shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const at = this.#clock.now() + ms;
    const existing = this.#delayed.get(key);
    if (existing && existing.at <= at) return;
    existing?.timer.cancel();
    const timer = this.#clock.setTimer(at, () => {
      this.#delayed.delete(key);
      this.add(key);
    });
    this.#delayed.set(key, { at, timer });
  }

  /** Exponential per-key backoff: base * 2^failures, capped. */
  addRateLimited(key: K): void {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    this.addAfter(key, Math.min(this.#maxDelay, this.#baseDelay * 2 ** failures));
  }

  /** Clears the key's failure count (call after a successful sync). */
  forget(key: K): void {
    this.#failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.#failures.get(key) ?? 0;
  }

  get length(): number {
    return this.#queue.length - this.#head;
  }

  /** Resolves with the next key, or undefined once shut down. */
  get(): Promise<K | undefined> {
    const key = this.#take();
    if (key !== undefined) return Promise.resolve(key);
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Returns a key at once if one is queued. */
  tryGet(): K | undefined {
    return this.#take();
  }

  #take(): K | undefined {
    if (this.#head >= this.#queue.length) return undefined;
    const key = this.#queue[this.#head] as K;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#dirty.delete(key);
    this.#processing.add(key);
    return key;
  }

  done(key: K): void {
    this.#processing.delete(key);
    if (this.#dirty.has(key)) {
      this.#dirty.delete(key);
      this.add(key);
    }
  }

  shutDown(): void {
    this.#shuttingDown = true;
    for (const { timer } of this.#delayed.values()) timer.cancel();
    this.#delayed.clear();
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }
}

/**
 * Runs `workers` loops that take keys and call sync; a thrown error is logged and the key
 * requeued with backoff (client-go HandleError + AddRateLimited); success forgets it.
 */
export function runWorkers<K>(queue: WorkQueue<K>, workers: number, sync: (key: K) => Promise<void>, log: (line: string) => void): Promise<void> {
  const loop = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await sync(key);
        queue.forget(key);
      } catch (error) {
        log(`error syncing ${String(key)}: ${error instanceof Error ? error.message : String(error)}`);
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };
  return Promise.all(Array.from({ length: workers }, loop)).then(() => undefined);
}

/** What a controller starts and waits on before its workers run: an informer. */
export interface SyncedSource {
  start(): void;
  waitForSync(): Promise<void>;
}

/**
 * A controller's Run: starts its informers and, once every cache has synced (WaitForCacheSync),
 * its workers, unless the queue was shut down meanwhile. `then` runs beside the workers.
 */
export function runWhenSynced<K>(sources: readonly SyncedSource[], queue: WorkQueue<K>, workers: number, sync: (key: K) => Promise<void>, log: (line: string) => void, then?: () => void): void {
  for (const source of sources) source.start();
  void Promise.all(sources.map((s) => s.waitForSync())).then(() => {
    if (queue.shuttingDown) return;
    void runWorkers(queue, workers, sync, log);
    then?.();
  });
}
