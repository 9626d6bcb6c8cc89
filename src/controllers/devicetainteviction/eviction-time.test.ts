import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { resourceV1 } from '../../api/index.ts';
import { toleratesDeviceTaint } from '../../api/index.ts';
import { DevicePools, claimEvictionTime } from './eviction-time.ts';

const t0 = Date.parse('2025-01-01T00:00:00Z');
const taint = (effect: resourceV1.DeviceTaintEffect, key = 'k', value = 'v'): resourceV1.DeviceTaint => ({ key, value, effect, timeAdded: '2025-01-01T00:00:00Z' });

function claim(tolerations: resourceV1.DeviceToleration[] = [], devices = ['d0']): resourceV1.ResourceClaim {
  return {
    metadata: { name: 'c', namespace: 'default' },
    spec: {},
    status: { allocation: { devices: { results: devices.map((device) => ({ request: 'r', driver: 'example.com', pool: 'p', device, ...(tolerations.length > 0 ? { tolerations } : {}) })) } } },
  };
}

function slice(name: string, generation: number, devices: resourceV1.Device[]): resourceV1.ResourceSlice {
  return { metadata: { name }, spec: { driver: 'example.com', pool: { name: 'p', generation, resourceSliceCount: 1 }, nodeName: 'n', devices } };
}

test('toleratesDeviceTaint follows resourceclaim.ToleratesTaint', () => {
  const cases: [resourceV1.DeviceToleration, resourceV1.DeviceTaint, boolean][] = [
    [{ key: 'k', value: 'v' }, taint('NoExecute'), true],
    [{ key: 'k', value: 'w' }, taint('NoExecute'), false],
    [{ key: 'k', operator: 'Exists' }, taint('NoExecute'), true],
    [{ operator: 'Exists' }, taint('NoExecute'), true],
    [{ key: 'other', operator: 'Exists' }, taint('NoExecute'), false],
    [{ operator: 'Exists', effect: 'NoSchedule' }, taint('NoExecute'), false],
    [{ operator: 'Exists', effect: 'NoExecute' }, taint('NoExecute'), true],
  ];
  for (const [toleration, t, want] of cases) assert.equal(toleratesDeviceTaint(toleration, t), want, JSON.stringify(toleration));
});

test('claimEvictionTime: timeAdded, plus the smallest matching tolerationSeconds; NoExecute tolerations only', () => {
  const only = (taints: resourceV1.DeviceTaint[]) => () => taints;
  const cases: [string, resourceV1.DeviceToleration[], resourceV1.DeviceTaint[], number | undefined][] = [
    ['untainted', [], [], undefined],
    ['NoSchedule never evicts', [], [taint('NoSchedule')], undefined],
    ['None never evicts', [], [taint('None')], undefined],
    ['untolerated NoExecute: at timeAdded', [], [taint('NoExecute')], t0],
    ['tolerated forever', [{ key: 'k', operator: 'Exists', effect: 'NoExecute' }], [taint('NoExecute')], undefined],
    ['tolerated for 60s', [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }], [taint('NoExecute')], t0 + 60_000],
    ['the smaller of two', [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }], [taint('NoExecute')], t0 + 30_000],
    ['negative seconds count as 0', [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -5 }], [taint('NoExecute')], t0],
    ['a toleration without effect does not stop the eviction', [{ operator: 'Exists' }], [taint('NoExecute')], t0],
    ['another key is no toleration', [{ key: 'x', operator: 'Exists', effect: 'NoExecute' }], [taint('NoExecute')], t0],
    ['the earliest untolerated taint', [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }], [taint('NoExecute'), taint('NoExecute', 'j')], t0],
  ];
  for (const [name, tolerations, taints, want] of cases) assert.equal(claimEvictionTime(claim(tolerations), only(taints)), want, name);
});

test('DevicePools reads devices from the highest generation and names the devices whose NoExecute taints changed', () => {
  const pools = new DevicePools();
  const old = slice('a', 1, [{ name: 'd0', taints: [taint('NoExecute')] }, { name: 'd1' }]);
  assert.deepEqual([...pools.update(undefined, old).modified], ['d0']);
  assert.deepEqual(pools.taintsOf('example.com', 'p', 'd0'), [taint('NoExecute')]);
  // A newer generation hides the old slice: d0 is untainted there.
  const newer = slice('b', 2, [{ name: 'd0' }, { name: 'd1', taints: [taint('NoSchedule')] }]);
  assert.deepEqual([...pools.update(undefined, newer).modified], ['d0']);
  assert.deepEqual(pools.taintsOf('example.com', 'p', 'd0'), []);
  assert.deepEqual(pools.taintsOf('example.com', 'p', 'unknown'), []);
  // A NoSchedule change is no change for eviction.
  const noSchedule = slice('b', 2, [{ name: 'd0' }, { name: 'd1' }]);
  assert.equal(pools.update(newer, noSchedule).modified.size, 0);
  // Deleting the newer slice brings the old one back.
  assert.deepEqual([...pools.update(noSchedule, undefined).modified], ['d0']);
  assert.equal(claimEvictionTime(claim(), (d, p, x) => pools.taintsOf(d, p, x)), t0);
});
