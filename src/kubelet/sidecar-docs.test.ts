// Scenario tests on the VirtualClock with kubernetes.io's sidecar and shared-volume examples as published
// (test/fixtures/): containers of one pod write and follow the same emptyDir file, on the cluster clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs } from '../api/index.ts';
import type { Job, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { runExec } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';

const fixture = <T>(name: string): T => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures', name), 'utf8')) as T;

async function cluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

async function onlyPod(c: Cluster): Promise<Pod> {
  const list = await c.client.list<Pod>(refs.pods, { namespace: 'default' });
  assert.equal(list.items.length, 1);
  return list.items[0] as Pod;
}

/** A container's log as `kubectl logs --timestamps` would order it: seconds since `from`, then the text. */
function logs(c: Cluster, p: Pod, container: string, from: number): string[] {
  const lines = c.podLogs.kubelet('cpu-0')?.worker('default', p.metadata.name ?? '')?.logsOf(container)?.current?.lines() ?? [];
  return lines.map((l) => `${Math.round((l.at - from) / 100) / 10} ${l.text}`);
}

test('the sidecar Deployment: the logshipper prints each line the app appends, once a cluster second, after busybox tail -F\'s notices', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.deployments, fixture('deployment-sidecar.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    const p = await onlyPod(c);
    assert.equal(p.status?.phase, 'Running');
    const started = (s: { state?: { running?: { startedAt?: string } } } | undefined): number => Date.parse(s?.state?.running?.startedAt ?? '');
    const sidecarAt = started(p.status?.initContainerStatuses?.[0]);
    assert.ok(started(p.status?.containerStatuses?.[0]) >= sidecarAt, 'the sidecar starts before the app');
    const lines = logs(c, p, 'logshipper', sidecarAt);
    assert.deepEqual(lines.slice(0, 3).map((l) => l.replace(/^[\d.]+ /, '')), ["tail: can't open '/opt/logs.txt': No such file or directory", 'tail: /opt/logs.txt has appeared; following end of new file', 'logging']);
    const shipped = lines.filter((l) => l.endsWith(' logging')).map((l) => Number(l.split(' ')[0]));
    assert.ok(shipped.length >= 3, `a line a second: ${lines.join(' | ')}`);
    for (let i = 1; i < shipped.length; i++) assert.equal((shipped[i] as number) - (shipped[i - 1] as number), 1, 'one line per poll, a second apart');
    // The app's own log stays empty: its output goes to the file, which every container mounting the volume reads.
    assert.deepEqual(logs(c, p, 'myapp', 0), []);
    const target = c.podLogs.kubelet('cpu-0')?.worker('default', p.metadata.name ?? '')?.execTarget('myapp');
    assert.ok(target && 'context' in target);
    const text = execText(runExec(['cat', '/opt/logs.txt'], target.context));
    assert.equal(text, 'logging\n'.repeat(text.length / 8));
    assert.ok(text.length / 8 >= shipped.length, 'kubectl exec reads the same live file');
  } finally {
    await c.stop();
  }
});

test('the sidecar Job: the app writes its line and exits 0, the sidecar ships it, is stopped after the app, and the Job completes', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.jobs, fixture('job-sidecar.yaml'), { namespace: 'default' });
    await clock.advance(3_000);
    const p = await onlyPod(c);
    assert.deepEqual(logs(c, p, 'logshipper', 0).map((l) => l.replace(/^[\d.]+ /, '')), ["tail: can't open '/opt/logs.txt': No such file or directory", 'tail: /opt/logs.txt has appeared; following end of new file', 'logging']);
    assert.equal(p.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
    // tail is PID 1 with no handler: SIGTERM does nothing and the grace period (30 s) ends it.
    await clock.advance(40_000);
    const done = await c.client.get<Pod>(refs.pods, 'default', p.metadata.name ?? '');
    assert.equal(done.status?.phase, 'Succeeded');
    assert.equal(done.status?.initContainerStatuses?.[0]?.state?.terminated?.exitCode, 137);
    const job = await c.client.get<Job>(refs.jobs, 'default', 'myjob');
    assert.deepEqual([job.status?.succeeded, job.status?.conditions?.find((k) => k.type === 'Complete')?.status], [1, 'True']);
  } finally {
    await c.stop();
  }
});
