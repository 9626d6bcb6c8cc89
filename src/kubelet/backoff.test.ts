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

test('crash-loop back-off resets only for a run of over 10 minutes, not for time spent backing off', () => {
  const b = new Backoff();
  const key = 'uid/worker';
  // At the 5m cap: the last restart at 0, an 8-minute run, then the 5-minute window.
  for (let i = 0; i < 6; i++) b.next(key, 0);
  assert.equal(b.get(key), 300_000);
  const finishedAt = 8 * 60_000;
  assert.equal(b.isInBackOffSince(key, finishedAt, finishedAt + 1000), true);
  const restart = finishedAt + 300_000;
  assert.equal(b.isInBackOffSince(key, finishedAt, restart), false);
  b.next(key, restart, finishedAt);
  assert.equal(b.get(key), 300_000);
  // An 11-minute run from that restart starts over at 10s, at once.
  const longRun = restart + 11 * 60_000;
  assert.equal(b.isInBackOffSince(key, longRun, longRun), false);
  b.next(key, longRun, longRun);
  assert.equal(b.get(key), 10_000);
});

test('formatGoDurationMs prints Go durations', () => {
  assert.deepEqual([10_000, 80_000, 300_000, 1500, 0, 250, 3_600_000].map(formatGoDurationMs), ['10s', '1m20s', '5m0s', '1.5s', '0s', '250ms', '1h0m0s']);
});
