// ContainerRestartRules (KEP-5307, beta and on in 1.35) on a cluster on the VirtualClock: a container's
// own restartPolicy and exit-code rules override the pod's, the pod phase follows the kubelet's restart
// decision, and a Job sees a pod that restarts a container in place as one running pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs } from '../api/index.ts';
import type { Container, Event, Job, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

const fixture = <T>(name: string): T => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/restart-rules', name), 'utf8')) as T;

async function cluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  return { c: await Cluster.start({ config, clock, random: new SeededRandom(1), components: true }), clock };
}

const getPod = (c: Cluster, name: string): Promise<Pod> => c.client.get<Pod>(refs.pods, 'default', name);

function withCommand(p: Pod, command: string): Pod {
  const [first, ...rest] = p.spec.containers;
  return { ...p, spec: { ...p.spec, containers: [{ ...(first as Container), command: ['sh', '-c', command] }, ...rest] } };
}

test('pod restartPolicy Never, container rule Restart on 42: the container restarts in place and the pod stays Running', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, fixture<Pod>('retry-on-42-pod.yaml'), { namespace: 'default' });
    // Runs of 5 s, restarted after 0 s, then 10 s of crash-loop back-off.
    await clock.advance(25_000);
    const p = await getPod(c, 'retry-on-42');
    const s = p.status?.containerStatuses?.[0];
    assert.equal(p.status?.phase, 'Running');
    assert.equal(s?.restartCount, 2);
    assert.equal(s?.lastState?.terminated?.exitCode, 42);
    assert.equal(s?.lastState?.terminated?.reason, 'Error');
    const backoffs = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === 'BackOff');
    assert.equal(backoffs.length, 1, 'the second exit waits out the 10 s back-off, as any restart does');
  } finally {
    await c.stop();
  }
});

test('pod restartPolicy Never, container rule Restart on 42: another exit code follows the container restartPolicy and the pod fails', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, withCommand(fixture<Pod>('retry-on-42-pod.yaml'), 'sleep 5; exit 3'), { namespace: 'default' });
    await clock.advance(20_000);
    const p = await getPod(c, 'retry-on-42');
    assert.equal(p.status?.phase, 'Failed');
    assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0);
    assert.equal(p.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 3);
  } finally {
    await c.stop();
  }
});

test('container restartPolicy OnFailure in a Never pod: a failure restarts it, a clean exit completes the pod', async () => {
  const { c, clock } = await cluster();
  try {
    const base: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox', restartPolicy: 'OnFailure' }] } };
    await c.client.create(refs.pods, { ...withCommand(base, 'sleep 2; exit 1'), metadata: { name: 'fails' } }, { namespace: 'default' });
    await c.client.create(refs.pods, { ...withCommand(base, 'sleep 2; exit 0'), metadata: { name: 'succeeds' } }, { namespace: 'default' });
    await clock.advance(10_000);
    const fails = await getPod(c, 'fails');
    assert.equal(fails.status?.phase, 'Running');
    assert.ok((fails.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1);
    assert.equal((await getPod(c, 'succeeds')).status?.phase, 'Succeeded');
  } finally {
    await c.stop();
  }
});

test('a regular init container with restartPolicy OnFailure is retried in a Never pod; with Never it fails the pod', async () => {
  const { c, clock } = await cluster();
  try {
    const spec = (policy: 'OnFailure' | 'Never'): Pod['spec'] => ({
      restartPolicy: 'Never',
      initContainers: [{ name: 'fetch', image: 'busybox', command: ['sh', '-c', 'sleep 1; exit 1'], restartPolicy: policy }],
      containers: [{ name: 'app', image: 'nginx' }],
    });
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'retried' }, spec: spec('OnFailure') }, { namespace: 'default' });
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once' }, spec: spec('Never') }, { namespace: 'default' });
    await clock.advance(15_000);
    const retried = await getPod(c, 'retried');
    assert.equal(retried.status?.phase, 'Pending');
    assert.ok((retried.status?.initContainerStatuses?.[0]?.restartCount ?? 0) >= 1);
    const once = await getPod(c, 'once');
    assert.equal(once.status?.phase, 'Failed');
    assert.equal(once.status?.initContainerStatuses?.[0]?.restartCount, 0);
  } finally {
    await c.stop();
  }
});

test('a Job whose pod restarts its trainer on 42 keeps one active pod and no failures; exit 3 fails the Job', async () => {
  const { c, clock } = await cluster();
  try {
    const job = fixture<Job>('retry-on-42-job.yaml');
    await c.client.create(refs.jobs, job, { namespace: 'default' });
    const failing = structuredClone(job);
    failing.metadata.name = 'train-3';
    const tpl = failing.spec.template.spec as Pod['spec'];
    (tpl.containers[0] as Container).command = ['sh', '-c', 'sleep 5; exit 3'];
    await c.client.create(refs.jobs, failing, { namespace: 'default' });
    await clock.advance(30_000);
    const train = await c.client.get<Job>(refs.jobs, 'default', 'train');
    assert.equal(train.status?.active, 1);
    assert.equal(train.status?.failed ?? 0, 0);
    const pods = (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: 'job-name=train' })).items;
    assert.equal(pods.length, 1);
    assert.ok((pods[0]?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2);
    const train3 = await c.client.get<Job>(refs.jobs, 'default', 'train-3');
    assert.equal(train3.status?.failed, 1);
    assert.ok(train3.status?.conditions?.some((x) => x.type === 'Failed' && x.status === 'True' && x.reason === 'BackoffLimitExceeded'));
  } finally {
    await c.stop();
  }
});
