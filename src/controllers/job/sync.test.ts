// Scenario tests for syncJob on an in-process cluster and a VirtualClock: the test plays the
// kubelet by writing pod status, and checks what a user sees on the Job, its pods and events.
// Scenarios follow spec/controllers.md §10.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobTrackingFinalizer } from '../../api/index.ts';
import { activePods, conditionSummary, createJob, eventually, finishPod, getJob, job, jobEvents, podsOf, startScenario, waitForActive, waitForCondition } from './scenario.test-helpers.ts';

test('a Job with completions 3 and parallelism 2 runs at most 2 pods and ends SuccessCriteriaMet then Complete', async () => {
  await using s = await startScenario();
  await createJob(s, job('pi', { completions: 3, parallelism: 2 }));
  let pods = await waitForActive(s, 'pi', 2);
  for (const p of pods) {
    assert.match(p.metadata.name ?? '', /^pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(p.metadata.finalizers, [JobTrackingFinalizer]);
    assert.deepEqual({ ...p.metadata.ownerReferences?.[0], uid: '' }, { apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: '', controller: true, blockOwnerDeletion: true });
  }
  await finishPod(s, pods[0]!, 'Succeeded');
  await finishPod(s, pods[1]!, 'Succeeded');
  pods = await waitForActive(s, 'pi', 1);
  await finishPod(s, pods[0]!, 'Succeeded');
  const done = await waitForCondition(s, 'pi', 'Complete');
  assert.deepEqual(conditionSummary(done), [
    'SuccessCriteriaMet=True CompletionsReached: Reached expected number of succeeded pods',
    'Complete=True CompletionsReached: Reached expected number of succeeded pods',
  ]);
  assert.equal(done.status?.succeeded, 3);
  assert.equal(done.status?.active, undefined);
  assert.equal(done.status?.ready, 0);
  assert.equal(done.status?.terminating, 0);
  assert.deepEqual(done.status?.uncountedTerminatedPods, {});
  assert.equal(done.status?.completionTime, done.status?.conditions?.[1]?.lastTransitionTime);
  const all = await podsOf(s, 'pi');
  assert.equal(all.length, 3);
  assert.ok(all.every((p) => !(p.metadata.finalizers ?? []).includes(JobTrackingFinalizer)), 'finalizers removed after counting');
  const events = await eventually(s.clock, async () => {
    const e = await jobEvents(s, 'pi');
    return e.some((x) => x.reason === 'Completed') && e;
  }, 'Completed event');
  assert.deepEqual(events.map((e) => `${e.type} ${e.reason} ${e.message}`).sort(), [
    ...all.map((p) => `Normal SuccessfulCreate Created pod: ${p.metadata.name}`),
    'Normal Completed Job completed',
  ].sort());
  assert.equal(events[0]?.source?.component, 'job-controller');
});
