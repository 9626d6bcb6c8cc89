// The timers of a clock that runs on its own (ScaledClock), kept in (time set for, creation order) with
// one host timer armed for the earliest. After a stall of the process the overdue ones fire in the order
// of the cluster times they were set for, as VirtualClock's do, not in the order the host happens to
// reach them: a sidecar's `tail -F` poll never runs before the write its app made a cluster second earlier.

import type { Timer } from './clock.ts';
import { KeyedHeap } from './keyed-heap.ts';

interface Entry {
  at: number;
  seq: number;
  /** The heap's key: the creation order, unique. */
  key: string;
  fn: () => void;
}

/** setTimeout's largest delay; a longer one would fire at once (TimeoutOverflowWarning): it is re-armed. */
const maxHostDelayMs = 2_147_483_647;

const before = (a: Entry, b: Entry): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

export class TimerQueue {
  readonly #now: () => number;
  readonly #hostDelay: (clockMs: number) => number;
  readonly #heap = new KeyedHeap<Entry>((e) => e.key, before);
  #seq = 0;
  /** What is armed: a host timer for the earliest entry's time, or the next turn for a due one. */
  #host: { at: number; cancel: () => void } | undefined;
  #firing = false;

  /** `now` reads the clock; `hostDelay` turns a span of the clock's time into host milliseconds. */
  constructor(now: () => number, hostDelay: (clockMs: number) => number) {
    this.#now = now;
    this.#hostDelay = hostDelay;
  }

  /** Calls fn once the clock reaches `at`, after every live timer set for an earlier time. */
  add(at: number, fn: () => void): Timer {
    const seq = this.#seq++;
    const entry: Entry = { at, seq, key: String(seq), fn };
    this.#heap.push(entry);
    if (this.#heap.peek() === entry) this.#arm();
    return { cancel: () => this.#cancel(entry) };
  }

  get size(): number {
    return this.#heap.size;
  }

  #cancel(entry: Entry): void {
    const wasHead = this.#heap.peek() === entry;
    if (this.#heap.remove(entry.key) !== undefined && wasHead) this.#arm();
  }

  /** One host timer for the earliest entry's time (a due one runs on the next turn). */
  #arm(): void {
    if (this.#firing) return;
    const head = this.#heap.peek();
    if (this.#host && (!head || this.#host.at !== head.at)) {
      this.#host.cancel();
      this.#host = undefined;
    }
    if (!head || this.#host) return;
    const delay = this.#hostDelay(head.at - this.#now());
    if (delay <= 0) return this.#nextTurn(head.at);
    const handle = setTimeout(() => this.#fire(), Math.min(delay, maxHostDelayMs));
    // Timers never keep the process alive on their own: servers and sockets do.
    handle.unref?.();
    this.#host = { at: head.at, cancel: () => clearTimeout(handle) };
  }

  /** A due entry runs on its own turn, so the promises the one before it started settle first. */
  #nextTurn(at: number): void {
    // Not unref'd: an unref'd immediate lets the loop block in its poll until some other timer.
    const immediate = setImmediate(() => this.#fire());
    this.#host = { at, cancel: () => clearImmediate(immediate) };
  }

  #fire(): void {
    this.#host = undefined;
    const head = this.#heap.peek();
    if (!head) return;
    if (head.at > this.#now()) return this.#arm();
    this.#heap.pop();
    this.#firing = true;
    try {
      head.fn();
    } finally {
      this.#firing = false;
      this.#arm();
    }
  }

}
