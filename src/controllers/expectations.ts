// ControllerExpectations: what a controller expects its informer to show after it created or
// deleted pods, so a sync does not act again on a cache that has not caught up (no overshoot).
// Deletions are tracked by pod key (UIDTrackingControllerExpectations); expectations expire
// after five minutes so a lost watch event cannot wedge a controller.
// Upstream: pkg/controller/controller_utils.go (ControllerExpectations, UIDTrackingControllerExpectations).
import type { Clock } from '../core/index.ts';

export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expectation {
  add: number;
  deletes: Set<string>;
  at: number;
}

export class Expectations {
  readonly #clock: Clock;
  readonly #items = new Map<string, Expectation>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** True when nothing is in flight (or the record expired): the controller may act. */
  isSatisfied(key: string): boolean {
    const e = this.#items.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.deletes.size === 0) return true;
    return this.#clock.now() - e.at > expectationsTimeoutMs;
  }

  expectCreations(key: string, count: number): void {
    this.expect(key, count, []);
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.expect(key, 0, podKeys);
  }

  /** SetExpectations: creations and deletions in flight at once (the DaemonSet controller's syncNodes). */
  expect(key: string, creations: number, podKeys: readonly string[]): void {
    this.#items.set(key, { add: creations, deletes: new Set(podKeys), at: this.#clock.now() });
  }

  creationObserved(key: string): void {
    const e = this.#items.get(key);
    if (e) e.add--;
  }

  deletionObserved(key: string, podKey: string): void {
    this.#items.get(key)?.deletes.delete(podKey);
  }

  delete(key: string): void {
    this.#items.delete(key);
  }
}
