// Which devices are taken: every result of every allocated claim, except adminAccess results
// (admin access never blocks other users of a device).
// Upstream: pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go.
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';
import { deviceId } from './inventory.ts';
import type { DeviceId } from './inventory.ts';

/** The device ids an allocation holds (adminAccess results excluded). */
export function resultDeviceIds(allocation: DeepReadonly<resourceV1.AllocationResult> | undefined): DeviceId[] {
  return (allocation?.devices?.results ?? []).filter((r) => r.adminAccess !== true).map((r) => deviceId(r.driver, r.pool, r.device));
}

/** The `allocated` input of allocateClaims for a set of claims (add assumed allocations too). */
export function allocatedDeviceIds(claims: Iterable<DeepReadonly<resourceV1.ResourceClaim>>): Set<DeviceId> {
  const out = new Set<DeviceId>();
  for (const c of claims) for (const id of resultDeviceIds(c.status?.allocation)) out.add(id);
  return out;
}
