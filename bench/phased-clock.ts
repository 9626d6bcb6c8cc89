// A cluster clock for long benchmarks whose speed can change mid-run: P10 loads its pods at the
// wall clock's pace, then holds on a faster clock. On a change every pending timer is re-armed at
// the new speed, so none fires later in cluster time than it was set for.
import type { Clock, Timer } from '../src/core/index.ts';
import { sleepWith } from '../src/core/index.ts';

interface Pending {
  readonly at: number;
  readonly fn: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

export class PhasedClock implements Clock {
  #factor: number;
  #realBase = Date.now();
  #clusterBase = this.#realBase;
  readonly #pending = new Set<Pending>();

  constructor(factor: number) {
    this.#factor = factor;
  }

  get factor(): number {
    return this.#factor;
  }

  now(): number {
    return this.#clusterBase + (Date.now() - this.#realBase) * this.#factor;
  }

  /** From now on, cluster time runs `factor` times faster than the wall clock. */
  setFactor(factor: number): void {
    this.#clusterBase = this.now();
    this.#realBase = Date.now();
    this.#factor = factor;
    for (const p of this.#pending) {
      clearTimeout(p.handle);
      this.#arm(p);
    }
  }

  setTimer(at: number, fn: () => void): Timer {
    const pending: Pending = { at, fn, handle: undefined };
    this.#pending.add(pending);
    this.#arm(pending);
    return {
      cancel: () => {
        clearTimeout(pending.handle);
        this.#pending.delete(pending);
      },
    };
  }

  after(ms: number, fn: () => void): Timer {
    return this.setTimer(this.now() + ms, fn);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  #arm(pending: Pending): void {
    pending.handle = setTimeout(() => {
      // Node's timers and Date.now() count whole milliseconds, and one real millisecond is `factor`
      // of cluster time: a timer that woke before its cluster time sleeps the rest, never fires early.
      if (this.now() < pending.at) return this.#arm(pending);
      this.#pending.delete(pending);
      pending.fn();
    }, Math.max(0, Math.ceil((pending.at - this.now()) / this.#factor)));
    // As RealClock: timers never keep the process alive on their own.
    pending.handle.unref?.();
  }
}
