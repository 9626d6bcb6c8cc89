// The simulated NVIDIA driver's slices per GPU model and MIG mode: layout, device names and
// counts, counters, attributes, and that the API server accepts every slice and class.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions } from '../../api/index.ts';
import type { ResourceDefinition, resourceV1 } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { formatFieldError } from '../../core/index.ts';
import { gpuModels } from '../gpu-catalog.ts';
import { pluginCapacity } from './device-plugin.ts';
import { nvidiaDeviceClasses, nvidiaResourceSlices } from './nvidia-slices.ts';
import type { NvidiaGpuConfig } from './nvidia-slices.ts';

function definition(kind: string): ResourceDefinition {
  const d = builtinDefinitions().find((x) => x.kind === kind && x.group === 'resource.k8s.io');
  if (!d) throw new Error(`no ${kind}`);
  return d;
}

function validationErrors(kind: string, obj: KubeObject): string[] {
  const def = definition(kind);
  const copy = structuredClone(obj);
  def.defaults?.(copy);
  return (def.validateCreate?.(copy, { now: 0 }) ?? []).map((e) => formatFieldError(e, { withField: true }));
}

const devicesOf = (slices: resourceV1.ResourceSlice[]): resourceV1.Device[] => slices.flatMap((s) => s.spec.devices ?? []);

test('every model and MIG mode yields slices the API server accepts', () => {
  for (const model of gpuModels()) {
    const modes: NvidiaGpuConfig['mig'][] = ['none', 'dynamic', [model.migProfiles[0]?.name ?? '']];
    for (const mig of modes) {
      for (const slice of nvidiaResourceSlices('node-a', { model: model.model, count: 8, mig })) {
        assert.deepEqual(validationErrors('ResourceSlice', slice), [], `${model.model} ${JSON.stringify(mig)} ${slice.metadata.name}`);
      }
    }
  }
  for (const cls of nvidiaDeviceClasses()) assert.deepEqual(validationErrors('DeviceClass', cls), []);
});

test('full GPUs: one slice, gpu-N devices with upstream attribute names', () => {
  const slices = nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 8, mig: 'none', nvlinkDomainSize: 4 });
  assert.equal(slices.length, 1);
  const [slice] = slices;
  assert.deepEqual(slice?.spec.pool, { name: 'node-a', generation: 1, resourceSliceCount: 1 });
  assert.equal(slice?.spec.nodeName, 'node-a');
  assert.equal(slice?.spec.driver, 'gpu.nvidia.com');
  const devices = devicesOf(slices);
  assert.deepEqual(devices.map((d) => d.name), ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
  const gpu0 = devices[0];
  assert.deepEqual(Object.keys(gpu0?.attributes ?? {}).sort(), [
    'addressingMode',
    'architecture',
    'brand',
    'cudaComputeCapability',
    'cudaDriverVersion',
    'driverVersion',
    'productName',
    'resource.kubernetes.io/pciBusID',
    'resource.kubernetes.io/pcieRoot',
    'sim.drydock.dev/nvlinkDomain',
    'type',
    'uuid',
  ]);
  assert.deepEqual(gpu0?.attributes?.productName, { string: 'NVIDIA H100 80GB HBM3' });
  assert.deepEqual(gpu0?.attributes?.cudaComputeCapability, { version: '9.0.0' });
  assert.deepEqual(gpu0?.capacity, { memory: { value: '81559Mi' } });
  assert.match(gpu0?.attributes?.uuid?.string ?? '', /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.deepEqual(devices.map((d) => d.attributes?.['sim.drydock.dev/nvlinkDomain']?.int), [0, 0, 0, 0, 1, 1, 1, 1]);
  // Deterministic: the same node publishes the same uuids after a restart; other nodes differ.
  assert.deepEqual(nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 8, mig: 'none' })[0]?.spec.devices?.[0]?.attributes?.uuid, gpu0?.attributes?.uuid);
  assert.notDeepEqual(nvidiaResourceSlices('node-b', { model: 'H100-80GB', count: 8, mig: 'none' })[0]?.spec.devices?.[0]?.attributes?.uuid, gpu0?.attributes?.uuid);
});

test('dynamic MIG: counter slice first, one device slice per GPU, every placement of every profile', () => {
  const slices = nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 8, mig: 'dynamic' });
  assert.equal(slices.length, 9);
  assert.ok(slices.every((s) => s.spec.pool.resourceSliceCount === 9));
  const names = slices.map((s) => s.metadata.name ?? '');
  assert.deepEqual([...names].sort(), names, 'slice names sort in publishing order');
  const [counters, gpu0] = slices;
  assert.equal(counters?.spec.devices, undefined);
  assert.deepEqual(counters?.spec.sharedCounters?.map((c) => c.name), [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `gpu-${i}-counter-set`));
  const set = counters?.spec.sharedCounters?.[0]?.counters ?? {};
  assert.deepEqual(set, {
    multiprocessors: { value: '132' },
    'copy-engines': { value: '8' },
    decoders: { value: '7' },
    encoders: { value: '0' },
    'jpeg-engines': { value: '7' },
    'ofa-engines': { value: '1' },
    memory: { value: '81152Mi' },
    ...Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((s) => [`memory-slice-${s}`, { value: '1' }])),
  });
  const devices = gpu0?.spec.devices ?? [];
  // 1 full GPU + 7 (1g) + 7 (1g+me) + 4 (1g.20gb) + 3 (2g) + 2 (3g) + 1 (4g) + 1 (7g).
  assert.equal(devices.length, 26);
  assert.equal(devices[0]?.name, 'gpu-0');
  assert.deepEqual(devices[0]?.consumesCounters?.[0]?.counters?.['memory-slice-7'], { value: '1' });
  const threeG = devices.find((d) => d.name === 'gpu-0-mig-3g40gb-9-4');
  assert.deepEqual(threeG?.consumesCounters, [
    {
      counterSet: 'gpu-0-counter-set',
      counters: {
        multiprocessors: { value: '60' },
        'copy-engines': { value: '3' },
        decoders: { value: '3' },
        'jpeg-engines': { value: '3' },
        memory: { value: '40448Mi' },
        'memory-slice-4': { value: '1' },
        'memory-slice-5': { value: '1' },
        'memory-slice-6': { value: '1' },
        'memory-slice-7': { value: '1' },
      },
    },
  ]);
  assert.deepEqual(threeG?.attributes?.type, { string: 'mig' });
  assert.deepEqual(threeG?.attributes?.profile, { string: '3g.40gb' });
  assert.deepEqual(threeG?.attributes?.parentUUID, devices[0]?.attributes?.uuid);
  assert.equal(threeG?.attributes?.uuid, undefined, 'dynamic MIG devices get a uuid only when created');
  assert.ok(devices.some((d) => d.name === 'gpu-0-mig-1g10gb-me-20-6'));
});

test('more than 8 GPUs need a second counter slice', () => {
  const slices = nvidiaResourceSlices('node-a', { model: 'A100-80GB', count: 10, mig: 'dynamic' });
  assert.deepEqual(slices.map((s) => (s.spec.sharedCounters ?? []).length), [8, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
});

test('static MIG: named instances with their own uuid and memory-slice capacity', () => {
  const slices = nvidiaResourceSlices('node-a', { model: 'A100-40GB', count: 2, mig: ['3g.20gb', '2g.10gb', '1g.5gb', '1g.5gb'] });
  assert.equal(slices.length, 1);
  const devices = devicesOf(slices);
  assert.equal(devices.length, 8);
  assert.deepEqual(devices.filter((d) => d.name.startsWith('gpu-0-')).map((d) => d.name), ['gpu-0-mig-1g5gb-19-2', 'gpu-0-mig-1g5gb-19-3', 'gpu-0-mig-2g10gb-14-0', 'gpu-0-mig-3g20gb-9-4']);
  const threeG = devices.find((d) => d.name === 'gpu-0-mig-3g20gb-9-4');
  assert.match(threeG?.attributes?.uuid?.string ?? '', /^MIG-/);
  assert.deepEqual(Object.keys(threeG?.capacity ?? {}).filter((k) => k.startsWith('memorySlice')), ['memorySlice4', 'memorySlice5', 'memorySlice6', 'memorySlice7']);
  assert.throws(() => nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 1, mig: ['4g.40gb', '4g.40gb'] }), /at most 1 instance/);
  assert.throws(() => nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 1, mig: ['1g.5gb'] }), /has no MIG profile "1g.5gb"/);
  assert.throws(() => nvidiaResourceSlices('node-a', { model: 'B300', count: 1, mig: 'none' }), /unknown GPU model "B300"/);
});

test('device classes as the chart installs them', () => {
  assert.deepEqual(
    nvidiaDeviceClasses().map((c) => [c.metadata.name, c.spec.selectors?.[0]?.cel?.expression, c.spec.extendedResourceName]),
    [
      ['gpu.nvidia.com', "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'", 'nvidia.com/gpu'],
      ['mig.nvidia.com', "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'", undefined],
    ],
  );
});

test('device-plugin capacity per MIG strategy', () => {
  const cases: [NvidiaGpuConfig, Record<string, string>][] = [
    [{ model: 'H100-80GB', count: 8, mig: 'none' }, { 'nvidia.com/gpu': '8' }],
    [{ model: 'H100-80GB', count: 8, mig: 'dynamic', migStrategy: 'mixed' }, { 'nvidia.com/gpu': '8' }],
    [{ model: 'A100-40GB', count: 2, mig: Array(7).fill('1g.5gb'), migStrategy: 'single' }, { 'nvidia.com/gpu': '14' }],
    [{ model: 'A100-40GB', count: 1, mig: ['1g.5gb', '1g.5gb', '2g.10gb', '3g.20gb'], migStrategy: 'mixed' }, { 'nvidia.com/mig-1g.5gb': '2', 'nvidia.com/mig-2g.10gb': '1', 'nvidia.com/mig-3g.20gb': '1' }],
    [{ model: 'H100-80GB', count: 4, mig: ['1g.10gb', '1g.10gb', '2g.20gb', '3g.40gb'], migStrategy: 'mixed' }, { 'nvidia.com/mig-1g.10gb': '8', 'nvidia.com/mig-2g.20gb': '4', 'nvidia.com/mig-3g.40gb': '4' }],
  ];
  for (const [gpus, want] of cases) assert.deepEqual(pluginCapacity(gpus), want, JSON.stringify(gpus));
});
