import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/index.ts';
import { finishedTime, nextBackoffRecord, remainingBackoffForIndexMs, remainingBackoffMs } from './backoff.ts';

const t0 = Date.UTC(2026, 0, 1);
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function finished(atMs: number, annotations: Record<string, string> = {}): Pod {
  return {
    metadata: { name: 'p', creationTimestamp: iso(t0 - 60_000), annotations },
    spec: { containers: [{ name: 'main' }] },
    status: { phase: 'Failed', containerStatuses: [{ name: 'main', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, finishedAt: iso(atMs) } } }] },
  };
}

const delays: { failures: number; want: number }[] = [
  { failures: 0, want: 0 },
  { failures: 1, want: 10_000 },
  { failures: 2, want: 20_000 },
  { failures: 3, want: 40_000 },
  { failures: 6, want: 320_000 },
  { failures: 7, want: 600_000 },
  { failures: 30, want: 600_000 },
];

for (const c of delays) {
  test(`remainingBackoffMs: ${c.failures} failures since the last success wait ${c.want} ms`, () => {
    assert.equal(remainingBackoffMs(t0, c.failures, t0), c.want);
  });
}

test('remainingBackoffMs counts from the last failure and reaches 0', () => {
  assert.equal(remainingBackoffMs(t0 + 4000, 2, t0), 16_000);
  assert.equal(remainingBackoffMs(t0 + 20_001, 2, t0), 0);
});

test('nextBackoffRecord adds failures, and a later success resets the count', () => {
  let r = nextBackoffRecord(undefined, [], [finished(t0), finished(t0 + 5000)]);
  assert.deepEqual(r, { failuresAfterLastSuccess: 2, lastFailureTime: t0 + 5000 });
  r = nextBackoffRecord(r, [], []);
  assert.deepEqual(r, { failuresAfterLastSuccess: 2, lastFailureTime: t0 + 5000 });
  r = nextBackoffRecord(r, [finished(t0 + 9000)], [finished(t0 + 8000), finished(t0 + 10_000)]);
  assert.deepEqual(r, { failuresAfterLastSuccess: 1, lastFailureTime: t0 + 10_000 });
  assert.deepEqual(nextBackoffRecord(r, [finished(t0 + 11_000)], []), { failuresAfterLastSuccess: 0 });
});

test('remainingBackoffForIndexMs uses the index failure count of the last failed pod', () => {
  assert.equal(remainingBackoffForIndexMs(t0, undefined), 0);
  assert.equal(remainingBackoffForIndexMs(t0, finished(t0)), 10_000);
  assert.equal(remainingBackoffForIndexMs(t0, finished(t0, { 'batch.kubernetes.io/job-index-failure-count': '2' })), 40_000);
});

test('finishedTime: containers, then Ready=False, then deletion minus grace, then creation', () => {
  assert.equal(finishedTime(finished(t0 + 3000)), t0 + 3000);
  const bare: Pod = { metadata: { creationTimestamp: iso(t0) }, spec: { containers: [] } };
  assert.equal(finishedTime(bare), t0);
  assert.equal(finishedTime({ ...bare, metadata: { ...bare.metadata, deletionTimestamp: iso(t0 + 40_000), deletionGracePeriodSeconds: 30 } }), t0 + 10_000);
  assert.equal(finishedTime({ ...bare, status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: iso(t0 + 7000) }] } }), t0 + 7000);
});

test('finishedTime waits for sidecars: they stop after the main container', () => {
  const pod = finished(t0 + 1000);
  pod.spec.initContainers = [{ name: 'log', restartPolicy: 'Always' }];
  pod.status!.initContainerStatuses = [{ name: 'log', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 143, finishedAt: iso(t0 + 3000) } } }];
  assert.equal(finishedTime(pod), t0 + 3000);
});
