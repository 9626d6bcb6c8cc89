// The active-deadline pod sync handler's clock: a pod that has run activeDeadlineSeconds since its start
// is past its deadline; a timer syncs the pod when it falls due, and moves when the deadline does.
// Upstream: pkg/kubelet/active_deadline.go (activeDeadlineHandler.ShouldSync, ShouldEvict).
import type { Clock, Timer } from '../core/index.ts';

export interface ActiveDeadlineOptions {
  clock: Clock;
  /** The pod's start time: the deadline counts from it. */
  startTime: number;
  /** Syncs the pod (it is evicted once past the deadline). */
  sync: () => void;
}

export class ActiveDeadline {
  readonly #o: ActiveDeadlineOptions;
  #deadline: { at: number; timer: Timer } | undefined;

  constructor(options: ActiveDeadlineOptions) {
    this.#o = options;
  }

  /**
   * Whether a pod with this activeDeadlineSeconds is past it; before it, a timer syncs the pod then. A
   * lowered deadline (the one spec change a running pod allows here) moves the timer.
   */
  passed(seconds: number | undefined): boolean {
    const at = seconds === undefined ? undefined : this.#o.startTime + seconds * 1000;
    // Every sync passes here: the timer is re-armed only when the deadline moved.
    if (this.#deadline?.at !== at) this.stop();
    if (at === undefined) return false;
    const left = at - this.#o.clock.now();
    if (left <= 0) return true;
    this.#deadline ??= { at, timer: this.#o.clock.after(left, this.#o.sync) };
    return false;
  }

  stop(): void {
    this.#deadline?.timer.cancel();
    this.#deadline = undefined;
  }
}
