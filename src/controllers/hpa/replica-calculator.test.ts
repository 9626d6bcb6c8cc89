import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/index.ts';
import { defaultReadiness, defaultTolerances, plainMetricReplicas, resourceReplicas } from './replica-calculator.ts';
import type { Calculation, PodMetricsInfo } from './replica-calculator.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const ago = (ms: number): string => new Date(now - ms).toISOString();
// A pod started an hour ago and Ready since then, with a 1000m (1 core) request.
function pod(name: string, over: { phase?: string; ready?: 'True' | 'False'; startedAgo?: number; readyAgo?: number; request?: string; deleting?: boolean } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', ...(over.deleting ? { deletionTimestamp: ago(0) } : {}) },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: over.request ?? '1', memory: '1Gi' } } }] },
    status: {
      phase: over.phase ?? 'Running',
      startTime: ago(over.startedAgo ?? 3600_000),
      conditions: [{ type: 'Ready', status: over.ready ?? 'True', lastTransitionTime: ago(over.readyAgo ?? 3600_000) }],
    },
  } as Pod;
}
const metrics = (values: Record<string, number>): PodMetricsInfo => new Map(Object.entries(values).map(([k, value]) => [k, { value, timestamp: now - 15_000, windowMs: 15_000 }]));
const calc = (current: number, target: number, pods: Pod[], m: PodMetricsInfo): Calculation =>
  resourceReplicas({ currentReplicas: current, targetUtilization: target, resource: 'cpu', container: '', pods, metrics: m, tolerances: defaultTolerances, policy: { now, ...defaultReadiness } });

test('resource utilization: ceil(ready * utilization / target), tolerance band keeps the count', () => {
  const cases: [string, number, number, Pod[], PodMetricsInfo, number, number][] = [
    // [name, current, target %, pods, usage (milli), replicas, utilization]
    ['scale up 3 -> 5', 3, 50, [pod('a'), pod('b'), pod('c')], metrics({ a: 800, b: 800, c: 800 }), 5, 80],
    ['scale down 4 -> 2', 4, 50, [pod('a'), pod('b'), pod('c'), pod('d')], metrics({ a: 200, b: 200, c: 200, d: 200 }), 2, 20],
    ['within 10% tolerance', 2, 50, [pod('a'), pod('b')], metrics({ a: 540, b: 540 }), 2, 54],
    ['just past tolerance', 2, 50, [pod('a'), pod('b')], metrics({ a: 560, b: 560 }), 3, 56],
    ['missing metric on scale-up counts as 0%', 2, 50, [pod('a'), pod('b')], metrics({ a: 1000 }), 2, 100],
    ['missing metric on scale-down counts as 100%', 3, 50, [pod('a'), pod('b'), pod('c')], metrics({ a: 100, b: 100 }), 3, 10],
    ['unready pod on scale-up counts as 0%', 2, 50, [pod('a'), pod('b', { ready: 'False', startedAgo: 60_000, readyAgo: 60_000 })], metrics({ a: 1500, b: 1500 }), 3, 150],
    ['pending pods count as 0% on scale-up', 1, 50, [pod('a'), pod('b', { phase: 'Pending' }), pod('c', { phase: 'Pending' })], metrics({ a: 1000 }), 1, 100],
    ['deleting and failed pods are ignored', 2, 50, [pod('a'), pod('b'), pod('x', { deleting: true }), pod('y', { phase: 'Failed' })], metrics({ a: 1000, b: 1000, x: 0, y: 0 }), 4, 100],
    ['sample taken within a window of becoming ready is not used', 2, 50, [pod('a'), pod('b', { startedAgo: 60_000, readyAgo: 10_000 })], metrics({ a: 1000, b: 1000 }), 2, 100],
  ];
  for (const [name, current, target, pods, m, replicas, utilization] of cases) {
    const r = calc(current, target, pods, m);
    assert.ok(r.ok, name);
    assert.deepEqual([r.replicas, r.utilization], [replicas, utilization], name);
  }
});

test('resource utilization errors are upstream texts', () => {
  assert.deepEqual(calc(1, 50, [], metrics({})), { ok: false, message: 'no pods returned by selector while calculating replica count' });
  assert.deepEqual(calc(1, 50, [pod('a', { phase: 'Pending' })], metrics({ a: 10 })), { ok: false, message: 'did not receive metrics for targeted pods (pods might be unready)' });
  const noRequest = pod('a');
  delete noRequest.spec.containers[0]!.resources;
  assert.deepEqual(calc(1, 50, [noRequest], metrics({ a: 10 })), { ok: false, message: 'missing request for cpu in container c of Pod a' });
});

test('average value target: ceil(ready * average / target)', () => {
  const r = plainMetricReplicas({ currentReplicas: 2, targetUsage: 500, resource: 'memory', container: '', pods: [pod('a'), pod('b')], metrics: metrics({ a: 1500, b: 500 }), tolerances: defaultTolerances, policy: { now, ...defaultReadiness } });
  assert.deepEqual(r, { ok: true, replicas: 4, utilization: 0, rawUtilization: 1000 });
});
