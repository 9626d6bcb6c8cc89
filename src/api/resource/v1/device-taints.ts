// Whether a device toleration tolerates a device taint, as a pod's toleration does a node taint: shared
// by the allocator, which keeps a tainted device from claims that do not tolerate it, and the
// device-taint-eviction controller.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/toleration.go (ToleratesTaint).
import type { DeepReadonly } from '../../../core/index.ts';
import { toleratesTaint } from '../../core/v1/taints.ts';
import type { DeviceTaint, DeviceToleration } from './types.ts';

/** ToleratesTaint: effect and key match when set; Exists ignores the value, Equal (the default) compares it. */
export function toleratesDeviceTaint(t: DeepReadonly<DeviceToleration>, taint: DeepReadonly<DeviceTaint>): boolean {
  return toleratesTaint(t, taint);
}
