import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import { findActiveOrLatest, getProportion, newRSNewReplicas, planOldScaleDown, planProportionalScale, resolveFenceposts } from './rollout.ts';
import { scaledValue } from '../../api/index.ts';

function deployment(replicas: number, maxSurge: number | string = '25%', maxUnavailable: number | string = '25%'): Deployment {
  return {
    metadata: { name: 'd' },
    spec: { replicas, selector: {}, template: { spec: { containers: [] } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
  };
}

function rs(name: string, replicas: number, available = replicas, created = '2026-01-01T00:00:00Z', annotations?: Record<string, string>): ReplicaSet {
  const r: ReplicaSet = { metadata: { name, creationTimestamp: created }, spec: { replicas }, status: { replicas, availableReplicas: available } };
  if (annotations) r.metadata.annotations = annotations;
  return r;
}

test('percent fenceposts: surge rounds up, unavailable rounds down, both zero gives unavailable 1', () => {
  const cases: [number | string, number | string, number, number, number][] = [
    ['25%', '25%', 4, 1, 1],
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 1, 1, 0],
    ['0%', '1%', 2, 0, 1],
    [0, 0, 5, 0, 1],
    [2, '50%', 3, 2, 1],
  ];
  for (const [s, u, desired, surge, unavailable] of cases) {
    assert.deepEqual(resolveFenceposts(s, u, desired), { surge, unavailable }, `${s}/${u} of ${desired}`);
  }
  assert.throws(() => scaledValue('abc', 4, true), /string is not a percentage/);
});

test('newRSNewReplicas stays within replicas + maxSurge and never above replicas', () => {
  const d = deployment(4);
  const oldRS = rs('old', 4);
  const newRS = rs('new', 0);
  assert.equal(newRSNewReplicas(d, [oldRS, newRS], newRS), 1);
  assert.equal(newRSNewReplicas(d, [rs('old', 3), rs('new', 1)], rs('new', 1)), 2);
  assert.equal(newRSNewReplicas(d, [rs('old', 0), rs('new', 3)], rs('new', 3)), 4);
  assert.equal(newRSNewReplicas(deployment(10, 3), [rs('old', 10), newRS], newRS), 3);
});

test('old ReplicaSets scale down oldest first, unhealthy replicas before available ones', () => {
  const d = deployment(4);
  // 4 old available, new has 1 unavailable: 5 pods, min available 3, new unavailable 1 -> max 1 down.
  const newRS = rs('new', 1, 0, '2026-01-02T00:00:00Z');
  const steps = planOldScaleDown(d, [rs('old', 4), newRS], [rs('old', 4)], newRS);
  assert.deepEqual(steps.map((s) => [s.rs.metadata.name, s.replicas]), [['old', 3]]);
  // Unhealthy old pods go first, even beyond what availability alone would allow.
  const sick = rs('sick', 2, 0, '2025-12-31T00:00:00Z');
  const healthy = rs('healthy', 3, 3);
  const n2 = rs('new', 1, 1, '2026-01-02T00:00:00Z');
  const steps2 = planOldScaleDown(d, [sick, healthy, n2], [sick, healthy], n2);
  assert.deepEqual(steps2.map((s) => [s.rs.metadata.name, s.replicas]), [['sick', 0], ['healthy', 2]]);
});

test('findActiveOrLatest: the single active ReplicaSet, the newest when none is active, none when several are', () => {
  const a = rs('a', 0, 0, '2026-01-01T00:00:00Z');
  const b = rs('b', 0, 0, '2026-01-02T00:00:00Z');
  assert.equal(findActiveOrLatest(undefined, [a, b])?.metadata.name, 'b');
  assert.equal(findActiveOrLatest(rs('n', 2), [a, b])?.metadata.name, 'n');
  assert.equal(findActiveOrLatest(rs('n', 2), [rs('x', 1)]), undefined);
});

test('proportional scaling mid-rollout splits new replicas by size, leftovers to the largest', () => {
  // 10 -> 15 replicas while old has 8 and new 5 (max-replicas annotation 13 = 10 + surge 3).
  const d = deployment(15);
  const ann = { 'deployment.kubernetes.io/max-replicas': '13' };
  const old = rs('old', 8, 8, '2026-01-01T00:00:00Z', ann);
  const neu = rs('new', 5, 0, '2026-01-02T00:00:00Z', ann);
  const { steps, direction } = planProportionalScale(d, [old, neu]);
  assert.equal(direction, 'up');
  // allowed 15 + 4 = 19, toAdd 6: old 8*19/13=11.69 -> 12 (+4), new 5*19/13=7.3 -> 7 (+2).
  assert.deepEqual(steps.map((s) => [s.rs.metadata.name, s.replicas]), [['old', 12], ['new', 7]]);
  assert.equal(getProportion(old, d, 6, 6), 0);
});
