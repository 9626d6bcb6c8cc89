// The resource.k8s.io strategies drop the fields of disabled feature gates: on create, and on
// update unless the stored object used them already; with the gate on nothing is dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../features.ts';
import type { FeatureGate, FeatureGates } from '../../features.ts';
import type { ResourceDefinition, StrategyContext } from '../../resource.ts';
import type { KubeObject } from '../../../core/index.ts';
import { deviceClassDefinition } from './device-class.ts';
import { resourceClaimDefinition, resourceClaimTemplateDefinition } from './resource-claim.ts';
import { resourceSliceDefinition } from './resource-slice.ts';
import { podDefinition } from '../../core/v1/pod.ts';
import type { DeviceClass, ResourceClaim, ResourceClaimSpec, ResourceClaimTemplate, ResourceSlice } from './types.ts';
import type { Pod } from '../../core/v1/pod.ts';

const now = Date.parse('2025-01-01T01:00:00Z');
const gates = (off: FeatureGate | undefined): FeatureGates => (off ? { ...defaultFeatureGates, [off]: false } : defaultFeatureGates);
const ctx = (off: FeatureGate | undefined, subresource?: string): StrategyContext => ({ now, featureGates: gates(off), ...(subresource ? { subresource } : {}) });

function created<T extends KubeObject>(def: ResourceDefinition<T>, obj: T, off?: FeatureGate): T {
  const copy = structuredClone(obj);
  def.prepareForCreate?.(copy, ctx(off));
  return copy;
}

function updated<T extends KubeObject>(def: ResourceDefinition<T>, obj: T, old: T, off?: FeatureGate, subresource?: string): T {
  const copy = structuredClone(obj);
  def.prepareForUpdate?.(copy, Object.freeze(structuredClone(old)), ctx(off, subresource));
  return copy;
}

const meta = { name: 'x', resourceVersion: '1' };

const partitionable: ResourceSlice = {
  metadata: meta,
  spec: {
    driver: 'gpu.nvidia.com',
    pool: { name: 'n1', generation: 1, resourceSliceCount: 1 },
    perDeviceNodeSelection: true,
    devices: [{ name: 'gpu-0', nodeName: 'n1', consumesCounters: [{ counterSet: 'gpu-0-counter-set', counters: { memory: { value: '80Gi' } } }] }],
  },
};
const counters: ResourceSlice = { metadata: meta, spec: { driver: 'gpu.nvidia.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 2 }, sharedCounters: [{ name: 'gpu-0-counter-set', counters: { memory: { value: '80Gi' } } }] } };
const tainted: ResourceSlice = {
  metadata: meta,
  spec: { driver: 'gpu.nvidia.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'gpu-0', taints: [{ key: 'maintenance', effect: 'NoSchedule', timeAdded: '2025-01-01T00:00:00Z' }] }] },
};
const plain: ResourceSlice = { metadata: meta, spec: { driver: 'gpu.nvidia.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'gpu-0' }] } };

test('ResourceSlice: DRAPartitionableDevices off drops sharedCounters, perDeviceNodeSelection and the devices\' counters and node fields', () => {
  assert.deepEqual(created(resourceSliceDefinition, partitionable, 'DRAPartitionableDevices').spec, { driver: 'gpu.nvidia.com', pool: partitionable.spec.pool, devices: [{ name: 'gpu-0' }] });
  assert.equal(created(resourceSliceDefinition, counters, 'DRAPartitionableDevices').spec.sharedCounters, undefined);
  assert.deepEqual(created(resourceSliceDefinition, partitionable).spec, partitionable.spec);
  assert.deepEqual(created(resourceSliceDefinition, partitionable, 'DRADeviceTaints').spec, partitionable.spec);
  // Kept on update when the stored slice used them, dropped when it did not.
  assert.deepEqual(updated(resourceSliceDefinition, partitionable, partitionable, 'DRAPartitionableDevices').spec, partitionable.spec);
  assert.deepEqual(updated(resourceSliceDefinition, counters, counters, 'DRAPartitionableDevices').spec, counters.spec);
  assert.equal(updated(resourceSliceDefinition, partitionable, plain, 'DRAPartitionableDevices').spec.perDeviceNodeSelection, undefined);
});

test('ResourceSlice: DRADeviceTaints off drops the devices\' taints unless the stored slice has some', () => {
  assert.deepEqual(created(resourceSliceDefinition, tainted, 'DRADeviceTaints').spec.devices, [{ name: 'gpu-0' }]);
  assert.deepEqual(created(resourceSliceDefinition, tainted).spec.devices, tainted.spec.devices);
  assert.deepEqual(created(resourceSliceDefinition, tainted, 'DRAPartitionableDevices').spec.devices, tainted.spec.devices);
  assert.deepEqual(updated(resourceSliceDefinition, tainted, tainted, 'DRADeviceTaints').spec.devices, tainted.spec.devices);
  assert.deepEqual(updated(resourceSliceDefinition, tainted, plain, 'DRADeviceTaints').spec.devices, [{ name: 'gpu-0' }]);
});

test('DeviceClass: DRAExtendedResource off drops spec.extendedResourceName unless the stored class has one', () => {
  const cls: DeviceClass = { metadata: meta, spec: { selectors: [{ cel: { expression: 'true' } }], extendedResourceName: 'nvidia.com/gpu' } };
  const bare: DeviceClass = { metadata: meta, spec: { selectors: [{ cel: { expression: 'true' } }] } };
  assert.deepEqual(created(deviceClassDefinition, cls, 'DRAExtendedResource').spec, bare.spec);
  assert.deepEqual(created(deviceClassDefinition, cls).spec, cls.spec);
  assert.deepEqual(updated(deviceClassDefinition, cls, cls, 'DRAExtendedResource').spec, cls.spec);
  assert.deepEqual(updated(deviceClassDefinition, cls, bare, 'DRAExtendedResource').spec, bare.spec);
});

const fullSpec: ResourceClaimSpec = {
  devices: {
    requests: [
      { name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com', adminAccess: true, tolerations: [{ key: 'maintenance', operator: 'Exists' }] } },
      { name: 'b', firstAvailable: [{ name: 'h100', deviceClassName: 'gpu.nvidia.com', tolerations: [{ key: 'maintenance', operator: 'Exists' }] }] },
    ],
  },
};
const claimOf = (spec: ResourceClaimSpec): ResourceClaim => ({ metadata: { ...meta, namespace: 'default' }, spec });
const templateOf = (spec: ResourceClaimSpec): ResourceClaimTemplate => ({ metadata: { ...meta, namespace: 'default' }, spec: { spec } });
const exactlyOnly: ResourceClaimSpec = { devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } };

test('ResourceClaim and ResourceClaimTemplate specs: firstAvailable, tolerations and adminAccess each go with their gate', () => {
  const cases: [FeatureGate | undefined, ResourceClaimSpec['devices']][] = [
    [undefined, fullSpec.devices],
    ['DRAPrioritizedList', { requests: [{ name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com', adminAccess: true, tolerations: [{ key: 'maintenance', operator: 'Exists' }] } }, { name: 'b' }] }],
    ['DRADeviceTaints', { requests: [{ name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com', adminAccess: true } }, { name: 'b', firstAvailable: [{ name: 'h100', deviceClassName: 'gpu.nvidia.com' }] }] }],
    ['DRAAdminAccess', { requests: [{ name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com', tolerations: [{ key: 'maintenance', operator: 'Exists' }] } }, fullSpec.devices?.requests?.[1] ?? { name: 'b' }] }],
    ['DRAExtendedResource', fullSpec.devices],
  ];
  for (const [off, want] of cases) {
    assert.deepEqual(created(resourceClaimDefinition, claimOf(fullSpec), off).spec.devices, want, `claim, ${off ?? 'all on'}`);
    assert.deepEqual(created(resourceClaimTemplateDefinition, templateOf(fullSpec), off).spec.spec.devices, want, `template, ${off ?? 'all on'}`);
  }
});

test('ResourceClaim and ResourceClaimTemplate updates keep what the stored spec used', () => {
  for (const off of ['DRAPrioritizedList', 'DRADeviceTaints', 'DRAAdminAccess'] as const) {
    assert.deepEqual(updated(resourceClaimDefinition, claimOf(fullSpec), claimOf(fullSpec), off).spec, fullSpec, off);
    assert.deepEqual(updated(resourceClaimTemplateDefinition, templateOf(fullSpec), templateOf(fullSpec), off).spec.spec, fullSpec, off);
  }
  // Not used before: dropped, so the immutable-spec check reports the change rather than storing it.
  assert.deepEqual(updated(resourceClaimDefinition, claimOf(fullSpec), claimOf(exactlyOnly), 'DRAAdminAccess').spec.devices?.requests?.[0]?.exactly?.adminAccess, undefined);
});

test('ResourceClaim status: adminAccess in the results goes with DRAAdminAccess unless the claim uses admin access already', () => {
  const result = { request: 'a', driver: 'gpu.nvidia.com', pool: 'n1', device: 'gpu-0', adminAccess: true };
  const withStatus = (spec: ResourceClaimSpec, results: (typeof result)[]): ResourceClaim => ({ ...claimOf(spec), status: { allocation: { devices: { results } } } });
  const write = (spec: ResourceClaimSpec, off?: FeatureGate) => updated(resourceClaimDefinition, withStatus(spec, [result]), withStatus(spec, []), off, 'status').status?.allocation?.devices?.results?.[0]?.adminAccess;
  assert.equal(write(exactlyOnly, 'DRAAdminAccess'), undefined);
  assert.equal(write(exactlyOnly), true);
  assert.equal(write(fullSpec, 'DRAAdminAccess'), true);
});

test('Pod status: extendedResourceClaimStatus goes with DRAExtendedResource unless the pod has one already', () => {
  const ext = { resourceClaimName: 'p-extended-resources-abcde', requestMappings: [{ containerName: 'c', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-0' }] };
  const pod = (status: NonNullable<Pod['status']>): Pod => ({ metadata: { ...meta, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'cuda' }] }, status });
  const write = (old: Pod, off?: FeatureGate) => updated(podDefinition, pod({ phase: 'Pending', extendedResourceClaimStatus: ext }), old, off, 'status').status?.extendedResourceClaimStatus;
  assert.equal(write(pod({ phase: 'Pending' }), 'DRAExtendedResource'), undefined);
  assert.deepEqual(write(pod({ phase: 'Pending' })), ext);
  assert.deepEqual(write(pod({ phase: 'Pending', extendedResourceClaimStatus: ext }), 'DRAExtendedResource'), ext);
});

test('a context without featureGates means the defaults (everything on)', () => {
  const copy = structuredClone(tainted);
  resourceSliceDefinition.prepareForCreate?.(copy, { now });
  assert.deepEqual(copy.spec.devices, tainted.spec.devices);
});
