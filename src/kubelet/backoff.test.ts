import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, formatGoDurationMs } from './backoff.ts';

test('crash-loop back-off: first restart immediate, then 10s doubling to 5m, reset after 10 idle minutes', () => {
  const b = new Backoff();
  const key = 'uid/worker';
  let now = 0;
  const windows: number[] = [];
  for (let i = 0; i < 8; i++) {
    const finishedAt = now;
    if (b.isInBackOffSince(key, finishedAt, now)) {
      windows.push(b.get(key));
      now = b.releaseAt(key, finishedAt);
    }
    assert.equal(b.isInBackOffSince(key, finishedAt, now), false);
    b.next(key, now);
    now += 1000;
  }
  assert.deepEqual(windows, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  now += 11 * 60_000;
  assert.equal(b.isInBackOffSince(key, now, now), false);
  b.next(key, now);
  assert.equal(b.get(key), 10_000);
});

test('formatGoDurationMs prints Go durations', () => {
  assert.deepEqual([10_000, 80_000, 300_000, 1500, 0, 250, 3_600_000].map(formatGoDurationMs), ['10s', '1m20s', '5m0s', '1.5s', '0s', '250ms', '1h0m0s']);
});
