// dropDisabledFields for the resource.k8s.io kinds: on create, and on update unless the stored
// object already uses them, the fields of a disabled feature gate are silently removed (before
// validation, so what is left must still validate). "In use" is judged on the old object only, so
// an object written while a gate was on keeps its fields through unrelated updates.
// Upstream: pkg/registry/resource/resourceslice/strategy.go, deviceclass/strategy.go,
// resourceclaim/strategy.go (status), pkg/api/resourceclaimspec (DropDisabledFields, shared by
// ResourceClaim and ResourceClaimTemplate).
import type { FeatureGates } from '../../features.ts';
import { defaultFeatureGates } from '../../features.ts';
import type { DeviceClass, ResourceClaimSpec, ResourceClaimStatus, ResourceSlice } from './types.ts';

const some = <T>(items: readonly T[] | undefined, test: (item: T) => boolean): boolean => (items ?? []).some(test);

function partitionableInUse(slice: ResourceSlice | undefined): boolean {
  if (!slice) return false;
  const s = slice.spec;
  if ((s.sharedCounters ?? []).length > 0 || s.perDeviceNodeSelection !== undefined) return true;
  return some(s.devices, (d) => (d.consumesCounters ?? []).length > 0 || d.nodeName !== undefined || d.nodeSelector !== undefined || d.allNodes !== undefined);
}

export function dropDisabledSliceFields(slice: ResourceSlice, old: ResourceSlice | undefined, gates: FeatureGates = defaultFeatureGates): void {
  if (!gates.DRADeviceTaints && !some(old?.spec.devices, (d) => (d.taints ?? []).length > 0)) {
    for (const d of slice.spec.devices ?? []) delete d.taints;
  }
  if (!gates.DRAPartitionableDevices && !partitionableInUse(old)) {
    delete slice.spec.sharedCounters;
    delete slice.spec.perDeviceNodeSelection;
    for (const d of slice.spec.devices ?? []) {
      delete d.consumesCounters;
      delete d.nodeName;
      delete d.nodeSelector;
      delete d.allNodes;
    }
  }
}

export function dropDisabledClassFields(cls: DeviceClass, old: DeviceClass | undefined, gates: FeatureGates = defaultFeatureGates): void {
  if (!gates.DRAExtendedResource && old?.spec?.extendedResourceName === undefined) delete cls.spec?.extendedResourceName;
}

const requestsOf = (spec: ResourceClaimSpec | undefined) => spec?.devices?.requests ?? [];

const adminAccessInSpec = (spec: ResourceClaimSpec | undefined): boolean => some(requestsOf(spec), (r) => r.exactly?.adminAccess !== undefined);

/** For a claim's spec or a template's spec.spec. */
export function dropDisabledClaimSpecFields(spec: ResourceClaimSpec | undefined, old: ResourceClaimSpec | undefined, gates: FeatureGates = defaultFeatureGates): void {
  const requests = requestsOf(spec);
  if (!gates.DRAPrioritizedList && !some(requestsOf(old), (r) => (r.firstAvailable ?? []).length > 0)) {
    for (const r of requests) delete r.firstAvailable;
  }
  // After the prioritized list: subrequests dropped above need no tolerations dropped.
  const tolerationsInUse = some(requestsOf(old), (r) => (r.exactly?.tolerations ?? []).length > 0 || some(r.firstAvailable, (s) => (s.tolerations ?? []).length > 0));
  if (!gates.DRADeviceTaints && !tolerationsInUse) {
    for (const r of requests) {
      if (r.exactly) delete r.exactly.tolerations;
      for (const s of r.firstAvailable ?? []) delete s.tolerations;
    }
  }
  if (!gates.DRAAdminAccess && !adminAccessInSpec(old)) {
    for (const r of requests) if (r.exactly) delete r.exactly.adminAccess;
  }
}

/** A claim's status write: admin access in the results needs the gate, or admin access already used by the claim. */
export function dropDisabledClaimStatusFields(status: ResourceClaimStatus | undefined, old: { spec: ResourceClaimSpec; status?: ResourceClaimStatus }, gates: FeatureGates = defaultFeatureGates): void {
  if (gates.DRAAdminAccess || adminAccessInSpec(old.spec) || some(old.status?.allocation?.devices?.results, (r) => r.adminAccess !== undefined)) return;
  for (const r of status?.allocation?.devices?.results ?? []) delete r.adminAccess;
}
