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

  /**
   * At most how many of `candidates` (each fits alone now) fit together. Per counter set, its
   * devices (each counted in the first set it draws on) are taken cheapest first for every counter
   * until what is left of it runs out; the fewest of those counts bounds the set. Never less than
   * what fits, as a device drawing on a second set is held to its first set's counters only.
   */
  maxTogether(candidates: readonly { readonly pool: PoolView; readonly device: DeviceRecord }[]): number {
    let total = 0;
    const bySet = new Map<string, { pool: PoolView; set: string; devices: DeviceRecord[] }>();
    for (const { pool, device } of candidates) {
      const set = device.consumes[0]?.counterSet;
      if (set === undefined) {
        total++;
        continue;
      }
      const key = `${pool.id}/${set}`;
      const group = bySet.get(key);
      if (group) group.devices.push(device);
      else bySet.set(key, { pool, set, devices: [device] });
    }
    for (const { pool, set, devices } of bySet.values()) total += this.#fitTogether(pool, set, devices);
    return total;
  }

  #fitTogether(pool: PoolView, set: string, devices: readonly DeviceRecord[]): number {
    const allocated = this.#allocatedUseOf(pool, set);
    const attempt = this.#attemptUse.get(`${pool.id}/${set}`);
    let fit = devices.length;
    for (const [k, total] of pool.counterSets.get(set) ?? []) {
      let left = total - (allocated.get(k) ?? 0n) - (attempt?.get(k) ?? 0n);
      const costs = devices.map((d) => drawOn(d, set, k)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      let n = 0;
      for (const cost of costs) {
        if (cost > left) break;
        left -= cost;
        n++;
      }
      fit = Math.min(fit, n);
    }
    return fit;
  }

  release(pool: PoolView, d: DeviceRecord): void {
    for (const c of d.consumes) {
      const use = this.#attemptUse.get(`${pool.id}/${c.counterSet}`);
      if (!use) continue;
      for (const [k, v] of c.counters) use.set(k, (use.get(k) ?? 0n) - v);
    }
  }
}

/** What a device draws on one counter of one set. */
function drawOn(d: DeviceRecord, set: string, counter: string): bigint {
  let sum = 0n;
  for (const c of d.consumes) if (c.counterSet === set) sum += c.counters.get(counter) ?? 0n;
  return sum;
}
