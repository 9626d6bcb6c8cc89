// Shared counters of partitionable devices: a device that consumes counters fits only if, for
// every counter set of its pool, what allocated devices and the devices picked in this attempt
// consume stays within the set's values. Amounts are nano-unit bigints (parsed once).
// Upstream: structured/internal/stable/allocator_stable.go (checkAvailableCounters).
import type { DeviceId, DeviceRecord, PoolView } from './inventory.ts';

type Use = Map<string, bigint>;

export class CounterTracker {
  readonly #allocated: ReadonlySet<DeviceId>;
  /** `<pool id>/<counter set>` -> what already-allocated devices consume (computed on first use). */
  readonly #allocatedUse = new Map<string, Use>();
  /** `<pool id>/<counter set>` -> what the devices picked in this attempt consume. */
  readonly #attemptUse = new Map<string, Use>();

  constructor(allocated: ReadonlySet<DeviceId>) {
    this.#allocated = allocated;
  }

  #allocatedUseOf(pool: PoolView, set: string): Use {
    const key = `${pool.id}/${set}`;
    let use = this.#allocatedUse.get(key);
    if (use) return use;
    use = new Map();
    for (const d of pool.consumersBySet.get(set) ?? []) {
      if (!this.#allocated.has(d.id)) continue;
      for (const c of d.consumes) {
        if (c.counterSet !== set) continue;
        for (const [k, v] of c.counters) use.set(k, (use.get(k) ?? 0n) + v);
      }
    }
    this.#allocatedUse.set(key, use);
    return use;
  }

  /**
   * Adds the device's consumption if everything still fits; false (and no change) otherwise.
   * Allocated devices may already exceed a set (e.g. after it shrank): then nothing is left.
   */
  tryConsume(pool: PoolView, d: DeviceRecord): boolean {
    for (const c of d.consumes) {
      const set = pool.counterSets.get(c.counterSet);
      if (!set) return false;
      const allocated = this.#allocatedUseOf(pool, c.counterSet);
      const attempt = this.#attemptUse.get(`${pool.id}/${c.counterSet}`);
      for (const [k, v] of c.counters) {
        const total = set.get(k);
        if (total === undefined) return false;
        if ((allocated.get(k) ?? 0n) + (attempt?.get(k) ?? 0n) + v > total) return false;
      }
    }
    for (const c of d.consumes) {
      const key = `${pool.id}/${c.counterSet}`;
      let use = this.#attemptUse.get(key);
      if (!use) this.#attemptUse.set(key, (use = new Map()));
      for (const [k, v] of c.counters) use.set(k, (use.get(k) ?? 0n) + v);
    }
    return true;
  }

  release(pool: PoolView, d: DeviceRecord): void {
    for (const c of d.consumes) {
      const use = this.#attemptUse.get(`${pool.id}/${c.counterSet}`);
      if (!use) continue;
      for (const [k, v] of c.counters) use.set(k, (use.get(k) ?? 0n) - v);
    }
  }
}
