// VirtualClock.until: how tests wait for components on the virtual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from './clock.ts';

test('VirtualClock.until advances in steps until the check answers, and says what it waited for when it never does', async () => {
  const clock = new VirtualClock(0);
  let fired = false;
  clock.after(250, () => (fired = true));
  assert.equal(await clock.until(async () => fired && clock.now(), 'the timer'), 300);
  await assert.rejects(clock.until(async () => false, 'nothing', 10, 3), /timed out waiting for nothing/);
  assert.equal(clock.now(), 330);
});
