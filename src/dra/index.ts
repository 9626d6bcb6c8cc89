// Public surface of dra/: the structured allocator, the CEL environment of device selectors, the
// GPU catalog and the simulated NVIDIA driver (ResourceSlices, DeviceClasses, device plugin).
//
// Scheduler plugin (DynamicResources Filter), per pod and node:
//   const inventory = buildInventory(slices);            // once per slice change, shared by nodes
//   const allocated = allocatedDeviceIds(allClaims);     // + devices of assumed (in-flight) claims
//   const outcome = allocateClaims({ claims, node, inventory, getClass, allocated });
//   switch (outcome.type) {
//     case 'allocated': ...outcome.results[i] is claims[i]'s status.allocation
//     case 'unschedulable': ...Filter status UnschedulableAndUnresolvable(outcome.reason)
//     case 'error': ...a scheduler error with outcome.message
//   }
export { allocateClaims, AllocatorReason, defaultAllocatorFeatures, searchClaims } from './allocator.ts';
export type { AllocateInput, AllocationOutcome, AllocatorFeatures } from './allocator.ts';
export { buildInventory, deviceId } from './inventory.ts';
export type { DeviceId, DeviceInventory, PoolView } from './inventory.ts';
export { allocatedDeviceIds, resultDeviceIds } from './allocated.ts';
export type { AllocatorNode } from './node-selector.ts';
export { nodeSelectorMatches } from './node-selector.ts';
// The CEL environment lives in api/ (validation compiles selectors at create time, as upstream).
export { compileDeviceSelector, evaluate, toCelDevice } from '../api/index.ts';
export type { CompileResult, DeviceSelectorProgram, EvalResult, CelDevice } from '../api/index.ts';
export { gpuModels, findGpuModel, findMigProfile, placeStaticMig } from './gpu-catalog.ts';
export type { GpuModel, MigProfile, MigPlacement } from './gpu-catalog.ts';
export { nvidiaResourceSlices, nvidiaDeviceClasses } from './driver/nvidia-slices.ts';
export type { NvidiaGpuConfig } from './driver/nvidia-slices.ts';
export { nvidiaDriverName, nvlinkDomainAttribute } from './driver/nvidia-devices.ts';
export { pluginCapacity, gpuResourceName } from './driver/device-plugin.ts';
export { startNvidiaDriver } from './driver/nvidia-driver.ts';
export type { NvidiaDriverOptions, NvidiaDriverNode, RunningNvidiaDriver } from './driver/nvidia-driver.ts';
