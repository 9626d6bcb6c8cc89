// What the DynamicResources plugin knows about claims between scheduling cycles: the informer's
// claims overlaid with the ones it wrote itself (assumed until the informer catches up), the
// allocations in flight from Reserve to the end of PreBind, and the live set of devices all of
// them hold. The set is updated incrementally, so a cycle never copies it.
// Upstream: pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go (claimTracker),
// allocateddevices.go, pkg/scheduler/util/assumecache/assume_cache.go.
import type { resourceV1 } from '../../api/index.ts';
import type { Informer } from '../../client/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { keyOf, objectKey } from '../../core/index.ts';

type DeviceId = string;
type ResultDeviceIds = (allocation: DeepReadonly<resourceV1.AllocationResult> | undefined) => DeviceId[];

export type ClaimRO = DeepReadonly<resourceV1.ResourceClaim>;

const rv = (c: ClaimRO): number => Number(c.metadata.resourceVersion ?? 0);

export class ClaimTracker {
  readonly #claims: Informer<resourceV1.ResourceClaim>;
  /** Devices held, with reference counts (a claim counts once per source: informer, assumed, in flight). */
  readonly #count = new Map<DeviceId, number>();
  readonly allocated = new Set<DeviceId>();
  readonly #contribution = new Map<string, readonly DeviceId[]>();
  /** Claims written by PreBind the informer has not delivered yet, by key. */
  readonly #assumed = new Map<string, ClaimRO>();
  /** Claim uid -> the claim with the allocation Reserve picked (until PreBind ends). */
  readonly #inFlight = new Map<string, ClaimRO>();
  /** Told `<driver>/<pool>` whenever a device of the pool is taken or freed. */
  readonly #poolListeners: ((pool: string) => void)[] = [];

  readonly #ids: ResultDeviceIds;

  constructor(claims: Informer<resourceV1.ResourceClaim>, resultDeviceIds: ResultDeviceIds) {
    this.#claims = claims;
    this.#ids = resultDeviceIds;
    claims.addHandlers({
      onAdd: (c) => this.#observe(c),
      onUpdate: (_o, c) => this.#observe(c),
      onDelete: (c) => {
        const key = keyOf(c);
        this.#assumed.delete(key);
        this.#set(`assumed:${key}`, []);
        this.#set(`informer:${key}`, []);
      },
    });
  }

  #observe(c: ClaimRO): void {
    const key = keyOf(c);
    this.#set(`informer:${key}`, this.#ids(c.status?.allocation));
    const assumed = this.#assumed.get(key);
    if (assumed && rv(c) >= rv(assumed)) {
      this.#assumed.delete(key);
      this.#set(`assumed:${key}`, []);
    }
  }

  #set(source: string, ids: readonly DeviceId[]): void {
    const old = this.#contribution.get(source) ?? [];
    if (old.length === 0 && ids.length === 0) return;
    for (const id of ids) {
      const n = (this.#count.get(id) ?? 0) + 1;
      this.#count.set(id, n);
      if (n === 1) {
        this.allocated.add(id);
        this.#bump(id);
      }
    }
    for (const id of old) {
      const n = (this.#count.get(id) ?? 0) - 1;
      if (n > 0) this.#count.set(id, n);
      else {
        this.#count.delete(id);
        this.allocated.delete(id);
        this.#bump(id);
      }
    }
    if (ids.length === 0) this.#contribution.delete(source);
    else this.#contribution.set(source, ids);
  }

  #bump(id: DeviceId): void {
    const pool = id.slice(0, id.lastIndexOf('/'));
    for (const listener of this.#poolListeners) listener(pool);
  }

  onPoolChanged(listener: (pool: string) => void): void {
    this.#poolListeners.push(listener);
  }

  /** The latest claim: the informer's, or the one PreBind wrote if that is newer. */
  get(namespace: string | undefined, name: string): ClaimRO | undefined {
    const key = objectKey(namespace, name);
    const fromInformer = this.#claims.get(key);
    const assumed = this.#assumed.get(key);
    if (assumed && (!fromInformer || rv(assumed) > rv(fromInformer))) return fromInformer ? assumed : undefined;
    return fromInformer;
  }

  hasPendingAllocation(uid: string): boolean {
    return this.#inFlight.has(uid);
  }

  /** Reserve: the devices are taken from now on. */
  signalPendingAllocation(claim: ClaimRO): void {
    const uid = claim.metadata.uid ?? '';
    this.#inFlight.set(uid, claim);
    this.#set(`inflight:${uid}`, this.#ids(claim.status?.allocation));
  }

  removePendingAllocation(uid: string): boolean {
    const had = this.#inFlight.delete(uid);
    this.#set(`inflight:${uid}`, []);
    return had;
  }

  /** After a successful API write: hold the written claim until the informer has it. */
  assume(claim: ClaimRO): void {
    const key = keyOf(claim);
    const current = this.#claims.get(key);
    if (current && rv(current) >= rv(claim)) return;
    this.#assumed.set(key, claim);
    this.#set(`assumed:${key}`, this.#ids(claim.status?.allocation));
  }
}
