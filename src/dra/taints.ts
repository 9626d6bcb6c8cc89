// Device taints and request tolerations: a NoSchedule or NoExecute taint must be tolerated for
// the device to be allocated; other effects (None) never block.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/toleration.go,
// structured/internal/stable/allocator_stable.go (taintPreventsAllocation).
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';

type Taint = DeepReadonly<resourceV1.DeviceTaint>;
type Toleration = DeepReadonly<resourceV1.DeviceToleration>;

/** ToleratesTaint: effect and key match when set; Exists ignores the value, Equal (default) compares it. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function taintPreventsAllocation(taints: readonly Taint[], tolerations: readonly Toleration[]): boolean {
  return taints.some((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerations.some((t) => toleratesTaint(t, taint)));
}
