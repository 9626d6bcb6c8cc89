import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HorizontalPodAutoscalerBehavior } from '../../api/index.ts';
import { newHistory, normalizeDesiredReplicas, storeScaleEvent } from './normalize.ts';
import type { History } from './normalize.ts';

const defaults: HorizontalPodAutoscalerBehavior = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
};
const window = 300_000;
const run = (h: History, current: number, desired: number, now: number, behavior: HorizontalPodAutoscalerBehavior | null = defaults, min = 1, max = 20) =>
  normalizeDesiredReplicas({ currentReplicas: current, desiredReplicas: desired, minReplicas: min, maxReplicas: max, behavior: behavior ?? undefined, downscaleStabilisationWindowMs: window, now }, h);
const limited = (r: ReturnType<typeof run>): string[] => r.conditions.map((c) => `${c.type}=${c.status}/${c.reason}`);

test('min/max clamps name TooFewReplicas / TooManyReplicas; in range is DesiredWithinRange', () => {
  const cases: [number, number, number, number, number, string][] = [
    // current, desired, min, max, expected, ScalingLimited reason
    [3, 4, 1, 10, 4, 'ScalingLimited=False/DesiredWithinRange'],
    [3, 12, 1, 5, 5, 'ScalingLimited=True/TooManyReplicas'],
    [3, 1, 2, 10, 2, 'ScalingLimited=True/TooFewReplicas'],
  ];
  for (const [current, desired, min, max, expected, reason] of cases) {
    const r = run(newHistory(), current, desired, 0, defaults, min, max);
    assert.equal(r.replicas, expected);
    assert.deepEqual(limited(r), ['AbleToScale=True/ReadyForNewScale', reason]);
  }
});

test('default scale-up policy: max(4 pods, 100%) per 15 s, counting what was added in the period', () => {
  const h = newHistory();
  const first = run(h, 1, 10, 0);
  assert.equal(first.replicas, 5);
  assert.deepEqual(limited(first), ['AbleToScale=True/ReadyForNewScale', 'ScalingLimited=True/ScaleUpLimit']);
  storeScaleEvent(h, defaults, 1, 5, 0);
  // 5 s later the period still holds the +4: start 1 -> limit max(1+4, 2) = 5.
  assert.equal(run(h, 5, 10, 5_000).replicas, 5);
  // After the period, from 5: max(5+4, 10) = 10.
  assert.equal(run(h, 5, 10, 16_000).replicas, 10);
});

test('scale-down stabilization: the highest recommendation of the last 300 s wins', () => {
  const h = newHistory();
  h.recommendations.push({ replicas: 6, at: 0 });
  const r = run(h, 6, 2, 60_000);
  assert.equal(r.replicas, 6);
  assert.deepEqual(limited(r), ['AbleToScale=True/ScaleDownStabilized', 'ScalingLimited=False/DesiredWithinRange']);
  assert.equal(run(h, 6, 2, 120_000).replicas, 6);
  // 301 s after the 6, only the 2s remain in the window.
  assert.equal(run(h, 6, 2, 301_000).replicas, 2);
});

test('scale-up stabilization window takes the lowest recent recommendation; Disabled never scales that way', () => {
  const h = newHistory();
  const up: HorizontalPodAutoscalerBehavior = { ...defaults, scaleUp: { ...defaults.scaleUp, stabilizationWindowSeconds: 60 } };
  h.recommendations.push({ replicas: 2, at: 0 });
  const r = run(h, 2, 8, 30_000, up);
  assert.equal(r.replicas, 2);
  assert.deepEqual(limited(r), ['AbleToScale=True/ScaleUpStabilized', 'ScalingLimited=False/DesiredWithinRange']);
  const disabled: HorizontalPodAutoscalerBehavior = { ...defaults, scaleDown: { selectPolicy: 'Disabled', policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }], stabilizationWindowSeconds: 0 } };
  assert.equal(run(newHistory(), 5, 1, 0, disabled).replicas, 5);
});

test('no behaviour: legacy limit max(2x, 4) and the 300 s downscale window', () => {
  const h = newHistory();
  const r = run(h, 3, 15, 0, null);
  assert.equal(r.replicas, 6);
  assert.deepEqual(limited(r), ['AbleToScale=True/ReadyForNewScale', 'ScalingLimited=True/ScaleUpLimit']);
  const small = newHistory();
  assert.equal(run(small, 1, 9, 0, null).replicas, 4);
  const held = run(small, 4, 1, 10_000, null);
  assert.equal(held.replicas, 8, 'the 9 recommended 10 s ago is the highest in the window, capped at 2x');
  const later = newHistory();
  later.recommendations.push({ replicas: 4, at: 0 });
  const stabilized = run(later, 4, 1, 10_000, null);
  assert.equal(stabilized.replicas, 4);
  assert.deepEqual(limited(stabilized), ['AbleToScale=True/ScaleDownStabilized', 'ScalingLimited=False/DesiredWithinRange']);
  assert.equal(run(later, 4, 1, 301_000, null).replicas, 1);
});
