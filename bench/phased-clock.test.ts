import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PhasedClock } from './phased-clock.ts';

// The clock's timers do not keep the process alive (as RealClock's); the test must.
async function alive<T>(work: Promise<T>): Promise<T> {
  const keep = setInterval(() => {}, 1000);
  try {
    return await work;
  } finally {
    clearInterval(keep);
  }
}

test('a timer set before a speed-up fires at its cluster time, not at the old pace', async () => {
  const clock = new PhasedClock(1);
  const setAt = clock.now();
  const t0 = performance.now();
  const fired = new Promise<number>((resolve) => clock.after(2000, () => resolve(clock.now())));
  clock.setFactor(100);
  const clusterTime = await alive(fired);
  // 2 s of cluster time at x100 is 20 ms of real time; without re-arming it would take 2 s.
  assert.ok(performance.now() - t0 < 1000, `fired after ${Math.round(performance.now() - t0)} ms`);
  assert.ok(clusterTime >= setAt + 2000 - 5, 'never early in cluster time');
});

test('cluster time is continuous across a change of speed, and a cancelled timer never fires', async () => {
  const clock = new PhasedClock(50);
  await new Promise((r) => setTimeout(r, 20));
  const before = clock.now();
  clock.setFactor(1);
  assert.ok(clock.now() >= before && clock.now() - before < 50);
  let cancelledRan = false;
  clock.after(10, () => (cancelledRan = true)).cancel();
  await alive(clock.sleep(30));
  assert.equal(cancelledRan, false);
});
