// When the pods of an allocated ResourceClaim must go because of NoExecute device taints, and the
// device pools those taints are read from. Pure.
// Upstream: pkg/controller/devicetainteviction/device_taint_eviction.go (pool, claimEvictionTime),
// staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/toleration.go (ToleratesTaint).
import type { resourceV1 } from '../../api/index.ts';
import { toleratesDeviceTaint } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

type Slice = DeepReadonly<resourceV1.ResourceSlice>;
type Taint = DeepReadonly<resourceV1.DeviceTaint>;
type Toleration = DeepReadonly<resourceV1.DeviceToleration>;
type Claim = DeepReadonly<resourceV1.ResourceClaim>;

/** The NoExecute taints of a device, by device name, as looked up for an allocation result. */
export type DeviceTaintsOf = (driver: string, pool: string, device: string) => readonly Taint[];

/**
 * claimEvictionTime: the earliest instant (ms) at which an untolerated NoExecute taint of one of
 * the claim's allocated devices evicts its pods, or undefined when none does. Each taint counts from
 * its timeAdded, plus the smallest tolerationSeconds of the result's tolerations that match it.
 * As upstream, only tolerations that name the NoExecute effect count: one without an effect lets the
 * device be allocated but does not stop the eviction. One without tolerationSeconds tolerates forever.
 */
export function claimEvictionTime(claim: Claim, taintsOf: DeviceTaintsOf): number | undefined {
  let when: number | undefined;
  for (const result of claim.status?.allocation?.devices?.results ?? []) {
    next: for (const taint of taintsOf(result.driver, result.pool, result.device)) {
      if (taint.effect !== 'NoExecute') continue;
      // The API server stamps timeAdded on every taint it stores; a missing one counts as long ago.
      let at = taint.timeAdded ? Date.parse(taint.timeAdded) : 0;
      let seconds: number | undefined;
      for (const t of result.tolerations ?? []) {
        if (t.effect !== 'NoExecute' || !toleratesDeviceTaint(t, taint)) continue;
        if (t.tolerationSeconds === undefined) continue next;
        const s = Math.max(0, t.tolerationSeconds);
        seconds = seconds === undefined ? s : Math.min(seconds, s);
      }
      if (seconds !== undefined) at += seconds * 1000;
      if (when === undefined || at < when) when = at;
    }
  }
  return when;
}

/**
 * The ResourceSlices of every (driver, pool), of which only those of the pool's highest generation
 * count. Example: slices a (gen 1) and b (gen 2) of pool p → devices are read from b only; once b is
 * deleted, from a again.
 */
export class DevicePools {
  readonly #pools = new Map<string, Map<string, Slice>>();

  /** Replaces `old` by `slice` (either may be absent) and names the pool's devices whose NoExecute taints changed. */
  update(old: Slice | undefined, slice: Slice | undefined): { driver: string; pool: string; modified: Set<string> } {
    const s = (slice ?? old) as Slice;
    const id = poolKey(s.spec.driver, s.spec.pool.name);
    const before = this.#noExecuteTaints(id);
    const slices = this.#pools.get(id) ?? new Map<string, Slice>();
    if (old) slices.delete(old.metadata.name ?? '');
    if (slice) slices.set(slice.metadata.name ?? '', slice);
    if (slices.size === 0) this.#pools.delete(id);
    else this.#pools.set(id, slices);
    const after = this.#noExecuteTaints(id);
    const modified = new Set<string>();
    for (const device of new Set([...before.keys(), ...after.keys()])) if (before.get(device) !== after.get(device)) modified.add(device);
    return { driver: s.spec.driver, pool: s.spec.pool.name, modified };
  }

  /** The taints of one device in the pool's current slices; none for an unknown device. */
  taintsOf(driver: string, pool: string, device: string): readonly Taint[] {
    for (const slice of this.#current(poolKey(driver, pool))) {
      const d = slice.spec.devices?.find((x) => x.name === device);
      if (d) return d.taints ?? [];
    }
    return [];
  }

  #current(id: string): Slice[] {
    const slices = [...(this.#pools.get(id)?.values() ?? [])];
    const max = Math.max(...slices.map((s) => s.spec.pool.generation));
    return slices.filter((s) => s.spec.pool.generation === max);
  }

  /** Device name → its NoExecute taints (serialized, for comparison), for tainted devices only. */
  #noExecuteTaints(id: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const slice of this.#current(id)) {
      for (const d of slice.spec.devices ?? []) {
        const taints = (d.taints ?? []).filter((t) => t.effect === 'NoExecute');
        if (taints.length > 0) out.set(d.name, JSON.stringify(taints));
      }
    }
    return out;
  }
}

function poolKey(driver: string, pool: string): string {
  return `${driver}/${pool}`;
}

/** Whether the allocation uses one of `devices` of the pool. */
export function usesDevice(claim: Claim, driver: string, pool: string, devices: ReadonlySet<string>): boolean {
  return (claim.status?.allocation?.devices?.results ?? []).some((r) => r.driver === driver && r.pool === pool && devices.has(r.device));
}
