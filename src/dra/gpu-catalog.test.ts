// GPU catalog: MIG profile tables and placements as NVIDIA documents them (spec §10).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findGpuModel, findMigProfile, gpuModels, migCapacity, placeStaticMig } from './gpu-catalog.ts';

const placements = (model: string, profile: string): string[] => {
  const m = findGpuModel(model);
  const p = m && findMigProfile(m, profile);
  return (p?.placements ?? []).map((x) => `${x.start}:${x.size}`);
};

test('placements (memory-slice start:size) per profile kind', () => {
  assert.deepEqual(placements('H100-80GB', '1g.10gb'), ['0:1', '1:1', '2:1', '3:1', '4:1', '5:1', '6:1']);
  assert.deepEqual(placements('H100-80GB', '1g.10gb+me'), ['0:1', '1:1', '2:1', '3:1', '4:1', '5:1', '6:1']);
  assert.deepEqual(placements('H100-80GB', '1g.20gb'), ['0:2', '2:2', '4:2', '6:2']);
  assert.deepEqual(placements('H100-80GB', '2g.20gb'), ['0:2', '2:2', '4:2']);
  assert.deepEqual(placements('H100-80GB', '3g.40gb'), ['0:4', '4:4']);
  assert.deepEqual(placements('H100-80GB', '4g.40gb'), ['0:4']);
  assert.deepEqual(placements('H100-80GB', '7g.80gb'), ['0:8']);
});

test('profile IDs, instance limits and the 1g.10gb gotcha', () => {
  const row = (model: string, profile: string): [number, number, number] | undefined => {
    const m = findGpuModel(model);
    const p = m && findMigProfile(m, profile);
    return p && [p.giProfileId, p.maxInstances, p.memorySlices];
  };
  assert.deepEqual(row('A100-40GB', '1g.10gb'), [15, 4, 2]);
  assert.deepEqual(row('A100-80GB', '1g.10gb'), [19, 7, 1]);
  assert.deepEqual(row('H100-80GB', '1g.10gb+me'), [20, 1, 1]);
  assert.deepEqual(row('H200-141GB', '3g.71gb'), [9, 2, 4]);
  assert.deepEqual(gpuModels().map((m) => [m.model, m.productName, m.architecture, m.cudaComputeCapability]), [
    ['A100-40GB', 'NVIDIA A100-SXM4-40GB', 'Ampere', '8.0.0'],
    ['A100-80GB', 'NVIDIA A100-SXM4-80GB', 'Ampere', '8.0.0'],
    ['H100-80GB', 'NVIDIA H100 80GB HBM3', 'Hopper', '9.0.0'],
    ['H200-141GB', 'NVIDIA H200', 'Hopper', '9.0.0'],
  ]);
  const h100 = findGpuModel('H100-80GB');
  assert.deepEqual(h100 && migCapacity(h100), { multiprocessors: 132, copyEngines: 8, decoders: 7, encoders: 0, jpegEngines: 7, ofaEngines: 1, memoryMiB: 81152 });
});

test('static layouts are placed deterministically or rejected', () => {
  const m = findGpuModel('A100-40GB');
  assert.ok(m);
  const placed = placeStaticMig(m, ['1g.5gb', '1g.5gb', '2g.10gb', '3g.20gb']);
  assert.deepEqual(typeof placed === 'string' ? placed : placed.map((p) => `${p.profile.name}@${p.placement.start}`), ['1g.5gb@0', '1g.5gb@1', '2g.10gb@2', '3g.20gb@4']);
  assert.equal(placeStaticMig(m, ['4g.20gb', '4g.20gb']), 'MIG profile 4g.20gb allows at most 1 instance(s) per GPU');
  assert.equal(placeStaticMig(m, ['4g.20gb', '3g.20gb', '1g.5gb']), 'MIG layout [4g.20gb, 3g.20gb, 1g.5gb] does not fit on one A100-40GB');
});
