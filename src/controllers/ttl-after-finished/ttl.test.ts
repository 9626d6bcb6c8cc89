import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job } from '../../api/index.ts';
import { needsCleanup, timeLeftMs } from './ttl.ts';

const t0 = Date.UTC(2026, 0, 1);
const finished = (type: string, ttl?: number): Job => ({
  metadata: { name: 'j' },
  spec: { template: { spec: { containers: [] } }, ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}) },
  status: { conditions: [{ type, status: 'True', lastTransitionTime: new Date(t0).toISOString() }] },
});

test('timeLeftMs counts from the Complete or Failed condition', () => {
  assert.equal(timeLeftMs(finished('Complete', 60), t0 + 10_000), 50_000);
  assert.equal(timeLeftMs(finished('Failed', 0), t0 + 1), -1);
  assert.equal(timeLeftMs(finished('SuccessCriteriaMet', 60), t0), undefined);
  assert.equal(timeLeftMs(finished('Complete'), t0), undefined);
});

test('needsCleanup: only finished Jobs with a TTL', () => {
  assert.deepEqual([needsCleanup(finished('Complete', 5)), needsCleanup(finished('Complete')), needsCleanup(finished('FailureTarget', 5))], [true, false, false]);
});
