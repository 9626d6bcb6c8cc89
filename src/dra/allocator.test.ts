// Allocator scenarios of shared/spec/dra.md §11 on slices from the simulated NVIDIA driver.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { resourceV1 } from '../api/index.ts';
import { allocateClaims, AllocatorReason, defaultAllocatorFeatures } from './allocator.ts';
import type { AllocationOutcome } from './allocator.ts';
import { allocatedDeviceIds, resultDeviceIds } from './allocated.ts';
import { buildInventory } from './inventory.ts';
import type { DeviceId } from './inventory.ts';
import { nvidiaDeviceClasses, nvidiaResourceSlices } from './driver/nvidia-slices.ts';
import type { NvidiaGpuConfig } from './driver/nvidia-slices.ts';

type Request = resourceV1.DeviceRequest;
type Slice = resourceV1.ResourceSlice;

const profileClass = (name: string, profile: string): resourceV1.DeviceClass => ({
  metadata: { name },
  spec: { selectors: [{ cel: { expression: `device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig' && device.attributes['gpu.nvidia.com'].profile == '${profile}'` } }] },
});
const classes = new Map<string, resourceV1.DeviceClass>(
  [...nvidiaDeviceClasses(), profileClass('mig-1g-10gb', '1g.10gb'), profileClass('mig-2g-20gb', '2g.20gb'), profileClass('mig-3g-40gb', '3g.40gb'), profileClass('mig-4g-40gb', '4g.40gb')].map((c) => [c.metadata.name ?? '', c]),
);

let claimCounter = 0;
function claim(requests: Request[], extra: Omit<resourceV1.DeviceClaim, 'requests'> = {}): resourceV1.ResourceClaim {
  return { metadata: { namespace: 'default', name: `c${claimCounter++}`, uid: `uid-${claimCounter}` }, spec: { devices: { requests, ...extra } } };
}
const exactly = (name: string, deviceClassName: string, more: Partial<resourceV1.ExactDeviceRequest> = {}): Request => ({ name, exactly: { deviceClassName, ...more } });
const cel = (expression: string): resourceV1.DeviceSelector => ({ cel: { expression } });

const h100 = (count: number, mig: NvidiaGpuConfig['mig'], nvlinkDomainSize?: number): NvidiaGpuConfig => ({ model: 'H100-80GB', count, mig, ...(nvlinkDomainSize ? { nvlinkDomainSize } : {}) });
const nodeA = { metadata: { name: 'node-a' } };

/** Allocates claims one after another on node-a, as consecutive pods would; returns the outcomes. */
function run(slices: Slice[], claims: resourceV1.ResourceClaim[], allocated = new Set<DeviceId>(), features = defaultAllocatorFeatures): AllocationOutcome[] {
  const inventory = buildInventory(slices, features);
  return claims.map((c) => {
    const outcome = allocateClaims({ claims: [c], node: nodeA, inventory, getClass: (n) => classes.get(n), allocated, features });
    if (outcome.type === 'allocated') for (const id of resultDeviceIds(outcome.results[0])) allocated.add(id);
    return outcome;
  });
}

/** Per outcome: the allocated device names, or the reason / error. */
function summary(outcomes: AllocationOutcome[]): (string[] | string)[] {
  return outcomes.map((o) => {
    switch (o.type) {
      case 'allocated':
        return (o.results[0]?.devices?.results ?? []).map((r) => r.device);
      case 'unschedulable':
        return o.reason;
      case 'error':
        return `error: ${o.message}`;
    }
  });
}

const mig = (cls: string): resourceV1.ResourceClaim => claim([exactly('gpu', cls)]);
const fullGpu = (): resourceV1.ResourceClaim => claim([exactly('gpu', 'gpu.nvidia.com')]);
const none = AllocatorReason.CannotAllocate;

test('dynamic MIG on one H100: seven 1g.10gb fit, the eighth does not', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(1, 'dynamic')), Array.from({ length: 8 }, () => mig('mig-1g-10gb'))));
  assert.deepEqual(out, [...[0, 1, 2, 3, 4, 5, 6].map((s) => [`gpu-0-mig-1g10gb-19-${s}`]), none]);
});

test('dynamic MIG on one H100: 4g.40gb plus 3g.40gb fit, a second 4g.40gb does not', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(1, 'dynamic')), [mig('mig-4g-40gb'), mig('mig-3g-40gb'), mig('mig-4g-40gb')]));
  assert.deepEqual(out, [['gpu-0-mig-4g40gb-5-0'], ['gpu-0-mig-3g40gb-9-4'], none]);
});

test('dynamic MIG: a full-GPU claim excludes every MIG device of that GPU, and MIG excludes the full GPU', () => {
  const slices = nvidiaResourceSlices('node-a', h100(1, 'dynamic'));
  assert.deepEqual(summary(run(slices, [fullGpu(), mig('mig-1g-10gb')])), [['gpu-0'], none]);
  assert.deepEqual(summary(run(slices, [mig('mig-1g-10gb'), fullGpu()])), [['gpu-0-mig-1g10gb-19-0'], none]);
});

test('scenario 23: two 3g.40gb take both halves; then neither a full GPU nor a 1g.10gb fits', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(1, 'dynamic')), [mig('mig-3g-40gb'), mig('mig-3g-40gb'), fullGpu(), mig('mig-1g-10gb')]));
  assert.deepEqual(out, [['gpu-0-mig-3g40gb-9-0'], ['gpu-0-mig-3g40gb-9-4'], none, none]);
});

test('scenario 24: 4g.40gb, 2g.20gb, 1g.10gb fill slices 0-6; slice 7 is no 1g placement', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(1, 'dynamic')), [mig('mig-4g-40gb'), mig('mig-2g-20gb'), mig('mig-1g-10gb'), mig('mig-1g-10gb')]));
  assert.deepEqual(out, [['gpu-0-mig-4g40gb-5-0'], ['gpu-0-mig-2g20gb-14-4'], ['gpu-0-mig-1g10gb-19-6'], none]);
});

test('dynamic MIG spills over to the next GPU when one is full', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(2, 'dynamic')), [fullGpu(), mig('mig-3g-40gb')]));
  assert.deepEqual(out, [['gpu-0'], ['gpu-1-mig-3g40gb-9-0']]);
});

test('matchAttribute on the NVLink domain: two GPUs land in one domain, backtracking past a split pair', () => {
  const pair = (): resourceV1.ResourceClaim => claim([exactly('gpu', 'gpu.nvidia.com', { count: 2 })], { constraints: [{ matchAttribute: 'sim.drydock.dev/nvlinkDomain' }] });
  const slices = nvidiaResourceSlices('node-a', h100(4, 'none', 2));
  // gpu-0 is taken, so gpu-1 (domain 0) has no partner and the search moves on to gpu-2 + gpu-3.
  assert.deepEqual(summary(run(slices, [pair()], new Set(['gpu.nvidia.com/node-a/gpu-0']))), [['gpu-2', 'gpu-3']]);
  // One GPU per domain: no pair exists.
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(4, 'none', 1)), [pair()])), [none]);
});

test('scenario 25: two 1g.10gb with matchAttribute parentUUID need one GPU with two free placements', () => {
  const two = (): resourceV1.ResourceClaim => claim([exactly('m1', 'mig-1g-10gb'), exactly('m2', 'mig-1g-10gb')], { constraints: [{ matchAttribute: 'gpu.nvidia.com/parentUUID' }] });
  const slices = nvidiaResourceSlices('node-a', h100(2, 'dynamic'));
  // Leave exactly one free 1g placement on each GPU: 4g@0 + 2g@4 uses slices 0-5 of each.
  const fill = [mig('mig-4g-40gb'), mig('mig-2g-20gb'), mig('mig-4g-40gb'), mig('mig-2g-20gb')];
  const out = summary(run(slices, [...fill, two()]));
  assert.deepEqual(out.slice(4), [none]);
  assert.deepEqual(summary(run(slices, [two()])), [['gpu-0-mig-1g10gb-19-0', 'gpu-0-mig-1g10gb-19-1']]);
});

test('firstAvailable falls back to the second subrequest and names it req/sub', () => {
  const c = claim([
    {
      name: 'gpu',
      firstAvailable: [
        { name: 'h100', deviceClassName: 'gpu.nvidia.com', selectors: [cel("device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'")] },
        { name: 'a100', deviceClassName: 'gpu.nvidia.com' },
      ],
    },
  ]);
  const [outcome] = run(nvidiaResourceSlices('node-a', { model: 'A100-40GB', count: 1, mig: 'none' }), [c]);
  assert.equal(outcome?.type, 'allocated');
  assert.deepEqual(outcome?.type === 'allocated' ? outcome.results[0]?.devices?.results : undefined, [{ request: 'gpu/a100', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-0' }]);
});

function taintGpu0(slices: Slice[], effect: resourceV1.DeviceTaintEffect): Slice[] {
  const [s] = slices;
  const d = s?.spec.devices?.[0];
  if (d) d.taints = [{ key: 'maintenance', effect }];
  return slices;
}

test('device taints: NoSchedule and NoExecute keep plain claims off; a toleration admits and is copied', () => {
  const cases: [resourceV1.DeviceTaintEffect, resourceV1.DeviceToleration[] | undefined, string][] = [
    ['NoSchedule', undefined, 'gpu-1'],
    ['NoExecute', undefined, 'gpu-1'],
    ['None', undefined, 'gpu-0'],
    ['NoSchedule', [{ key: 'maintenance', operator: 'Exists' }], 'gpu-0'],
    ['NoSchedule', [{ key: 'maintenance', operator: 'Equal', value: 'x' }], 'gpu-1'],
    ['NoSchedule', [{ operator: 'Exists', effect: 'NoExecute' }], 'gpu-1'],
    ['NoSchedule', [{ operator: 'Exists' }], 'gpu-0'],
  ];
  for (const [effect, tolerations, want] of cases) {
    const slices = taintGpu0(nvidiaResourceSlices('node-a', h100(2, 'none')), effect);
    const [o] = run(slices, [claim([exactly('gpu', 'gpu.nvidia.com', tolerations ? { tolerations } : {})])]);
    const result = o?.type === 'allocated' ? o.results[0]?.devices?.results?.[0] : undefined;
    assert.equal(result?.device, want, `${effect} ${JSON.stringify(tolerations)}`);
    assert.deepEqual(result?.tolerations, tolerations);
  }
});

test('each DRA feature gate off: subrequests and admin access are errors, counter-consuming devices unusable, taints ignored', () => {
  const off = (gate: keyof typeof defaultAllocatorFeatures) => ({ ...defaultAllocatorFeatures, [gate]: false });
  const prioritized = claim([{ name: 'gpu', firstAvailable: [{ name: 'any', deviceClassName: 'gpu.nvidia.com' }] }]);
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(1, 'none')), [prioritized], new Set(), off('prioritizedList'))), [
    `error: claim default/${prioritized.metadata.name}, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled`,
  ]);
  const admin = claim([exactly('gpu', 'gpu.nvidia.com', { adminAccess: true })]);
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(1, 'none')), [admin], new Set(), off('adminAccess'))), [
    `error: claim default/${admin.metadata.name}, request gpu: admin access is requested, but the feature is disabled`,
  ]);
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(1, 'dynamic')), [mig('mig-1g-10gb'), fullGpu()], new Set(), off('partitionableDevices'))), [none, none]);
  assert.deepEqual(summary(run(taintGpu0(nvidiaResourceSlices('node-a', h100(2, 'none')), 'NoSchedule'), [fullGpu()], new Set(), off('deviceTaints'))), [['gpu-0']]);
});

test('more than 32 devices in one claim is an error', () => {
  const out = summary(run(nvidiaResourceSlices('node-a', h100(8, 'none')), [claim([exactly('a', 'gpu.nvidia.com', { count: 30 }), exactly('b', 'gpu.nvidia.com', { count: 3 })])]));
  assert.deepEqual(out, [`error: claim default/c${claimCounter - 1}: number of requested devices 33 exceeds the claim limit of 32`]);
});

test('count beyond the node, unknown class and CEL runtime errors', () => {
  const slices = nvidiaResourceSlices('node-a', h100(2, 'none'));
  const [tooMany] = summary(run(slices, [claim([exactly('gpu', 'gpu.nvidia.com', { count: 3 })])]));
  assert.equal(tooMany, none);
  const missing = claim([exactly('gpu', 'gpu.example.com')]);
  assert.deepEqual(summary(run(slices, [missing])), [
    `error: claim default/${missing.metadata.name}, request gpu: could not retrieve device class gpu.example.com: deviceclass.resource.k8s.io "gpu.example.com" not found`,
  ]);
  const bad = claim([exactly('gpu', 'gpu.nvidia.com', { selectors: [cel("device.attributes['gpu.nvidia.com'].foo == 'x'")] })]);
  assert.deepEqual(summary(run(slices, [bad])), [`error: claim default/${bad.metadata.name}: selector #0: CEL runtime error: no such key: foo`]);
  const guarded = claim([exactly('gpu', 'gpu.nvidia.com', { selectors: [cel("'foo' in device.attributes['gpu.nvidia.com']")] })]);
  assert.deepEqual(summary(run(slices, [guarded])), [none]);
});

test('capacity selector picks the GPU with enough memory (scenario 13)', () => {
  const slices = [...nvidiaResourceSlices('node-a', { model: 'A100-40GB', count: 1, mig: 'none' })];
  const big = nvidiaResourceSlices('node-a', { model: 'A100-80GB', count: 2, mig: 'none' })[0]?.spec.devices?.[1];
  if (big) slices[0]?.spec.devices?.push(big);
  const c = claim([exactly('gpu', 'gpu.nvidia.com', { selectors: [cel("device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('64Gi')) >= 0")] })]);
  assert.deepEqual(summary(run(slices, [c])), [['gpu-1']]);
});

function customSlice(devices: resourceV1.Device[], pool: Partial<resourceV1.ResourcePool> = {}, name = 'node-a-slice'): Slice {
  return { metadata: { name }, spec: { driver: 'gpu.nvidia.com', nodeName: 'node-a', pool: { name: 'node-a', generation: 1, resourceSliceCount: 1, ...pool }, devices } };
}
const gpu = (name: string, productName: string): resourceV1.Device => ({ name, attributes: { type: { string: 'gpu' }, productName: { string: productName } } });

test('scenario 15: matchAttribute across requests backtracks to two equal products', () => {
  const slices = [customSlice([gpu('gpu-0', 'NVIDIA A100-SXM4-40GB'), gpu('gpu-1', 'NVIDIA H100 80GB HBM3'), gpu('gpu-2', 'NVIDIA H100 80GB HBM3')])];
  const c = claim([exactly('a', 'gpu.nvidia.com'), exactly('b', 'gpu.nvidia.com')], { constraints: [{ matchAttribute: 'gpu.nvidia.com/productName' }] });
  const [o] = run(slices, [c]);
  assert.deepEqual(o?.type === 'allocated' ? o.results[0]?.devices?.results?.map((r) => `${r.request}=${r.device}`) : o, ['a=gpu-1', 'b=gpu-2']);
});

test('allocationMode All: every matching device, or an error while the pool is being updated', () => {
  const all = (): resourceV1.ResourceClaim => claim([exactly('gpu', 'gpu.nvidia.com', { allocationMode: 'All' })]);
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(4, 'none')), [all()])), [['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']]);
  assert.deepEqual(summary(run(nvidiaResourceSlices('node-a', h100(4, 'none')), [all()], new Set(['gpu.nvidia.com/node-a/gpu-1']))), [none]);
  const c = all();
  const incomplete = [customSlice([gpu('gpu-0', 'x')], { resourceSliceCount: 2 })];
  assert.deepEqual(summary(run(incomplete, [c])), [`error: claim default/${c.metadata.name}, request gpu: asks for all devices, but resource pool gpu.nvidia.com/node-a is currently being updated`]);
  // ExactCount requests skip the incomplete pool instead.
  assert.deepEqual(summary(run(incomplete, [fullGpu()])), [none]);
});

test('only the newest pool generation counts; duplicate device names make the pool invalid', () => {
  const old = customSlice([gpu('gpu-0', 'x'), gpu('gpu-1', 'x')], { generation: 1 }, 'a-old');
  const fresh = customSlice([gpu('gpu-7', 'x')], { generation: 2 }, 'b-new');
  assert.deepEqual(summary(run([old, fresh], [fullGpu()])), [['gpu-7']]);
  const dup = customSlice([gpu('gpu-0', 'x'), gpu('gpu-0', 'x')]);
  assert.deepEqual(summary(run([dup], [fullGpu()])), [AllocatorReason.InvalidPools]);
});

test('adminAccess may use an allocated device and is marked in the result', () => {
  const slices = nvidiaResourceSlices('node-a', h100(1, 'none'));
  const [o] = run(slices, [claim([exactly('gpu', 'gpu.nvidia.com', { adminAccess: true })])], new Set(['gpu.nvidia.com/node-a/gpu-0']));
  assert.deepEqual(o?.type === 'allocated' ? o.results[0]?.devices?.results : o, [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-0', adminAccess: true }]);
  assert.deepEqual(o?.type === 'allocated' ? allocatedDeviceIds([{ metadata: {}, spec: {}, status: { allocation: o.results[0] ?? {} } }]) : undefined, new Set());
});

test('results carry the node selector and the class and claim configs', () => {
  const cls: resourceV1.DeviceClass = { metadata: { name: 'configured' }, spec: { selectors: [cel("device.attributes['gpu.nvidia.com'].type == 'gpu'")], config: [{ opaque: { driver: 'gpu.nvidia.com', parameters: { sharing: 'TimeSlicing' } } }] } };
  classes.set('configured', cls);
  const c = claim([exactly('a', 'configured'), exactly('b', 'gpu.nvidia.com')], {
    config: [
      { requests: ['b'], opaque: { driver: 'gpu.nvidia.com', parameters: { mps: true } } },
      { opaque: { driver: 'gpu.nvidia.com', parameters: { all: true } } },
    ],
  });
  const [o] = run(nvidiaResourceSlices('node-a', h100(2, 'none')), [c]);
  assert.deepEqual(o?.type === 'allocated' ? o.results[0] : o, {
    devices: {
      results: [
        { request: 'a', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-0' },
        { request: 'b', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-1' },
      ],
      config: [
        { source: 'FromClass', requests: ['a'], opaque: { driver: 'gpu.nvidia.com', parameters: { sharing: 'TimeSlicing' } } },
        { source: 'FromClaim', requests: ['b'], opaque: { driver: 'gpu.nvidia.com', parameters: { mps: true } } },
        { source: 'FromClaim', opaque: { driver: 'gpu.nvidia.com', parameters: { all: true } } },
      ],
    },
    nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }] },
  });
});

test('static MIG on A100-40GB (scenario 22): three 1g.5gb in order, then exhaustion', () => {
  const slices = nvidiaResourceSlices('node-a', { model: 'A100-40GB', count: 1, mig: Array(7).fill('1g.5gb') });
  classes.set('mig-1g-5gb', profileClass('mig-1g-5gb', '1g.5gb'));
  const three = claim([exactly('gpu', 'mig-1g-5gb', { count: 3 })]);
  const out = summary(run(slices, [three, claim([exactly('gpu', 'mig-1g-5gb', { count: 4 })]), mig('mig-1g-5gb')]));
  assert.deepEqual(out, [['gpu-0-mig-1g5gb-19-0', 'gpu-0-mig-1g5gb-19-1', 'gpu-0-mig-1g5gb-19-2'], ['gpu-0-mig-1g5gb-19-3', 'gpu-0-mig-1g5gb-19-4', 'gpu-0-mig-1g5gb-19-5', 'gpu-0-mig-1g5gb-19-6'], none]);
});

test('several claims of one pod are allocated together, or not at all', () => {
  const inventory = buildInventory(nvidiaResourceSlices('node-a', h100(1, 'dynamic')));
  const allocate = (claims: resourceV1.ResourceClaim[]): AllocationOutcome => allocateClaims({ claims, node: nodeA, inventory, getClass: (n) => classes.get(n), allocated: new Set(), features: defaultAllocatorFeatures });
  const ok = allocate([mig('mig-4g-40gb'), mig('mig-2g-20gb'), mig('mig-1g-10gb')]);
  assert.deepEqual(ok.type === 'allocated' ? ok.results.map((r) => r.devices?.results?.[0]?.device) : ok, ['gpu-0-mig-4g40gb-5-0', 'gpu-0-mig-2g20gb-14-4', 'gpu-0-mig-1g10gb-19-6']);
  assert.deepEqual(allocate([mig('mig-4g-40gb'), mig('mig-3g-40gb'), mig('mig-1g-10gb')]), { type: 'unschedulable', reason: none });
});

/** One claim for `count` MIG devices of one GPU: one request for all of them, or one request each. */
function sameGpu(count: number, shape: 'one request' | 'a request each'): resourceV1.ResourceClaim {
  const requests = shape === 'one request' ? [exactly('slices', 'mig.nvidia.com', { count })] : Array.from({ length: count }, (_, i) => exactly(`slice-${i}`, 'mig.nvidia.com'));
  return claim(requests, { constraints: [{ matchAttribute: 'gpu.nvidia.com/parentUUID' }] });
}

/** The search on eight dynamic-MIG H100s (208 devices), and how many times it asked the clock: once per 16 devices tried. */
function searchEightH100s(c: resourceV1.ResourceClaim, timedOutAfter = Infinity): { outcome: AllocationOutcome; asked: number } {
  const inventory = buildInventory(nvidiaResourceSlices('node-a', h100(8, 'dynamic')), defaultAllocatorFeatures);
  let asked = 0;
  const outcome = allocateClaims({ claims: [c], node: nodeA, inventory, getClass: (n) => classes.get(n), allocated: new Set(), features: defaultAllocatorFeatures, timedOut: () => ++asked > timedOutAfter });
  return { outcome, asked };
}

test('sixteen or eight MIG slices of one GPU are "cannot allocate all claims" after a few hundred devices tried, not a search through their combinations', () => {
  // An H100 holds seven MIG slices at most. Upstream's incubating allocator tries each set of
  // devices once (not each order), and found no set after 1.8 million devices tried here: more
  // than the filterTimeout on this thread. Counting what could still fit ends it at the first slice.
  for (const count of [16, 8]) {
    const { outcome, asked } = searchEightH100s(sameGpu(count, 'one request'));
    assert.deepEqual(outcome, { type: 'unschedulable', reason: none });
    assert.ok(asked <= 20, `${count} slices: ${asked * 16} devices tried`);
  }
  // Seven do fit, in device order: the first set the search over every order would find.
  const { outcome, asked } = searchEightH100s(sameGpu(7, 'one request'));
  assert.deepEqual(summary([outcome]), [[0, 1, 2, 3, 4, 5, 6].map((s) => `gpu-0-mig-1g10gb-19-${s}`)]);
  assert.equal(asked, 0);
});

test('a search past its time ends as upstream\'s deadline does; without a limit the same search still finds its answer', () => {
  // A request each is tried in every order, as upstream's allocator tries them: no end in sight.
  const { outcome, asked } = searchEightH100s(sameGpu(16, 'a request each'), 3);
  assert.deepEqual(outcome, { type: 'unschedulable', reason: AllocatorReason.TimedOut });
  assert.equal(asked, 4);
  // A search that ends in time is not cut short, and asks the clock only every few devices.
  const two = claim([exactly('m1', 'mig-1g-10gb'), exactly('m2', 'mig-1g-10gb')], { constraints: [{ matchAttribute: 'gpu.nvidia.com/parentUUID' }] });
  const found = searchEightH100s(two, 1000);
  assert.deepEqual(summary([found.outcome]), [['gpu-0-mig-1g10gb-19-0', 'gpu-0-mig-1g10gb-19-1']]);
  assert.ok(found.asked < 5, `asked ${found.asked} times`);
});

test('more GPUs than the node can give is "cannot allocate all claims" at once, not a search through every order until the deadline', () => {
  const slices = nvidiaResourceSlices('node-a', h100(8, 'dynamic'));
  const inventory = buildInventory(slices, defaultAllocatorFeatures);
  let asked = 0;
  const input = { node: nodeA, inventory, getClass: (n: string) => classes.get(n), features: defaultAllocatorFeatures, timedOut: () => ++asked > 3 };
  const nine = claim([exactly('gpu', 'gpu.nvidia.com', { count: 9 })]);
  assert.deepEqual(allocateClaims({ ...input, claims: [nine], allocated: new Set<DeviceId>() }), { type: 'unschedulable', reason: none });
  // One MIG slice in use leaves its GPU's counters short: seven whole GPUs, so eight cannot be.
  const [slice] = run(slices, [mig('mig-1g-10gb')]);
  assert.equal(slice?.type, 'allocated');
  const inUse = new Set(slice?.type === 'allocated' ? resultDeviceIds(slice.results[0]) : []);
  const eight = claim([exactly('gpu', 'gpu.nvidia.com', { count: 8 })]);
  assert.deepEqual(allocateClaims({ ...input, claims: [eight], allocated: inUse }), { type: 'unschedulable', reason: none });
  assert.equal(asked, 0);
  const seven = claim([exactly('gpu', 'gpu.nvidia.com', { count: 7 })]);
  assert.deepEqual(summary([allocateClaims({ ...input, claims: [seven], allocated: inUse, timedOut: undefined })]), [['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']]);
});
