// `drydock up` starts each deferred controller when clients are quiet, or once a deadline has passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../core/index.ts';
import { ClientActivity } from './client-activity.ts';

function tracked(p: Promise<void>): { done: boolean } {
  const state = { done: false };
  void p.then(() => (state.done = true));
  return state;
}

test('quiet answers at once before any client, then waits until the last one heard is quietMs old', async () => {
  const clock = new VirtualClock();
  const activity = new ClientActivity(clock);
  const start = clock.now();
  const first = tracked(activity.quiet(100, start + 1000));
  await clock.advance(0);
  assert.equal(first.done, true);
  activity.heard();
  const quiet = tracked(activity.quiet(100, start + 1000));
  await clock.advance(60);
  activity.heard();
  await clock.advance(60);
  assert.equal(quiet.done, false, 'a request at 60 ms moves the quiet moment to 160 ms');
  await clock.advance(40);
  assert.equal(quiet.done, true);
});

test('a client that never stops holds quiet back only until the deadline', async () => {
  const clock = new VirtualClock();
  const activity = new ClientActivity(clock);
  const since = clock.now();
  activity.heard();
  const quiet = tracked(activity.quiet(250, since + 1000));
  for (let t = 0; t < 900; t += 100) {
    activity.heard();
    await clock.advance(100);
  }
  assert.equal(quiet.done, false);
  await clock.advance(100);
  assert.equal(quiet.done, true);
  activity.heard();
  const later = tracked(activity.quiet(250, since + 1000));
  await clock.advance(0);
  assert.equal(later.done, true, 'past the deadline, quiet answers at once');
});
