// The devices NVIDIA's DRA driver (gpu.nvidia.com) advertises for one GPU: the full GPU, static
// MIG instances, or every placement of every MIG profile for dynamic MIG, with the counters that
// make the allocator enforce MIG placement rules. Spec: shared/spec/dra.md §8.
// Upstream: NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/{deviceinfo.go,mig.go,partitions.go}.
import type { resourceV1 } from '../../api/index.ts';
import { deterministicUuid, simulatedGpuUuid } from '../../api/index.ts';
import { migCapacity, simulatedCudaDriverVersion, simulatedDriverVersion } from '../gpu-catalog.ts';
import type { GpuEngines, GpuModel, MigPlacement, MigProfile } from '../gpu-catalog.ts';

export const nvidiaDriverName = 'gpu.nvidia.com';
/** Drydock's NVLink-domain attribute (an int per node); NVIDIA's driver has no such attribute. */
export const nvlinkDomainAttribute = 'sim.drydock.dev/nvlinkDomain';

type Attributes = Record<string, resourceV1.DeviceAttribute>;
type Capacity = Record<string, resourceV1.DeviceCapacity>;

// PCI bus numbers of the eight GPUs of a DGX/HGX H100 board; further GPUs continue upwards.
const busNumbers = [0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb];
const hex2 = (n: number): string => (n % 256).toString(16).padStart(2, '0');

function busOf(index: number): number {
  return busNumbers[index] ?? 0xe0 + (index - busNumbers.length);
}

export interface GpuIdentity {
  readonly index: number;
  readonly uuid: string;
  readonly model: GpuModel;
  readonly nvlinkDomain: number;
}

export function gpuIdentity(node: string, index: number, model: GpuModel, nvlinkDomainSize: number): GpuIdentity {
  return { index, uuid: simulatedGpuUuid(node, index), model, nvlinkDomain: Math.floor(index / Math.max(1, nvlinkDomainSize)) };
}

const mib = (n: number): string => `${n}Mi`;

/** Attributes every device of a GPU shares (the parent's, for MIG devices). */
function commonAttributes(gpu: GpuIdentity): Attributes {
  const bus = busOf(gpu.index);
  return {
    architecture: { string: gpu.model.architecture },
    brand: { string: gpu.model.brand },
    cudaComputeCapability: { version: gpu.model.cudaComputeCapability },
    cudaDriverVersion: { version: simulatedCudaDriverVersion },
    driverVersion: { version: simulatedDriverVersion },
    productName: { string: gpu.model.productName },
    'resource.kubernetes.io/pciBusID': { string: `0000:${hex2(bus)}:00.0` },
    'resource.kubernetes.io/pcieRoot': { string: `pci0000:${hex2(bus & 0xf0)}` },
    [nvlinkDomainAttribute]: { int: gpu.nvlinkDomain },
  };
}

export function fullGpuDevice(gpu: GpuIdentity): resourceV1.Device {
  return {
    name: `gpu-${gpu.index}`,
    attributes: { ...commonAttributes(gpu), addressingMode: { string: 'None' }, type: { string: 'gpu' }, uuid: { string: gpu.uuid } },
    capacity: { memory: { value: mib(gpu.model.memoryMiB) } },
  };
}

/** v25.12 naming: `gpu-<minor>-mig-<profile without dots, '+' as '-'>-<giProfileId>-<start>`. */
export function migDeviceName(gpuIndex: number, profile: MigProfile, placement: MigPlacement): string {
  return `gpu-${gpuIndex}-mig-${profile.name.replaceAll('.', '').replaceAll('+', '-')}-${profile.giProfileId}-${placement.start}`;
}

function engineCapacity(e: GpuEngines, memoryMiB: number): Capacity {
  return {
    multiprocessors: { value: String(e.multiprocessors) },
    copyEngines: { value: String(e.copyEngines) },
    decoders: { value: String(e.decoders) },
    encoders: { value: String(e.encoders) },
    jpegEngines: { value: String(e.jpegEngines) },
    ofaEngines: { value: String(e.ofaEngines) },
    memory: { value: mib(memoryMiB) },
  };
}

function migAttributes(gpu: GpuIdentity, profile: MigProfile, common = commonAttributes(gpu)): Attributes {
  return { ...common, type: { string: 'mig' }, profile: { string: profile.name }, parentUUID: { string: gpu.uuid } };
}

/** A pre-created (static) MIG instance: it has its own uuid; memory slices show as capacity. */
export function staticMigDevice(gpu: GpuIdentity, profile: MigProfile, placement: MigPlacement): resourceV1.Device {
  const name = migDeviceName(gpu.index, profile, placement);
  const capacity = engineCapacity(profile, profile.memoryMiB);
  for (let s = placement.start; s < placement.start + placement.size; s++) capacity[`memorySlice${s}`] = { value: '1' };
  return {
    name,
    attributes: { ...migAttributes(gpu, profile), uuid: { string: `MIG-${deterministicUuid(`${gpu.uuid}/${name}`)}` } },
    capacity,
  };
}

export const counterSetName = (gpuIndex: number): string => `gpu-${gpuIndex}-counter-set`;

function engineCounters(e: GpuEngines, memoryMiB: number, slices: MigPlacement, keepZero: boolean): Record<string, resourceV1.Counter> {
  const counters: Record<string, resourceV1.Counter> = {};
  const put = (k: string, v: number, unit = ''): void => {
    if (v > 0 || keepZero) counters[k] = { value: `${v}${unit}` };
  };
  put('multiprocessors', e.multiprocessors);
  put('copy-engines', e.copyEngines);
  put('decoders', e.decoders);
  put('encoders', e.encoders);
  put('jpeg-engines', e.jpegEngines);
  put('ofa-engines', e.ofaEngines);
  put('memory', memoryMiB, 'Mi');
  for (let s = slices.start; s < slices.start + slices.size; s++) counters[`memory-slice-${s}`] = { value: '1' };
  return counters;
}

/** The counter set of one GPU in dynamic-MIG mode: the 7g profile's engines and every memory slice. */
export function gpuCounterSet(gpu: GpuIdentity): resourceV1.CounterSet {
  const cap = migCapacity(gpu.model);
  return { name: counterSetName(gpu.index), counters: engineCounters(cap, cap.memoryMiB, { start: 0, size: gpu.model.memorySliceCount }, true) };
}

/** Dynamic MIG: the full GPU (consuming everything) followed by every placement of every profile. */
export function dynamicMigDevices(gpu: GpuIdentity): resourceV1.Device[] {
  const cap = migCapacity(gpu.model);
  const all = { start: 0, size: gpu.model.memorySliceCount };
  const full = fullGpuDevice(gpu);
  full.consumesCounters = [{ counterSet: counterSetName(gpu.index), counters: engineCounters(cap, cap.memoryMiB, all, false) }];
  const devices: resourceV1.Device[] = [full];
  const common = commonAttributes(gpu);
  for (const profile of gpu.model.migProfiles) {
    for (const placement of profile.placements) {
      devices.push({
        name: migDeviceName(gpu.index, profile, placement),
        attributes: migAttributes(gpu, profile, common),
        capacity: engineCapacity(profile, profile.memoryMiB),
        consumesCounters: [{ counterSet: counterSetName(gpu.index), counters: engineCounters(profile, profile.memoryMiB, placement, false) }],
      });
    }
  }
  return devices;
}
