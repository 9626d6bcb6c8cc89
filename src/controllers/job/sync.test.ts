// Scenario tests for syncJob on an in-process cluster and a VirtualClock: the test plays the
// kubelet by writing pod status, and checks what a user sees on the Job, its pods and events.
// Scenarios follow spec/controllers.md §10.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobTrackingFinalizer, refs } from '../../api/index.ts';
import type { Pod } from '../../api/index.ts';
const refsPods = refs.pods;
const refsJobs = refs.jobs;
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

test('backoffLimit 2: replacements wait 10 s then 20 s, the third failure fails the Job with BackoffLimitExceeded', async () => {
  await using s = await startScenario();
  await createJob(s, job('flaky', { backoffLimit: 2 }));
  const created: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [pod] = await eventually(s.clock, async () => {
      const pods = await activePods(s, 'flaky');
      return pods.length === 1 && pods;
    }, `pod ${i}`, 500, 200);
    created.push(Date.parse(pod!.metadata.creationTimestamp ?? ''));
    await finishPod(s, pod!, 'Failed', 1);
  }
  // Pod-creation backoff counts from each failure: 10 s after the first, 20 s after the second.
  assert.ok(created[1]! - created[0]! >= 10_000 && created[1]! - created[0]! < 12_000, `second pod after ${created[1]! - created[0]!} ms`);
  assert.ok(created[2]! - created[1]! >= 20_000 && created[2]! - created[1]! < 22_000, `third pod after ${created[2]! - created[1]!} ms`);
  const failed = await waitForCondition(s, 'flaky', 'Failed');
  assert.deepEqual(conditionSummary(failed), [
    'FailureTarget=True BackoffLimitExceeded: Job has reached the specified backoff limit',
    'Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit',
  ]);
  assert.equal(failed.status?.failed, 3);
  assert.equal(failed.status?.active, undefined);
  assert.equal(failed.status?.completionTime, undefined);
  const events = await eventually(s.clock, async () => {
    const e = await jobEvents(s, 'flaky');
    return e.some((x) => x.reason === 'BackoffLimitExceeded') && e;
  }, 'BackoffLimitExceeded event');
  const warning = events.find((e) => e.reason === 'BackoffLimitExceeded');
  assert.equal(warning?.type, 'Warning');
  assert.equal(warning?.message, 'Job has reached the specified backoff limit');
});

test('restartPolicy OnFailure: container restarts count against backoffLimit', async () => {
  await using s = await startScenario();
  await createJob(s, job('retry', { backoffLimit: 2 }, { restartPolicy: 'OnFailure' }));
  const [pod] = await waitForActive(s, 'retry', 1);
  const latest = await s.cluster.client.get<Pod>(refsPods, 'default', pod!.metadata.name ?? '');
  await s.cluster.client.updateStatus(refsPods, {
    ...latest,
    status: { ...latest.status, phase: 'Running', containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 2, state: { running: {} } }] },
  });
  const failed = await waitForCondition(s, 'retry', 'Failed');
  assert.equal(failed.status?.conditions?.[1]?.reason, 'BackoffLimitExceeded');
  // The running pod was deleted and, since the Job failed, counted as failed.
  assert.equal(failed.status?.failed, 1);
  assert.equal((await podsOf(s, 'retry')).length, 0);
});

test('activeDeadlineSeconds 30: FailureTarget DeadlineExceeded at 30 s, the pod is deleted, then Failed', async () => {
  await using s = await startScenario();
  const start = s.clock.now();
  await createJob(s, job('slow', { activeDeadlineSeconds: 30 }));
  await waitForActive(s, 'slow', 1);
  const target = await eventually(s.clock, async () => {
    const j = await getJob(s, 'slow');
    return (j.status?.conditions ?? []).some((c) => c.type === 'FailureTarget') && j;
  }, 'FailureTarget', 1000, 60);
  const at = Date.parse(target.status?.conditions?.[0]?.lastTransitionTime ?? '');
  assert.ok(at - start >= 30_000 && at - start < 32_000, `deadline hit after ${at - start} ms`);
  const failed = await waitForCondition(s, 'slow', 'Failed');
  assert.deepEqual(conditionSummary(failed), [
    'FailureTarget=True DeadlineExceeded: Job was active longer than specified deadline',
    'Failed=True DeadlineExceeded: Job was active longer than specified deadline',
  ]);
  assert.equal(failed.status?.failed, 1);
  assert.equal(failed.status?.terminating, 0);
  assert.equal((await podsOf(s, 'slow', { includeDeleting: true })).length, 0);
  const events = await eventually(s.clock, async () => {
    const e = await jobEvents(s, 'slow');
    return e.some((x) => x.reason === 'DeadlineExceeded') && e;
  }, 'DeadlineExceeded event');
  assert.ok(events.some((e) => e.reason === 'SuccessfulDelete' && e.message?.startsWith('Deleted pod: slow-')));
});

test('a FailJob rule on exit code 42 fails the Job at once despite backoffLimit 6', async () => {
  await using s = await startScenario();
  await createJob(s, job('strict', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] } }));
  const [pod] = await waitForActive(s, 'strict', 1);
  await finishPod(s, pod!, 'Failed', 42);
  const failed = await waitForCondition(s, 'strict', 'Failed');
  const message = `Container main for pod default/${pod!.metadata.name} failed with exit code 42 matching FailJob rule at index 0`;
  assert.deepEqual(conditionSummary(failed), [`FailureTarget=True PodFailurePolicy: ${message}`, `Failed=True PodFailurePolicy: ${message}`]);
  assert.equal(failed.status?.failed, 1);
});

test('an Ignore rule on DisruptionTarget does not count the failure; the replacement waits for phase Failed', async () => {
  await using s = await startScenario();
  await createJob(s, job('evictable', { backoffLimit: 0, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }));
  const created = await getJob(s, 'evictable');
  assert.equal(created.spec.podReplacementPolicy, 'Failed');
  const [pod] = await waitForActive(s, 'evictable', 1);
  // Deleting the pod (as an eviction would) leaves it terminating: no replacement yet.
  await s.cluster.client.delete(refsPods, 'default', pod!.metadata.name ?? '');
  await s.clock.advance(5000);
  assert.equal((await activePods(s, 'evictable')).length, 0);
  assert.equal((await getJob(s, 'evictable')).status?.terminating, 1);
  await finishPod(s, pod!, 'Failed', 137, [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }]);
  const [replacement] = await waitForActive(s, 'evictable', 1);
  assert.notEqual(replacement!.metadata.name, pod!.metadata.name);
  const j = await getJob(s, 'evictable');
  assert.equal(j.status?.failed, undefined);
  assert.ok(!(j.status?.conditions ?? []).some((c) => c.type === 'Failed'));
});

test('an Indexed Job names pods <job>-<i>-xxxxx with the index annotation, label, hostname and env, and ends with completedIndexes 0-3', async () => {
  await using s = await startScenario();
  await createJob(s, job('idx', { completions: 4, parallelism: 4, completionMode: 'Indexed' }));
  const pods = await waitForActive(s, 'idx', 4);
  const byIndex = new Map(pods.map((p) => [p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], p]));
  assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2', '3']);
  for (const [ix, p] of byIndex) {
    assert.match(p.metadata.name ?? '', new RegExp(`^idx-${ix}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-completion-index'], ix);
    assert.equal(p.spec.hostname, `idx-${ix}`);
    assert.deepEqual(p.spec.containers[0]?.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
  }
  await finishPod(s, byIndex.get('1')!, 'Succeeded');
  await finishPod(s, byIndex.get('2')!, 'Succeeded');
  const partial = await eventually(s.clock, async () => {
    const j = await getJob(s, 'idx');
    return j.status?.completedIndexes === '1,2' && j;
  }, 'completedIndexes 1,2');
  assert.equal(partial.status?.succeeded, 2);
  await finishPod(s, byIndex.get('0')!, 'Succeeded');
  await finishPod(s, byIndex.get('3')!, 'Succeeded');
  const done = await waitForCondition(s, 'idx', 'Complete');
  assert.equal(done.status?.completedIndexes, '0-3');
  assert.equal(done.status?.succeeded, 4);
});

test('backoffLimitPerIndex 1: index 2 retries once with the failure count, then fails alone; the Job fails with FailedIndexes', async () => {
  await using s = await startScenario();
  await createJob(s, job('per', { completions: 4, parallelism: 4, completionMode: 'Indexed', backoffLimitPerIndex: 1 }));
  assert.equal((await getJob(s, 'per')).spec.backoffLimit, 2147483647);
  const pods = await waitForActive(s, 'per', 4);
  const ix = (p: { metadata: { annotations?: Record<string, string> } }): string => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '';
  for (const p of pods) {
    assert.equal(p.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'], '0');
    await finishPod(s, p, ix(p) === '2' ? 'Failed' : 'Succeeded', ix(p) === '2' ? 1 : 0);
  }
  const [retry] = await eventually(s.clock, async () => {
    const a = await activePods(s, 'per');
    return a.length === 1 && a;
  }, 'retry of index 2', 500, 100);
  assert.equal(ix(retry!), '2');
  assert.equal(retry!.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'], '1');
  await finishPod(s, retry!, 'Failed', 1);
  const failed = await waitForCondition(s, 'per', 'Failed');
  assert.equal(failed.status?.failedIndexes, '2');
  assert.equal(failed.status?.completedIndexes, '0,1,3');
  assert.equal(failed.status?.failed, 2);
  assert.deepEqual(conditionSummary(failed), ['FailureTarget=True FailedIndexes: Job has failed indexes', 'Failed=True FailedIndexes: Job has failed indexes']);
});

test('a success policy on index 0 completes the Job with SuccessPolicy and deletes the other pods', async () => {
  await using s = await startScenario();
  await createJob(s, job('leader', { completions: 5, parallelism: 5, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 1 }] } }));
  const pods = await waitForActive(s, 'leader', 5);
  const leader = pods.find((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] === '0');
  await finishPod(s, leader!, 'Succeeded');
  const done = await waitForCondition(s, 'leader', 'Complete');
  assert.deepEqual(conditionSummary(done), ['SuccessCriteriaMet=True SuccessPolicy: Matched rules at index 0', 'Complete=True SuccessPolicy: Matched rules at index 0']);
  assert.equal(done.status?.succeeded, 1);
  assert.equal(done.status?.failed, undefined);
  assert.equal((await podsOf(s, 'leader', { includeDeleting: true })).length, 1);
});

test('suspend: no pods and no startTime while suspended; resuming sets JobResumed, startTime and creates pods', async () => {
  await using s = await startScenario();
  await createJob(s, job('later', { suspend: true }));
  const suspended = await waitForCondition(s, 'later', 'Suspended');
  assert.deepEqual(conditionSummary(suspended), ['Suspended=True JobSuspended: Job suspended']);
  assert.equal(suspended.status?.startTime, undefined);
  assert.equal((await podsOf(s, 'later')).length, 0);
  await s.clock.advance(60_000);
  await s.cluster.client.patch(refsJobs, 'default', 'later', 'merge', { spec: { suspend: false } });
  await waitForActive(s, 'later', 1);
  const resumed = await eventually(s.clock, async () => {
    const j = await getJob(s, 'later');
    return j.status?.conditions?.[0]?.status === 'False' && j;
  }, 'resumed');
  assert.deepEqual(conditionSummary(resumed), ['Suspended=False JobResumed: Job resumed']);
  assert.ok(resumed.status?.startTime);
  const events = await eventually(s.clock, async () => {
    const e = await jobEvents(s, 'later');
    return e.some((x) => x.reason === 'Resumed') && e;
  }, 'Resumed event');
  assert.deepEqual(events.filter((e) => e.reason !== 'SuccessfulCreate').map((e) => `${e.reason} ${e.message}`), ['Suspended Job suspended', 'Resumed Job resumed']);
});

test('suspending a running Job deletes its active pods without counting them', async () => {
  await using s = await startScenario();
  await createJob(s, job('pause', { parallelism: 2, completions: 2 }));
  await waitForActive(s, 'pause', 2);
  await s.cluster.client.patch(refsJobs, 'default', 'pause', 'merge', { spec: { suspend: true } });
  await eventually(s.clock, async () => (await podsOf(s, 'pause', { includeDeleting: true })).length === 0, 'pods deleted');
  const j = await waitForCondition(s, 'pause', 'Suspended');
  assert.equal(j.status?.failed, undefined);
  assert.equal(j.status?.active, undefined);
});

test('a Job managed by another controller is left alone', async () => {
  await using s = await startScenario();
  await createJob(s, job('external', { managedBy: 'example.com/queue' }));
  await s.clock.advance(5000);
  assert.equal((await podsOf(s, 'external')).length, 0);
  assert.deepEqual((await getJob(s, 'external')).status, {});
});

test('a work-queue Job (parallelism 2, no completions) completes once a pod succeeds and the others finish', async () => {
  await using s = await startScenario();
  await createJob(s, job('queue', { parallelism: 2 }));
  const pods = await waitForActive(s, 'queue', 2);
  await finishPod(s, pods[0]!, 'Succeeded');
  await s.clock.advance(5000);
  // No replacement after the first success: what runs keeps running.
  assert.equal((await activePods(s, 'queue')).length, 1);
  await finishPod(s, pods[1]!, 'Succeeded');
  const done = await waitForCondition(s, 'queue', 'Complete');
  assert.equal(done.status?.succeeded, 2);
});

test('a Job with a manual selector adopts a matching orphan pod (ownerReference and tracking finalizer) instead of creating one', async () => {
  await using s = await startScenario();
  const orphan: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'leftover', namespace: 'default', labels: { app: 'batch' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } };
  await s.cluster.client.create(refs.pods, orphan, { namespace: 'default' });
  const created = await createJob(s, job('adopter', { manualSelector: true, selector: { matchLabels: { app: 'batch' } }, parallelism: 1, completions: 1, template: { metadata: { labels: { app: 'batch' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } }));
  const adopted = await eventually(s.clock, async () => {
    const p = await s.cluster.client.get<Pod>(refs.pods, 'default', 'leftover');
    return p.metadata.ownerReferences?.length ? p : undefined;
  }, 'the orphan adopted');
  assert.deepEqual(adopted.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['Job', 'adopter', created.metadata.uid, true]]);
  assert.deepEqual(adopted.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
  await eventually(s.clock, async () => (await getJob(s, 'adopter')).status?.active === 1, 'active 1');
  const all = (await s.cluster.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: 'app=batch' })).items;
  assert.deepEqual(all.map((p) => p.metadata.name), ['leftover'], 'no second pod was created');
});
