// Scenario test for the TTL-after-finished controller with the Job controller on a VirtualClock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Job } from '../../api/index.ts';
import { createJob, eventually, finishPod, getJob, job, startScenario, waitForActive, waitForCondition } from '../job/scenario.test-helpers.ts';

test('ttlSecondsAfterFinished 60: 60 s after Complete the Job is deleted in the foreground', async () => {
  await using s = await startScenario();
  await createJob(s, job('short', { ttlSecondsAfterFinished: 60 }));
  const [pod] = await waitForActive(s, 'short', 1);
  await finishPod(s, pod!, 'Succeeded');
  const done = await waitForCondition(s, 'short', 'Complete');
  const completeAt = Date.parse(done.status?.conditions?.[1]?.lastTransitionTime ?? '');
  await s.clock.advance(completeAt + 59_000 - s.clock.now());
  assert.equal((await getJob(s, 'short')).metadata.deletionTimestamp, undefined);
  // Foreground: the Job is marked with the foregroundDeletion finalizer and stays until the
  // garbage collector has removed its pods — which can be within one step of the clock, so
  // the marked state is taken from a watch rather than from polling.
  const seen: Job[] = [];
  const watch = s.cluster.client.watch<Job>(refs.jobs, { namespace: 'default', fieldSelector: 'metadata.name=short' }, (e) => {
    if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') seen.push(e.object as Job);
  });
  try {
    await eventually(s.clock, async () => seen.some((j) => j.metadata.deletionTimestamp !== undefined), 'Job deletion', 500, 20);
  } finally {
    watch.stop();
  }
  const deleting = seen.find((j) => j.metadata.deletionTimestamp !== undefined) as Job;
  assert.deepEqual(deleting.metadata.finalizers, ['foregroundDeletion']);
  const at = Date.parse(deleting.metadata.deletionTimestamp ?? '');
  assert.ok(at - completeAt >= 60_000 && at - completeAt < 62_000, `deleted after ${at - completeAt} ms`);
});
