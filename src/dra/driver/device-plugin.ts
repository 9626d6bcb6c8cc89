// The legacy NVIDIA device plugin's view of a node (clusters that do not use DRA): extended
// resources counted as integers. Strategy none: full GPUs as nvidia.com/gpu. With MIG, single:
// every MIG instance is one nvidia.com/gpu; mixed: one nvidia.com/mig-<profile> per profile.
// Spec: shared/spec/dra.md §9. Upstream: NVIDIA/k8s-device-plugin (migStrategy).
import { gpuModelOf, type NvidiaGpuConfig } from './nvidia-slices.ts';
import { placeStaticMig } from '../gpu-catalog.ts';

export const gpuResourceName = 'nvidia.com/gpu';

/**
 * pluginCapacity: what the device plugin adds to node capacity/allocatable. Dynamic MIG has no
 * device-plugin form (partitions exist only through DRA), so it advertises full GPUs.
 */
export function pluginCapacity(gpus: NvidiaGpuConfig): Record<string, string> {
  gpuModelOf(gpus);
  if (gpus.mig === 'none' || gpus.mig === 'dynamic' || gpus.mig.length === 0) return { [gpuResourceName]: String(gpus.count) };
  const layout = placeStaticMig(gpuModelOf(gpus), gpus.mig);
  if (typeof layout === 'string') throw new Error(layout);
  if ((gpus.migStrategy ?? 'single') === 'single') return { [gpuResourceName]: String(layout.length * gpus.count) };
  const out: Record<string, string> = {};
  for (const { profile } of layout) {
    const key = `nvidia.com/mig-${profile.name}`;
    out[key] = String(Number(out[key] ?? '0') + gpus.count);
  }
  return out;
}
