// Expectations guard against the informer lagging behind the controller's own writes: a
// Job that just created pods waits to see them before it counts again, and a pod whose
// finalizer removal is in flight is not counted twice.
// Upstream: pkg/controller/controller_utils.go (ControllerExpectations),
// pkg/controller/job/tracking_utils.go (uidTrackingExpectations).
import type { Clock } from '../../core/index.ts';

/** Upstream's ExpectationsTimeout: a record older than this counts as satisfied. */
const expectationsTimeoutMs = 5 * 60_000;

interface Record {
  add: number;
  del: number;
  at: number;
}

export class ControllerExpectations {
  readonly #clock: Clock;
  readonly #records = new Map<string, Record>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** True when no record exists, its counts are met, or it expired. */
  satisfied(key: string): boolean {
    const r = this.#records.get(key);
    if (!r) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.#clock.now() - r.at > expectationsTimeoutMs;
  }

  expectCreations(key: string, n: number): void {
    this.#records.set(key, { add: n, del: 0, at: this.#clock.now() });
  }

  expectDeletions(key: string, n: number): void {
    this.#records.set(key, { add: 0, del: n, at: this.#clock.now() });
  }

  creationObserved(key: string): void {
    const r = this.#records.get(key);
    if (r) r.add--;
  }

  deletionObserved(key: string): void {
    const r = this.#records.get(key);
    if (r) r.del--;
  }

  delete(key: string): void {
    this.#records.delete(key);
  }
}

export class UidTrackingExpectations {
  readonly #uids = new Map<string, Set<string>>();

  expectFinalizersRemoved(key: string, uids: readonly string[]): void {
    let set = this.#uids.get(key);
    if (!set) this.#uids.set(key, (set = new Set()));
    for (const uid of uids) set.add(uid);
  }

  finalizerRemovalObserved(key: string, uid: string): void {
    const set = this.#uids.get(key);
    set?.delete(uid);
    if (set?.size === 0) this.#uids.delete(key);
  }

  expectedUids(key: string): ReadonlySet<string> {
    return new Set(this.#uids.get(key) ?? []);
  }

  delete(key: string): void {
    this.#uids.delete(key);
  }
}
