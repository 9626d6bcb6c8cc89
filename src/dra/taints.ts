// Device taints and request tolerations: a NoSchedule or NoExecute taint must be tolerated for
// the device to be allocated; other effects (None) never block.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/structured/internal/stable/allocator_stable.go
// (taintPreventsAllocation).
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';
import { toleratesDeviceTaint } from '../api/index.ts';

type Taint = DeepReadonly<resourceV1.DeviceTaint>;
type Toleration = DeepReadonly<resourceV1.DeviceToleration>;

export function taintPreventsAllocation(taints: readonly Taint[], tolerations: readonly Toleration[]): boolean {
  return taints.some((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerations.some((t) => toleratesDeviceTaint(t, taint)));
}
