// Clock: the only source of time and timers for every component (DESIGN principle 3).
// RealClock reads the wall clock; ScaledClock runs it N times faster; VirtualClock is
// discrete-event: time stands still until advanced, or jumps to the next timer when idle.

import { TimerQueue } from './timer-queue.ts';

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls fn once at (or after) the absolute time `at` in ms. */
  setTimer(at: number, fn: () => void): Timer;
  /** Calls fn after `ms` milliseconds of this clock's time. */
  after(ms: number, fn: () => void): Timer;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Clock.sleep on any clock's `after`: resolves after `ms` of its time, or rejects when `signal` aborts. */
export function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = clock.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = (): void => {
      timer.cancel();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Real elapsed milliseconds on a monotonic clock, for pacing the process's own work (the HTTP
 * server's turns); never the cluster's time, which comes from a Clock.
 */
export function monotonicMs(): number {
  return performance.now();
}

export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }
  setTimer(at: number, fn: () => void): Timer {
    return this.after(at - this.now(), fn);
  }
  after(ms: number, fn: () => void): Timer {
    const handle = setTimeout(fn, Math.max(0, ms));
    // Timers never keep the process alive on their own: servers and sockets do.
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
}

/**
 * Runs `factor` times faster than the wall clock, starting from the wall clock's now. Its timers fire
 * in the order of the times they were set for even when the process falls behind (TimerQueue): at 10x,
 * a 100 ms stall is a cluster second, in which many would otherwise come due in host order.
 */
export class ScaledClock implements Clock {
  readonly #factor: number;
  readonly #origin = Date.now();
  readonly #timers: TimerQueue;
  constructor(factor: number) {
    this.#factor = factor;
    this.#timers = new TimerQueue(() => this.now(), (ms) => ms / this.#factor);
  }
  now(): number {
    return this.#origin + (Date.now() - this.#origin) * this.#factor;
  }
  setTimer(at: number, fn: () => void): Timer {
    return this.#timers.add(at, fn);
  }
  after(ms: number, fn: () => void): Timer {
    return this.#timers.add(this.now() + Math.max(0, ms), fn);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
}

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * Discrete-event time. Timers fire in (at, creation order). `advance(ms)` moves time
 * forward firing every timer due, letting the microtask and macrotask queues drain
 * between timers so components react before the next one fires. `settle()` jumps from
 * timer to timer until none is left before `limit`.
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: PendingTimer[] = [];
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  setTimer(at: number, fn: () => void): Timer {
    const timer: PendingTimer = { at: Math.max(at, this.#now), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }
  after(ms: number, fn: () => void): Timer {
    return this.setTimer(this.#now + Math.max(0, ms), fn);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }
  /** The time of the next live timer, if any. */
  nextTimerAt(): number | undefined {
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    let next: number | undefined;
    for (const t of this.#timers) if (next === undefined || t.at < next) next = t.at;
    return next;
  }
  #popDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.#timers) {
      if (t.cancelled || t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    if (best) this.#timers.splice(this.#timers.indexOf(best), 1);
    return best;
  }
  /** Fires every timer due up to now + ms, in order, then sets now to now + ms. */
  async advance(ms: number): Promise<void> {
    const limit = this.#now + ms;
    await drain();
    for (let t = this.#popDue(limit); t; t = this.#popDue(limit)) {
      this.#now = Math.max(this.#now, t.at);
      t.fn();
      await drain();
    }
    this.#now = limit;
  }
  /**
   * Checks, then advances `stepMs`, until `check` answers (at most `steps` times): how a test waits
   * for the controllers to reach a state on this clock.
   */
  async until<T>(check: () => Promise<T | undefined | false>, what: string, stepMs = 100, steps = 300): Promise<T> {
    for (let i = 0; i < steps; i++) {
      const v = await check();
      if (v) return v;
      await this.advance(stepMs);
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** Jumps to each next timer until none is due within `maxMs` from now. */
  async settle(maxMs = 3_600_000): Promise<void> {
    const limit = this.#now + maxMs;
    await drain();
    for (let t = this.#popDue(limit); t; t = this.#popDue(limit)) {
      this.#now = Math.max(this.#now, t.at);
      t.fn();
      await drain();
    }
  }
}

/** Lets promise chains and I/O callbacks queued by timers run to quiescence. */
async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A clock reading (ms, fractional on the virtual and scaled clocks) as Unix nanoseconds, for the
 * `<object>.<nanos in hex>` event names; BigInt of a fractional number would throw.
 */
export function unixNanos(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.floor((ms - whole) * 1_000_000));
}

// Every write stamps one or two times, mostly within the same second: the last second's text is kept.
let lastSecond = Number.NaN;
let lastText = '';

/** RFC 3339 with seconds precision, as metav1.Time serializes. */
export function formatTime(ms: number): string {
  // Date truncates fractional milliseconds toward zero before the second is taken.
  const second = Math.floor(Math.trunc(ms) / 1000);
  if (second === lastSecond) return lastText;
  const text = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  lastSecond = second;
  lastText = text;
  return text;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serializes. */
export function formatMicroTime(ms: number): string {
  // toISOString always ends in `.sssZ`; slicing is half the time of a regular expression's replace.
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}
