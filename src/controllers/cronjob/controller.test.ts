// The CronJob controller on an in-process cluster with kubelets and a VirtualClock: a Job per
// scheduled minute named <cronjob>-<minutes>, status.active and the schedule/success times, the
// history limits, Forbid, suspend, and the starting deadline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { CronJob, Event, Job } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

async function startCluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock(Date.parse('2026-06-01T00:00:30Z'));
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(9), components: true, log: () => {} });
  return { c, clock };
}

const cronJob = (name: string, command: string[], spec: Partial<CronJob['spec']> = {}): CronJob => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: 'default' },
  spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'task', image: 'busybox', command }] } } } }, ...spec },
});
const jobs = async (c: Cluster): Promise<Job[]> => (await c.client.list<Job>(refs.jobs, { namespace: 'default' })).items.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
const reasons = async (c: Cluster, reason: string): Promise<string[]> => (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === reason).map((e) => e.message ?? '');

test('every minute a Job <name>-<minutes> runs; finished ones leave active; the three newest successes are kept', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.cronJobs, cronJob('hello', ['sleep', '20']), { namespace: 'default' });
    await clock.advance(40_000);
    const first = await jobs(c);
    const minute = Math.floor(Date.parse('2026-06-01T00:01:00Z') / 60000);
    assert.deepEqual(first.map((j) => j.metadata.name), [`hello-${minute}`]);
    assert.equal(first[0]?.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-06-01T00:01:00Z');
    const cj = await c.client.get<CronJob>(refs.cronJobs, 'default', 'hello');
    assert.deepEqual([cj.status?.lastScheduleTime, cj.status?.active?.map((a) => a.name)], ['2026-06-01T00:01:00Z', [`hello-${minute}`]]);
    await clock.advance(5 * 60_000);
    // 00:06:10: the runs of 00:01-00:05 are done (the three newest kept), 00:06's is running.
    const kept = await jobs(c);
    assert.deepEqual(kept.map((j) => j.metadata.name), [2, 3, 4, 5].map((m) => `hello-${minute + m}`));
    const done = await c.client.get<CronJob>(refs.cronJobs, 'default', 'hello');
    assert.ok(done.status?.lastSuccessfulTime, JSON.stringify(done.status));
    assert.ok((await reasons(c, 'SawCompletedJob')).includes(`Saw completed job: hello-${minute}, condition: Complete`));
    assert.ok((await reasons(c, 'SuccessfulDelete')).includes(`Deleted job hello-${minute}`));
    assert.deepEqual(await reasons(c, 'UnexpectedJob'), [], 'its own Jobs are never unexpected, however soon after creation it looks');
  } finally {
    await c.stop();
  }
});

test('Forbid skips a run while the previous one is active; suspend stops new runs', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.cronJobs, cronJob('long', ['sleep', '150'], { concurrencyPolicy: 'Forbid' }), { namespace: 'default' });
    await clock.advance(3 * 60_000);
    assert.equal((await jobs(c)).length, 1, 'the 00:02 and 00:03 runs were skipped');
    assert.ok((await reasons(c, 'JobAlreadyActive')).includes('Not starting job because prior execution is running and concurrency policy is Forbid'));
    await clock.advance(60_000);
    assert.equal((await jobs(c)).length, 2, 'the first finished at 00:03:30: 00:04 runs');
    await c.client.patch(refs.cronJobs, 'default', 'long', 'merge', { spec: { suspend: true } });
    await clock.advance(5 * 60_000);
    assert.equal((await jobs(c)).length, 2);
  } finally {
    await c.stop();
  }
});

test('a Job made with kubectl create job --from=cronjob/x: UnexpectedJob while it runs, never in active, and its success sets lastSuccessfulTime', async () => {
  const { c, clock } = await startCluster();
  try {
    const cj = await c.client.create<CronJob>(refs.cronJobs, cronJob('nightly', ['sleep', '5'], { schedule: '0 3 * * *' }), { namespace: 'default' });
    // What kubectl sends: the template's spec, owned by the CronJob as its controller.
    const manual: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'manual', annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' }, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: cj.metadata.uid ?? '', controller: true }] },
      spec: cj.spec.jobTemplate.spec as Job['spec'],
    };
    await c.client.create(refs.jobs, manual, { namespace: 'default' });
    await clock.advance(2_000);
    assert.deepEqual([...new Set(await reasons(c, 'UnexpectedJob'))], ['Saw a job that the controller did not create or forgot: manual']);
    await clock.advance(10_000);
    const job = await c.client.get<Job>(refs.jobs, 'default', 'manual');
    const status = (await c.client.get<CronJob>(refs.cronJobs, 'default', 'nightly')).status;
    assert.ok(job.status?.completionTime);
    assert.deepEqual(status, { lastSuccessfulTime: job.status?.completionTime });
    assert.deepEqual(await reasons(c, 'SawCompletedJob'), []);
  } finally {
    await c.stop();
  }
});

test('Replace deletes the running Job at the next scheduled time and starts the new one', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.cronJobs, cronJob('swap', ['sleep', '150'], { concurrencyPolicy: 'Replace' }), { namespace: 'default' });
    await clock.advance(40_000);
    const minute = Math.floor(Date.parse('2026-06-01T00:01:00Z') / 60000);
    await clock.advance(60_000);
    const live = (await jobs(c)).filter((j) => !j.metadata.deletionTimestamp).map((j) => j.metadata.name);
    assert.deepEqual(live, [`swap-${minute + 1}`]);
    assert.deepEqual(await reasons(c, 'SuccessfulDelete'), [`Deleted job swap-${minute}`]);
    const status = (await c.client.get<CronJob>(refs.cronJobs, 'default', 'swap')).status;
    assert.deepEqual([status?.active?.map((a) => a.name), status?.lastScheduleTime], [[`swap-${minute + 1}`], '2026-06-01T00:02:00Z']);
  } finally {
    await c.stop();
  }
});
