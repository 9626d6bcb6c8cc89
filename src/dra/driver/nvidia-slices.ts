// The ResourceSlices and DeviceClasses of NVIDIA's DRA driver for one simulated node, as pure
// functions (the driver component writes them; tests and benchmarks call them directly).
// Layout (1.35): pool = node name, every slice has nodeName. Full GPUs or static MIG: one slice
// with all devices. Dynamic MIG: the counter sets first (≤ 8 per slice), then one device-only
// slice per GPU, resourceSliceCount = all of them. Spec: shared/spec/dra.md §8.
import type { resourceV1 } from '../../api/index.ts';
import { findGpuModel, placeStaticMig } from '../gpu-catalog.ts';
import type { GpuModel } from '../gpu-catalog.ts';
import { dynamicMigDevices, fullGpuDevice, gpuCounterSet, gpuIdentity, migDeviceName, nvidiaDriverName, staticMigDevice } from './nvidia-devices.ts';

/** The GPU part of a node pool's config (cluster's GpuConfig satisfies it). */
export interface NvidiaGpuConfig {
  readonly model: string;
  readonly count: number;
  readonly mig: 'none' | 'dynamic' | readonly string[];
  readonly nvlinkDomainSize?: number;
  readonly expose?: 'dra' | 'device-plugin';
  readonly migStrategy?: 'single' | 'mixed';
}

const maxCounterSetsPerSlice = 8;
const maxDevicesPerSlice = 128;

/** Resolves the model, or throws: an unknown model is a configuration bug caught at startup. */
export function gpuModelOf(gpus: NvidiaGpuConfig): GpuModel {
  const model = findGpuModel(gpus.model);
  if (!model) throw new Error(`unknown GPU model ${JSON.stringify(gpus.model)}`);
  return model;
}

// Slice names follow the driver's `<node>-<driver>-<5 chars>` shape; the suffix encodes the
// slice's index in the generateName alphabet (in sort order) so names are stable across restarts
// and sort in GPU order, which is the order the allocator walks them.
const alphabet = '2456789bcdfghjklmnpqrstvwxz';
function sliceName(node: string, index: number): string {
  let n = index;
  let suffix = '';
  for (let i = 0; i < 5; i++) {
    suffix = (alphabet[n % alphabet.length] ?? '2') + suffix;
    n = Math.floor(n / alphabet.length);
  }
  return `${node}-${nvidiaDriverName}-${suffix}`;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type SliceSpec = Pick<resourceV1.ResourceSliceSpec, 'devices' | 'sharedCounters'>;

/**
 * nvidiaResourceSlices: the slices the driver publishes for `node`, at pool generation
 * `generation` (the driver bumps it when the layout changes).
 */
export function nvidiaResourceSlices(node: string, gpus: NvidiaGpuConfig, generation = 1): resourceV1.ResourceSlice[] {
  const model = gpuModelOf(gpus);
  const identities = Array.from({ length: gpus.count }, (_, i) => gpuIdentity(node, i, model, gpus.nvlinkDomainSize ?? gpus.count));
  const specs: SliceSpec[] = [];
  if (gpus.mig === 'dynamic') {
    for (const sets of chunk(identities.map(gpuCounterSet), maxCounterSetsPerSlice)) specs.push({ sharedCounters: sets });
    for (const gpu of identities) specs.push({ devices: dynamicMigDevices(gpu) });
  } else if (gpus.mig === 'none' || gpus.mig.length === 0) {
    for (const devices of chunk(identities.map(fullGpuDevice), maxDevicesPerSlice)) specs.push({ devices });
  } else {
    const layout = placeStaticMig(model, gpus.mig);
    if (typeof layout === 'string') throw new Error(layout);
    const devices = identities.flatMap((gpu) => layout.map(({ profile, placement }) => staticMigDevice(gpu, profile, placement)));
    devices.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const part of chunk(devices, maxDevicesPerSlice)) specs.push({ devices: part });
  }
  return specs.map((spec, i) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: sliceName(node, i) },
    spec: { driver: nvidiaDriverName, nodeName: node, pool: { name: node, generation, resourceSliceCount: specs.length }, ...spec },
  }));
}

/** The names of the MIG devices a static layout creates on GPU `index` (for tests and the kubelet). */
export function staticMigDeviceNames(gpus: NvidiaGpuConfig, index: number): string[] {
  const model = gpuModelOf(gpus);
  if (!Array.isArray(gpus.mig)) return [];
  const layout = placeStaticMig(model, gpus.mig);
  return typeof layout === 'string' ? [] : layout.map(({ profile, placement }) => migDeviceName(index, profile, placement));
}

/** The DeviceClasses the driver's Helm chart installs (templates/deviceclass-*.yaml). */
export function nvidiaDeviceClasses(): resourceV1.DeviceClass[] {
  const cls = (name: string, type: string, extra: Partial<resourceV1.DeviceClassSpec> = {}): resourceV1.DeviceClass => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name },
    spec: { selectors: [{ cel: { expression: `device.driver == '${nvidiaDriverName}' && device.attributes['${nvidiaDriverName}'].type == '${type}'` } }], ...extra },
  });
  return [cls('gpu.nvidia.com', 'gpu', { extendedResourceName: 'nvidia.com/gpu' }), cls('mig.nvidia.com', 'mig')];
}
