// The structured-parameters allocator: for one node, find devices for every request of every
// claim (depth-first search with backtracking; the first full solution wins). Pure: the caller
// supplies the slices (as a DeviceInventory), classes and already-allocated devices, and persists
// the results itself.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/allocator.go and
// internal/stable/allocator_stable.go (plus the partitionable-devices and taints parts of
// internal/experimental).
import type { DeepReadonly } from '../core/index.ts';
import { defaultFeatureGates, resourceV1 } from '../api/index.ts';
import type { FeatureGates } from '../api/index.ts';
import { buildAllocationResult } from './allocation-result.ts';
import type { PickedDevice } from './allocation-result.ts';
import { MatchAttributeConstraint } from './constraints.ts';
import { CounterTracker } from './counters.ts';
import type { DeviceId, DeviceInventory, DeviceRecord, PoolView } from './inventory.ts';
import type { AllocatorNode } from './node-selector.ts';
import { nodeMatches } from './node-selector.ts';
import { selectorsMatch } from './selection.ts';
import { taintPreventsAllocation } from './taints.ts';

type Claim = DeepReadonly<resourceV1.ResourceClaim>;
type DeviceClass = DeepReadonly<resourceV1.DeviceClass>;

/** The DRA feature gates the allocator honours (upstream structured.Features). */
export interface AllocatorFeatures {
  readonly prioritizedList: boolean;
  readonly adminAccess: boolean;
  readonly partitionableDevices: boolean;
  readonly deviceTaints: boolean;
}

/** The allocator's part of the cluster's feature gates. */
function allocatorFeaturesOf(gates: FeatureGates): AllocatorFeatures {
  return { prioritizedList: gates.DRAPrioritizedList, adminAccess: gates.DRAAdminAccess, partitionableDevices: gates.DRAPartitionableDevices, deviceTaints: gates.DRADeviceTaints };
}

export const defaultAllocatorFeatures: AllocatorFeatures = allocatorFeaturesOf(defaultFeatureGates);

export interface AllocateInput {
  /** Unallocated claims, in pod.spec.resourceClaims order (extended-resource claim last). */
  readonly claims: readonly Claim[];
  readonly node: AllocatorNode;
  readonly inventory: DeviceInventory;
  /** DeviceClass lister. */
  readonly getClass: (name: string) => DeviceClass | undefined;
  /** Devices in use by allocated (and assumed) claims, adminAccess results excluded. */
  readonly allocated: ReadonlySet<DeviceId>;
  readonly features: AllocatorFeatures;
  /**
   * Whether the search has had its time (the Filter's filterTimeout, upstream's context deadline): the
   * search is exponential in the worst case and holds the one thread it runs on. Asked every few
   * devices tried; absent, the search runs to its end.
   */
  readonly timedOut?: (() => boolean) | undefined;
}

/** The unschedulable reasons the DynamicResources Filter reports. */
export const AllocatorReason = {
  CannotAllocate: 'cannot allocate all claims',
  InvalidPools: 'invalid resource pools were encountered',
  TimedOut: 'timed out trying to allocate devices',
} as const;
export type AllocatorReason = (typeof AllocatorReason)[keyof typeof AllocatorReason];

/**
 * - `allocated`: one AllocationResult per input claim, same order.
 * - `unschedulable`: no solution on this node ("does not fit", an empty result upstream); the
 *   reason is the node's Filter message.
 * - `error`: the request cannot be handled at all (unknown class, CEL runtime error, All on an
 *   incomplete pool, > 32 devices); the scheduler reports it as a SchedulerError.
 */
export type AllocationOutcome =
  | { readonly type: 'allocated'; readonly results: resourceV1.AllocationResult[] }
  | { readonly type: 'unschedulable'; readonly reason: AllocatorReason }
  | { readonly type: 'error'; readonly message: string };

export interface RequestData {
  /** `req` or `req/sub`. */
  readonly name: string;
  readonly baseName: string;
  readonly subName: string | undefined;
  readonly className: string;
  readonly class: DeviceClass;
  readonly selectors: readonly DeepReadonly<resourceV1.DeviceSelector>[];
  readonly all: boolean;
  numDevices: number;
  readonly adminAccess: boolean;
  readonly tolerations: readonly DeepReadonly<resourceV1.DeviceToleration>[];
  allDevices: DeviceRecord[];
}

/** A place in the node's devices: a pool's index, then a device's index in that pool's `devices`. */
interface Location {
  readonly pool: number;
  readonly device: number;
}
const everywhere: Location = { pool: 0, device: 0 };

type Slot = { readonly kind: 'exact'; readonly data: RequestData } | { readonly kind: 'first'; readonly subs: readonly RequestData[]; selected: number };

// What allocateOne reports: found a solution, no solution, the 32-results limit was hit (more
// aggressive backtracking, as upstream's errAllocationResultMaxSizeExceeded), out of time, or a hard error.
type Step = 'done' | 'none' | 'exceeded' | 'timeout' | { readonly error: string };

/**
 * How many devices are tried between two looks at the clock: few, as one device's selectors may take
 * a CEL evaluation of up to a million steps.
 */
const devicesPerTimeCheck = 16;

const maxResults = resourceV1.ResourceLimits.AllocationResultsMaxSize;
const claimRef = (c: Claim): string => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;

/** Allocate (upstream Allocator.Allocate) for one node, searching to the end in one go. */
export function allocateClaims(input: AllocateInput): AllocationOutcome {
  const search = searchClaims(input);
  for (;;) {
    const next = search.next();
    if (next.done) return next.value;
  }
}

/**
 * The same search, pausing each time it looks at the clock (every few devices tried): a caller that
 * shares its thread resumes it on a later turn, as upstream's Filter runs beside everything else.
 */
export function* searchClaims(input: AllocateInput): Generator<void, AllocationOutcome, void> {
  const pools = input.inventory.poolsForNode(input.node);
  const state = new SearchState(input, input.features, pools);
  const prepared = state.prepare();
  if (prepared) return { type: 'error', message: prepared };
  const step = yield* state.allocateOne(0, 0, 0, false);
  if (typeof step === 'object') return { type: 'error', message: step.error };
  if (step === 'timeout') return { type: 'unschedulable', reason: AllocatorReason.TimedOut };
  if (step !== 'done') {
    return { type: 'unschedulable', reason: pools.some((p) => p.invalidReason !== undefined) ? AllocatorReason.InvalidPools : AllocatorReason.CannotAllocate };
  }
  return { type: 'allocated', results: input.claims.map((claim, i) => state.result(claim, i)) };
}

class SearchState {
  readonly #input: AllocateInput;
  readonly #features: AllocatorFeatures;
  readonly #pools: readonly PoolView[];
  readonly #slots: Slot[][] = [];
  readonly #constraints: MatchAttributeConstraint[][] = [];
  readonly #picked: PickedDevice[][] = [];
  readonly #allocating = new Map<DeviceId, Set<number>>();
  readonly #counters: CounterTracker;
  #tried = 0;

  constructor(input: AllocateInput, features: AllocatorFeatures, pools: readonly PoolView[]) {
    this.#input = input;
    this.#features = features;
    this.#pools = pools;
    this.#counters = new CounterTracker(input.allocated);
  }

  /** validateDeviceRequest for every request; returns an error message or undefined. */
  prepare(): string | undefined {
    for (const [ci, claim] of this.#input.claims.entries()) {
      const slots: Slot[] = [];
      let minDevices = 0;
      for (const request of claim.spec.devices?.requests ?? []) {
        const subs = request.firstAvailable ?? [];
        if (subs.length > 0) {
          if (!this.#features.prioritizedList) return `claim ${claimRef(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`;
          const datas: RequestData[] = [];
          for (const sub of subs) {
            const d = this.#requestData(claim, ci, request.name, sub.name, sub, false);
            if (typeof d === 'string') return d;
            datas.push(d);
          }
          minDevices += Math.min(...datas.map((d) => d.numDevices));
          slots.push({ kind: 'first', subs: datas, selected: 0 });
        } else {
          if (!request.exactly) return `claim ${claimRef(claim)}, request ${request.name}: missing device class name (unsupported request type?)`;
          const d = this.#requestData(claim, ci, request.name, undefined, request.exactly, request.exactly.adminAccess);
          if (typeof d === 'string') return d;
          minDevices += d.numDevices;
          slots.push({ kind: 'exact', data: d });
        }
      }
      if (minDevices > maxResults) return `claim ${claimRef(claim)}: number of requested devices ${minDevices} exceeds the claim limit of ${maxResults}`;
      this.#slots.push(slots);
      this.#picked.push([]);
      const constraints: MatchAttributeConstraint[] = [];
      for (const [i, c] of (claim.spec.devices?.constraints ?? []).entries()) {
        if (c.matchAttribute === undefined) return `claim ${claimRef(claim)}, constraint #${i}: empty constraint (unsupported constraint type?)`;
        constraints.push(new MatchAttributeConstraint(c.requests ?? [], c.matchAttribute));
      }
      this.#constraints.push(constraints);
    }
    return undefined;
  }

  #requestData(
    claim: Claim,
    ci: number,
    baseName: string,
    subName: string | undefined,
    r: DeepReadonly<resourceV1.ExactDeviceRequest | resourceV1.DeviceSubRequest>,
    adminAccess: boolean | undefined,
  ): RequestData | string {
    const name = subName === undefined ? baseName : `${baseName}/${subName}`;
    const where = `claim ${claimRef(claim)}, request ${name}`;
    for (const [i, s] of (r.selectors ?? []).entries()) if (!s.cel) return `${where}, selector #${i}: CEL expression empty (unsupported selector type?)`;
    if (!this.#features.adminAccess && adminAccess !== undefined) return `${where}: admin access is requested, but the feature is disabled`;
    if (!r.deviceClassName) return `${where}: missing device class name (unsupported request type?)`;
    const cls = this.#input.getClass(r.deviceClassName);
    if (!cls) return `${where}: could not retrieve device class ${r.deviceClassName}: deviceclass.resource.k8s.io "${r.deviceClassName}" not found`;
    const mode = r.allocationMode ?? 'ExactCount';
    const data: RequestData = {
      name,
      baseName,
      subName,
      className: r.deviceClassName,
      class: cls,
      selectors: r.selectors ?? [],
      all: mode === 'All',
      numDevices: 0,
      adminAccess: adminAccess === true,
      tolerations: r.tolerations ?? [],
      allDevices: [],
    };
    switch (mode) {
      case 'ExactCount':
        data.numDevices = r.count ?? 1;
        return data;
      case 'All':
        for (const pool of this.#pools) {
          if (pool.incomplete) return `${where}: asks for all devices, but resource pool ${pool.id} is currently being updated`;
          if (pool.invalidReason !== undefined) return `${where}: asks for all devices, but resource pool ${pool.id} is currently invalid`;
          for (const d of pool.devices) {
            const ok = this.#isSelectable(ci, data, d);
            if (typeof ok === 'string') return ok;
            if (ok) data.allDevices.push(d);
          }
        }
        data.numDevices = data.allDevices.length;
        return data;
      default: {
        const never: never = mode;
        return `${where}: unsupported count mode ${String(never)}`;
      }
    }
  }

  #isSelectable(ci: number, data: RequestData, d: DeviceRecord): boolean | string {
    // Binding conditions (alpha, off) make a device unusable.
    if ((d.device.bindingConditions ?? []).length > 0) return false;
    const claim = this.#input.claims[ci];
    const cls = selectorsMatch(d, data.class.spec.selectors ?? [], `class ${data.class.metadata.name ?? ''}`);
    if (cls !== true) return cls;
    const req = selectorsMatch(d, data.selectors, `claim ${claim ? claimRef(claim) : ''}`);
    if (req !== true) return req;
    if (d.slice.spec.perDeviceNodeSelection && !nodeMatches(this.#input.node, d.device.nodeName, d.device.allNodes, d.device.nodeSelector)) return false;
    return true;
  }

  #inUse(id: DeviceId): boolean {
    return this.#input.allocated.has(id) || (this.#allocating.get(id)?.size ?? 0) > 0;
  }

  /**
   * `start` is where the request's next device is looked for: past the one picked before it in the
   * same request, as upstream's incubating allocator does (deviceLocation). Which devices a request
   * gets matters, not in what order, and every check (in use, counters, taints, matchAttribute) holds
   * for a set whatever its order: so the first solution in device order is the one the search over
   * every order finds first, and only the orders that cannot be first are left out.
   */
  *allocateOne(ci: number, ri: number, di: number, inSub: boolean, si = 0, start: Location = everywhere): Generator<void, Step, void> {
    if (ci >= this.#slots.length) return 'done';
    const slots = this.#slots[ci] ?? [];
    if (ri >= slots.length) {
      const step = yield* this.allocateOne(ci + 1, 0, 0, false);
      // Exceeding the limit in a later claim is not final: another choice here may need fewer devices.
      return step === 'exceeded' ? 'none' : step;
    }
    const slot = slots[ri];
    if (!slot) return 'none';
    if (slot.kind === 'first' && !inSub) {
      let allExceeded = true;
      for (let s = 0; s < slot.subs.length; s++) {
        const step = yield* this.allocateOne(ci, ri, di, true, s);
        if (step === 'exceeded') continue;
        allExceeded = false;
        if (typeof step === 'object' || step === 'timeout') return step;
        if (step === 'done') {
          slot.selected = s;
          return 'done';
        }
      }
      return allExceeded ? 'exceeded' : 'none';
    }
    const data = slot.kind === 'exact' ? slot.data : slot.subs[si];
    if (!data) return 'none';
    if (data.all && data.allDevices.length === 0) return 'none';
    if (di >= data.numDevices) return yield* this.allocateOne(ci, ri + 1, 0, false);
    if ((this.#picked[ci]?.length ?? 0) + data.numDevices - di > maxResults) return 'exceeded';
    if (!data.all && !this.#mayHaveEnough(ci, data, start, data.numDevices - di)) return 'none';

    if (data.all) {
      const d = data.allDevices[di];
      if (!d) return 'none';
      const undo = this.#allocateDevice(ci, data, d, true);
      if (typeof undo === 'object') return undo;
      if (!undo) return 'none';
      const step = yield* this.allocateOne(ci, ri, di + 1, inSub, si);
      if (step !== 'done') undo();
      return step;
    }

    for (let p = start.pool; p < this.#pools.length; p++) {
      const pool = this.#pools[p];
      if (!pool || pool.incomplete || pool.invalidReason !== undefined) continue;
      for (let i = p === start.pool ? start.device : 0; i < pool.devices.length; i++) {
        const d = pool.devices[i];
        if (!d) continue;
        if (++this.#tried % devicesPerTimeCheck === 0) {
          if (this.#input.timedOut?.() === true) return 'timeout';
          yield;
        }
        if (data.adminAccess ? this.#allocating.get(d.id)?.has(ci) : this.#inUse(d.id)) continue;
        const selectable = this.#isSelectable(ci, data, d);
        if (typeof selectable === 'string') return { error: selectable };
        if (!selectable) continue;
        const undo = this.#allocateDevice(ci, data, d, false, pool);
        if (typeof undo === 'object') return undo;
        if (!undo) continue;
        const step = yield* this.allocateOne(ci, ri, di + 1, inSub, si, { pool: p, device: i + 1 });
        if (step === 'done') return step;
        undo();
        if (step !== 'none') return step;
      }
    }
    return 'none';
  }

  /**
   * Whether `needed` more devices for the request could be found from `start` on: as many devices
   * it could take one at a time now (not in use, selected, counters left, untainted, the claim's
   * constraints met so far), and as many as fit their counter sets together. A request for more
   * than the node offers (nine GPUs of eight, sixteen MIG slices of one GPU's seven) would otherwise
   * try every combination, and the filterTimeout, to answer "cannot allocate all claims". This only
   * ever says no where the search below would find nothing; a selector error says yes, so the
   * search reports it where upstream's does.
   */
  #mayHaveEnough(ci: number, data: RequestData, start: Location, needed: number): boolean {
    const takeable: { pool: PoolView; device: DeviceRecord }[] = [];
    for (let p = start.pool; p < this.#pools.length; p++) {
      const pool = this.#pools[p];
      if (!pool || pool.incomplete || pool.invalidReason !== undefined) continue;
      for (let i = p === start.pool ? start.device : 0; i < pool.devices.length; i++) {
        const d = pool.devices[i];
        if (!d || (data.adminAccess ? this.#allocating.get(d.id)?.has(ci) : this.#inUse(d.id))) continue;
        const selectable = this.#isSelectable(ci, data, d);
        if (typeof selectable === 'string') return true;
        if (!selectable || !this.#couldTake(ci, data, d, pool)) continue;
        // One device that fits alone is all the counters could say.
        if (needed === 1) return true;
        takeable.push({ pool, device: d });
      }
    }
    return takeable.length >= needed && this.#counters.maxTogether(takeable) >= needed;
  }

  /** The per-device part of allocateDevice, with nothing kept: counters left now, taints, constraints. */
  #couldTake(ci: number, data: RequestData, d: DeviceRecord, pool: PoolView): boolean {
    if (d.consumes.length > 0) {
      if (!this.#features.partitionableDevices || !this.#counters.tryConsume(pool, d)) return false;
      this.#counters.release(pool, d);
    }
    if (this.#features.deviceTaints && taintPreventsAllocation(d.device.taints ?? [], data.tolerations)) return false;
    return (this.#constraints[ci] ?? []).every((c) => c.accepts(data.baseName, data.subName, d));
  }

  /** allocateDevice: availability, counters, taints, constraints; returns the rollback. */
  #allocateDevice(ci: number, data: RequestData, d: DeviceRecord, must: boolean, view?: PoolView): (() => void) | false | { error: string } {
    if (data.adminAccess ? this.#allocating.get(d.id)?.has(ci) : this.#inUse(d.id)) return false;
    const pool = view ?? this.#pools.find((p) => p.driver === d.driver && p.pool === d.pool);
    if (d.consumes.length > 0) {
      if (!this.#features.partitionableDevices || !pool) return false;
      if (!this.#counters.tryConsume(pool, d)) return false;
    }
    const releaseCounters = (): void => {
      if (d.consumes.length > 0 && pool) this.#counters.release(pool, d);
    };
    if (this.#features.deviceTaints && taintPreventsAllocation(d.device.taints ?? [], data.tolerations)) {
      releaseCounters();
      return false;
    }
    const constraints = this.#constraints[ci] ?? [];
    for (let i = 0; i < constraints.length; i++) {
      if (constraints[i]?.add(data.baseName, data.subName, d)) continue;
      for (let e = 0; e < i; e++) constraints[e]?.remove(data.baseName, data.subName);
      releaseCounters();
      const claim = this.#input.claims[ci];
      if (must) return { error: `claim ${claim ? claimRef(claim) : ''}, request ${data.name}: cannot add device ${d.id} because a claim constraint would not be satisfied` };
      return false;
    }
    let claims = this.#allocating.get(d.id);
    if (!claims) this.#allocating.set(d.id, (claims = new Set()));
    claims.add(ci);
    const picked = this.#picked[ci] ?? [];
    picked.push({ request: data, device: d });
    const length = picked.length - 1;
    return () => {
      for (const c of constraints) c.remove(data.baseName, data.subName);
      claims.delete(ci);
      releaseCounters();
      picked.length = length;
    };
  }

  result(claim: Claim, ci: number): resourceV1.AllocationResult {
    const chosen = (this.#slots[ci] ?? []).map((s) => (s.kind === 'exact' ? s.data : (s.subs[s.selected] ?? s.subs[0]))).filter((d): d is RequestData => d !== undefined);
    return buildAllocationResult(claim, chosen, this.#picked[ci] ?? []);
  }
}
