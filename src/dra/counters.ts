// Shared counters of partitionable devices: a device that consumes counters fits only if, for
// every counter set of its pool, what allocated devices and the devices picked in this attempt
// consume stays within the set's values. Amounts are nano-unit bigints (parsed once).
// Upstream: structured/internal/stable/allocator_stable.go (checkAvailableCounters).
import type { DeviceId, DeviceRecord, PoolView } from './inventory.ts';

type Sets = Map<string, Map<string, bigint>>;

export class CounterTracker {
  readonly #allocated: ReadonlySet<DeviceId>;
  /** Pool id -> what remains after the already-allocated devices. */
  readonly #available = new Map<string, Sets>();
  /** Pool id -> what the devices picked in this attempt consume. */
  readonly #consumed = new Map<string, Sets>();

  constructor(allocated: ReadonlySet<DeviceId>) {
    this.#allocated = allocated;
  }

  #availableFor(pool: PoolView): Sets {
    let sets = this.#available.get(pool.id);
    if (sets) return sets;
    sets = new Map([...pool.counterSets].map(([name, counters]) => [name, new Map(counters)]));
    for (const d of pool.allDevices) {
      if (d.consumes.length === 0 || !this.#allocated.has(d.id)) continue;
      for (const c of d.consumes) {
        const set = sets.get(c.counterSet);
        if (!set) continue;
        // May go negative (e.g. a shrunk counter set); that just means nothing is left.
        for (const [k, v] of c.counters) if (set.has(k)) set.set(k, (set.get(k) ?? 0n) - v);
      }
    }
    this.#available.set(pool.id, sets);
    return sets;
  }

  /** Adds the device's consumption if everything still fits; false (and no change) otherwise. */
  tryConsume(pool: PoolView, d: DeviceRecord): boolean {
    const available = this.#availableFor(pool);
    let consumed = this.#consumed.get(pool.id);
    if (!consumed) this.#consumed.set(pool.id, (consumed = new Map()));
    for (const c of d.consumes) {
      const avail = available.get(c.counterSet);
      if (!avail) return false;
      const used = consumed.get(c.counterSet);
      for (const [k, v] of c.counters) {
        const left = avail.get(k);
        if (left === undefined) return false;
        if ((used?.get(k) ?? 0n) + v > left) return false;
      }
    }
    for (const c of d.consumes) {
      let used = consumed.get(c.counterSet);
      if (!used) consumed.set(c.counterSet, (used = new Map()));
      for (const [k, v] of c.counters) used.set(k, (used.get(k) ?? 0n) + v);
    }
    return true;
  }

  release(pool: PoolView, d: DeviceRecord): void {
    const consumed = this.#consumed.get(pool.id);
    for (const c of d.consumes) {
      const used = consumed?.get(c.counterSet);
      if (!used) continue;
      for (const [k, v] of c.counters) used.set(k, (used.get(k) ?? 0n) - v);
    }
  }
}
