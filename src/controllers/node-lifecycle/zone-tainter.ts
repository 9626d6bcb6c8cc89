// One zone's queue of nodes waiting for a NoExecute taint, drained through a token bucket (burst 1)
// so a zone losing many nodes at once is tainted gradually; qps 0 stops tainting.
// Upstream: pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go (RateLimitedTimedQueue),
// client-go/util/flowcontrol (NewTokenBucketRateLimiter).
import type { Clock, Timer } from '../../core/index.ts';

export interface ZoneTainterOptions {
  clock: Clock;
  qps: number;
  /** Taints the node; 'retry' keeps it queued and tries again shortly. */
  taint: (name: string) => Promise<'done' | 'retry'>;
}

const retryMs = 50;

export class ZoneTainter {
  readonly #clock: Clock;
  readonly #taint: ZoneTainterOptions['taint'];
  /** Insertion-ordered set: a node is tainted in the order it became unhealthy. */
  readonly #queue = new Set<string>();
  #qps: number;
  #tokens = 1;
  #last: number;
  #timer: Timer | undefined;
  #draining = false;
  #stopped = false;

  constructor(options: ZoneTainterOptions) {
    this.#clock = options.clock;
    this.#taint = options.taint;
    this.#qps = options.qps;
    this.#last = options.clock.now();
  }

  add(name: string): void {
    if (this.#queue.has(name)) return;
    this.#queue.add(name);
    void this.#drain();
  }

  remove(name: string): void {
    this.#queue.delete(name);
  }

  get size(): number {
    return this.#queue.size;
  }

  /** SwapLimiter: a new rate; a bucket that was empty stays empty. */
  setQPS(qps: number): void {
    if (qps === this.#qps) return;
    this.#refill();
    const wasEmpty = this.#tokens < 1;
    this.#qps = qps;
    this.#tokens = qps > 0 && !wasEmpty ? 1 : 0;
    this.#last = this.#clock.now();
    this.#schedule(0);
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  #refill(): void {
    const now = this.#clock.now();
    if (this.#qps > 0) this.#tokens = Math.min(1, this.#tokens + ((now - this.#last) * this.#qps) / 1000);
    this.#last = now;
  }

  #tryAccept(): boolean {
    this.#refill();
    if (this.#qps <= 0 || this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #schedule(ms: number): void {
    if (this.#stopped || this.#queue.size === 0) return;
    this.#timer?.cancel();
    this.#timer = this.#clock.after(ms, () => {
      this.#timer = undefined;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    if (this.#draining || this.#stopped) return;
    this.#draining = true;
    try {
      for (const name of [...this.#queue]) {
        if (!this.#queue.has(name)) continue;
        if (!this.#tryAccept()) {
          // The next token arrives after (1 - tokens) / qps seconds.
          if (this.#qps > 0) this.#schedule(Math.ceil(((1 - this.#tokens) * 1000) / this.#qps));
          return;
        }
        const result = await this.#taint(name);
        if (result === 'done') this.#queue.delete(name);
        else {
          this.#schedule(retryMs);
          return;
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}
