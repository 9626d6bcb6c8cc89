// The allocator's view of ResourceSlices: pools per node with generation handling, parsed
// counters, and per-device caches (the CEL view and selector results). Build it once per set of
// slices and reuse it for every pod and node until a slice changes.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/internal/*/pools_*.go.
//
// Example: node n1 publishes pool n1 of gpu.nvidia.com in three slices at generation 2
// (resourceSliceCount 3: one with sharedCounters, two with devices) and a stale slice of
// generation 1. poolsForNode(n1) returns one PoolView: the three current slices, sorted by name,
// the stale one dropped; counterSets from the first; devices of the other two, in slice order.
// With only two of the three current slices present the view is `incomplete` and ExactCount
// requests skip it, while `All` requests fail with "is currently being updated".
import { parseQuantity, quantityNanoValue } from '../core/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';
import { toCelDevice } from '../api/index.ts';
import type { CelDevice, EvalResult } from '../api/index.ts';
import { nodeMatches } from './node-selector.ts';
import type { AllocatorNode } from './node-selector.ts';

type Slice = DeepReadonly<resourceV1.ResourceSlice>;
type Device = DeepReadonly<resourceV1.Device>;

/** `<driver>/<pool>/<device>`, upstream's DeviceID.String(). */
export type DeviceId = string;

export function deviceId(driver: string, pool: string, device: string): DeviceId {
  return `${driver}/${pool}/${device}`;
}

export interface CounterConsumption {
  readonly counterSet: string;
  /** Counter name -> amount in nano-units. */
  readonly counters: ReadonlyMap<string, bigint>;
}

export interface DeviceRecord {
  readonly id: DeviceId;
  readonly driver: string;
  readonly pool: string;
  readonly name: string;
  readonly device: Device;
  readonly slice: Slice;
  readonly consumes: readonly CounterConsumption[];
  /** Selector results by expression text; valid as long as this record (the slice) lives. */
  readonly selection: Map<string, EvalResult>;
  cel?: CelDevice | { error: string };
}

export interface PoolView {
  readonly driver: string;
  readonly pool: string;
  /** `<driver>/<pool>`, as upstream's PoolID prints. */
  readonly id: string;
  readonly incomplete: boolean;
  readonly invalidReason: string | undefined;
  /** Devices of the slices that target the node, in slice-name then listed order. */
  readonly devices: readonly DeviceRecord[];
  /** Every device of the pool's current slices (counter consumption of allocated ones counts). */
  readonly allDevices: readonly DeviceRecord[];
  /** Counter set -> counter -> value in nano-units. */
  readonly counterSets: ReadonlyMap<string, ReadonlyMap<string, bigint>>;
  /** Counter set -> the devices (of allDevices) that consume from it. */
  readonly consumersBySet: ReadonlyMap<string, readonly DeviceRecord[]>;
}

export interface DeviceInventory {
  /** GatherPools: the pools visible from a node, sorted by (driver, pool). Cached per node name. */
  poolsForNode(node: AllocatorNode): readonly PoolView[];
  /** Looks a device up by id in the current slices (any node). */
  device(id: DeviceId): DeviceRecord | undefined;
}

/** The CEL view of a device, built on first use. */
export function celDeviceOf(r: DeviceRecord): CelDevice | { error: string } {
  r.cel ??= toCelDevice(r.driver, r.device as resourceV1.Device);
  return r.cel;
}

// Counter values repeat across thousands of devices ("1", "16", "9984Mi"): parse each text once.
const nanoByText = new Map<string, bigint>();
function nanoOf(text: string): bigint {
  let v = nanoByText.get(text);
  if (v === undefined) {
    const q = parseQuantity(text);
    v = q ? quantityNanoValue(q) : 0n;
    if (nanoByText.size < 10_000) nanoByText.set(text, v);
  }
  return v;
}

function nanoCounters(counters: DeepReadonly<Record<string, resourceV1.Counter>> | undefined): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [k, c] of Object.entries(counters ?? {})) out.set(k, nanoOf(c.value));
  return out;
}

interface SliceEntry {
  readonly slice: Slice;
  readonly devices: DeviceRecord[];
}

function entryOf(slice: Slice): SliceEntry {
  const { driver, pool } = slice.spec;
  return {
    slice,
    devices: (slice.spec.devices ?? []).map((d) => ({
      id: deviceId(driver, pool.name, d.name),
      driver,
      pool: pool.name,
      name: d.name,
      device: d,
      slice,
      consumes: (d.consumesCounters ?? []).map((c) => ({ counterSet: c.counterSet, counters: nanoCounters(c.counters) })),
      selection: new Map(),
    })),
  };
}

const byName = (a: SliceEntry, b: SliceEntry): number => ((a.slice.metadata.name ?? '') < (b.slice.metadata.name ?? '') ? -1 : 1);

function poolView(driver: string, pool: string, entries: readonly SliceEntry[], targets: (e: SliceEntry) => readonly DeviceRecord[]): PoolView {
  const generation = Math.max(...entries.map((e) => e.slice.spec.pool.generation ?? 0));
  const current = entries.filter((e) => (e.slice.spec.pool.generation ?? 0) === generation).sort(byName);
  const expected = current[0]?.slice.spec.pool.resourceSliceCount ?? 0;
  const counterSets = new Map<string, ReadonlyMap<string, bigint>>();
  let invalidReason: string | undefined;
  for (const e of current) {
    for (const cs of e.slice.spec.sharedCounters ?? []) {
      if (counterSets.has(cs.name)) invalidReason ??= `duplicate counter set name ${cs.name}`;
      counterSets.set(cs.name, nanoCounters(cs.counters));
    }
  }
  const names = new Set<string>();
  const allDevices = current.flatMap((e) => e.devices);
  const consumersBySet = new Map<string, DeviceRecord[]>();
  for (const d of allDevices) {
    for (const c of d.consumes) {
      const list = consumersBySet.get(c.counterSet);
      if (list) list.push(d);
      else consumersBySet.set(c.counterSet, [d]);
    }
    if (names.has(d.name)) invalidReason ??= `duplicate device name ${d.name}`;
    names.add(d.name);
    for (const c of d.consumes) {
      const set = counterSets.get(c.counterSet);
      if (!set) invalidReason ??= `device ${d.name} consumes counters from unknown counter set ${c.counterSet}`;
      else for (const k of c.counters.keys()) if (!set.has(k)) invalidReason ??= `device ${d.name} consumes unknown counter ${k} from counter set ${c.counterSet}`;
    }
  }
  return {
    driver,
    pool,
    id: `${driver}/${pool}`,
    incomplete: current.length !== expected,
    invalidReason,
    devices: current.flatMap(targets),
    allDevices,
    counterSets,
    consumersBySet,
  };
}

/**
 * Indexes slices for allocation. Slices with `nodeName` are grouped per node ahead of time;
 * `allNodes`, `nodeSelector` and per-device selections are matched per node on first query.
 * The inventory is immutable: rebuild it (cheap, O(devices)) when slices change.
 */
export function buildInventory(slices: readonly Slice[], options: { partitionableDevices?: boolean } = {}): DeviceInventory {
  const partitionable = options.partitionableDevices ?? true;
  const byNode = new Map<string, Map<string, SliceEntry[]>>();
  const shared: SliceEntry[] = [];
  const devices = new Map<DeviceId, DeviceRecord>();
  for (const slice of slices) {
    if (!partitionable && slice.spec.perDeviceNodeSelection) continue;
    const entry = entryOf(slice);
    for (const d of entry.devices) devices.set(d.id, d);
    const nodeName = slice.spec.nodeName;
    if (nodeName) {
      let pools = byNode.get(nodeName);
      if (!pools) byNode.set(nodeName, (pools = new Map()));
      const key = `${slice.spec.driver}/${slice.spec.pool.name}`;
      const list = pools.get(key);
      if (list) list.push(entry);
      else pools.set(key, [entry]);
    } else shared.push(entry);
  }
  const cache = new Map<string, readonly PoolView[]>();
  return {
    device: (id) => devices.get(id),
    poolsForNode(node) {
      const name = node.metadata.name ?? '';
      const hit = cache.get(name);
      if (hit) return hit;
      const groups = new Map<string, { driver: string; pool: string; entries: SliceEntry[] }>();
      const add = (e: SliceEntry): void => {
        const key = `${e.slice.spec.driver}/${e.slice.spec.pool.name}`;
        const g = groups.get(key);
        if (g) g.entries.push(e);
        else groups.set(key, { driver: e.slice.spec.driver, pool: e.slice.spec.pool.name, entries: [e] });
      };
      for (const list of byNode.get(name)?.values() ?? []) for (const e of list) add(e);
      for (const e of shared) {
        const s = e.slice.spec;
        if (s.allNodes || s.nodeSelector ? nodeMatches(node, undefined, s.allNodes, s.nodeSelector) : s.perDeviceNodeSelection && e.slice.spec.devices?.some((d) => nodeMatches(node, d.nodeName, d.allNodes, d.nodeSelector))) add(e);
      }
      const targets = (e: SliceEntry): readonly DeviceRecord[] =>
        e.slice.spec.perDeviceNodeSelection ? e.devices.filter((d) => nodeMatches(node, d.device.nodeName, d.device.allNodes, d.device.nodeSelector)) : e.devices;
      const views = [...groups.values()]
        .map((g) => poolView(g.driver, g.pool, g.entries, targets))
        .sort((a, b) => (a.driver === b.driver ? (a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0) : a.driver < b.driver ? -1 : 1));
      cache.set(name, views);
      return views;
    },
  };
}
