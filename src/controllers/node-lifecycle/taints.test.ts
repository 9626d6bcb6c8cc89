import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Taint, Toleration } from '../../api/index.ts';
import { matchingTolerations, minTolerationMs, reconcileNoScheduleTaints, toleratesTaint, wantedNoScheduleTaints } from './taints.ts';
import { computeZoneState, defaultDisruptionSettings, zoneTaintingQPS } from './zones.ts';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

test('toleratesTaint follows Toleration.ToleratesTaint', () => {
  const cases: [Toleration, Taint, boolean][] = [
    [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, unreachable, true],
    [{ operator: 'Exists' }, unreachable, true],
    [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, unreachable, false],
    [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, unreachable, false],
    [{ key: 'dedicated', value: 'gpu' }, { key: 'dedicated', value: 'gpu', effect: 'NoExecute' }, true],
    [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }, { key: 'dedicated', value: 'gpu', effect: 'NoExecute' }, false],
  ];
  for (const [toleration, taint, want] of cases) assert.equal(toleratesTaint(toleration, taint), want, JSON.stringify(toleration));
});

test('matchingTolerations needs a toleration for every taint', () => {
  const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
  const t1: Toleration = { key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  assert.deepEqual(matchingTolerations([unreachable], [t1]), { allTolerated: true, used: [t1] });
  assert.deepEqual(matchingTolerations([unreachable, notReady], [t1]), { allTolerated: false, used: [] });
  assert.deepEqual(matchingTolerations([], []), { allTolerated: true, used: [] });
});

test('minTolerationMs: shortest bounded toleration, 0 for none or non-positive, -1 for forever', () => {
  assert.equal(minTolerationMs([]), 0);
  assert.equal(minTolerationMs([{ operator: 'Exists' }]), -1);
  assert.equal(minTolerationMs([{ tolerationSeconds: 300 }, { tolerationSeconds: 20 }, { operator: 'Exists' }]), 20_000);
  assert.equal(minTolerationMs([{ tolerationSeconds: 300 }, { tolerationSeconds: -5 }]), 0);
});

test('condition taints: Ready False/Unknown, pressures and cordon map to NoSchedule taints', () => {
  const node = {
    spec: { unschedulable: true },
    status: { conditions: [{ type: 'Ready', status: 'Unknown' }, { type: 'MemoryPressure', status: 'True' }, { type: 'DiskPressure', status: 'False' }] },
  };
  assert.deepEqual(wantedNoScheduleTaints(node).map((t) => t.key), ['node.kubernetes.io/unreachable', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/unschedulable']);
  const current: Taint[] = [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }];
  const next = reconcileNoScheduleTaints(current, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }], '2026-01-01T00:00:00Z');
  assert.deepEqual(next, [
    { key: 'dedicated', value: 'x', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' },
  ]);
  assert.equal(reconcileNoScheduleTaints(next ?? [], [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }], 'later'), undefined);
});

test('zone state: full disruption when none is ready, partial from 3 unhealthy at 55 %', () => {
  const s = defaultDisruptionSettings;
  assert.deepEqual(computeZoneState(['Unknown'], s), { unhealthy: 1, state: 'FullDisruption' });
  assert.deepEqual(computeZoneState(['True', 'Unknown'], s), { unhealthy: 1, state: 'Normal' });
  assert.deepEqual(computeZoneState(['True', 'True', 'Unknown', 'False', undefined], s), { unhealthy: 3, state: 'PartialDisruption' });
  assert.equal(zoneTaintingQPS('PartialDisruption', 10, s), 0);
  assert.equal(zoneTaintingQPS('PartialDisruption', 51, s), 0.01);
  assert.equal(zoneTaintingQPS('Normal', 10, s), 0.1);
});
