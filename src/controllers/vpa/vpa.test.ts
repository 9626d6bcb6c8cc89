// VPA scenario tests on the VirtualClock: an in-process cluster with one simulated node, a
// Deployment whose pods use what their behaviour annotation says, and a VPA over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Event, Pod } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import { vpaRef } from './types.ts';
import type { UpdateMode, VerticalPodAutoscaler } from './types.ts';

async function start(cpu = '4'): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu, memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  return { c, clock };
}

async function deployment(c: Cluster, name: string, replicas: number, behaviour: string, requests: Record<string, string>): Promise<void> {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { 'sim.drydock.dev/main': behaviour } },
        spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests } }] },
      },
    },
  } as Deployment;
  await c.client.create(refs.deployments, d, { namespace: 'default' });
}

async function vpa(c: Cluster, name: string, target: string, mode: UpdateMode, extra: Partial<VerticalPodAutoscaler['spec']> = {}): Promise<void> {
  const v: VerticalPodAutoscaler = { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name, namespace: 'default' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, updatePolicy: { updateMode: mode }, ...extra } };
  await c.client.create(vpaRef, v, { namespace: 'default' });
}

const getVpa = (c: Cluster, name: string): Promise<VerticalPodAutoscaler> => c.client.get<VerticalPodAutoscaler>(vpaRef, 'default', name);
const pods = async (c: Cluster, app: string): Promise<Pod[]> => (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
const reasons = async (c: Cluster, reason: string): Promise<Event[]> => (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === reason);

test('VPA recommender: steady 200m / 300Mi gives the p90 bucket end plus 15%, bounds around it, capped by maxAllowed', async () => {
  const { c, clock } = await start();
  try {
    await deployment(c, 'web', 1, 'cpu: 200m\nmemory: 300Mi', { cpu: '100m', memory: '100Mi' });
    await vpa(c, 'web', 'web', 'Off');
    await vpa(c, 'capped', 'web', 'Off', { resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed: { cpu: '100m' } }] } });
    await clock.advance(3600_000);
    const v = await getVpa(c, 'web');
    const rec = v.status?.recommendation?.containerRecommendations?.[0];
    // 0.2 cores sits in the bucket [0.1960, 0.2158): 0.2158 * 1.15 = 248m; 300Mi in [3.1426e8, 3.3066e8): 3.3066e8 * 1.15.
    assert.deepEqual(rec?.target, { cpu: '248m', memory: '380258472' });
    const lower = Number.parseInt(rec?.lowerBound?.cpu ?? '');
    const upper = Number.parseInt(rec?.upperBound?.cpu ?? '');
    assert.ok(lower <= 248 && upper >= 248, `${lower} <= 248 <= ${upper}`);
    assert.equal(rec?.containerName, 'main');
    const cond = v.status?.conditions?.find((x) => x.type === 'RecommendationProvided');
    assert.equal(cond?.status, 'True');
    const capped = (await getVpa(c, 'capped')).status?.recommendation?.containerRecommendations?.[0];
    assert.equal(capped?.target.cpu, '100m');
    assert.equal(capped?.uncappedTarget?.cpu, '248m');
    assert.equal((await pods(c, 'web')).length, 1);
    assert.deepEqual(await reasons(c, 'EvictedByVPA'), []);
  } finally {
    await c.stop();
  }
});

test('VPA recommender: a container OOMKilled at its 256Mi limit gets a memory target above what usage alone gives', async () => {
  const { c, clock } = await start();
  try {
    const d: Deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'hungry', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'hungry' } }, template: { metadata: { labels: { app: 'hungry' }, annotations: { 'sim.drydock.dev/main': 'memory: 200Mi->400Mi/30s' } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { memory: '200Mi' }, limits: { memory: '256Mi' } } }] } } },
    } as Deployment;
    await c.client.create(refs.deployments, d, { namespace: 'default' });
    await vpa(c, 'hungry', 'hungry', 'Off');
    await clock.advance(3600_000);
    const [pod] = await pods(c, 'hungry');
    assert.equal(pod?.status?.containerStatuses?.[0]?.lastState?.terminated?.reason, 'OOMKilled');
    const target = Number((await getVpa(c, 'hungry')).status?.recommendation?.containerRecommendations?.[0]?.target.memory);
    // RecordOOM: max(request 200Mi, the interval's peak) bumped by max(+100Mi, x1.2), plus the 15% margin.
    assert.ok(target >= 356 * 1024 * 1024 * 1.15, `target ${target} holds the OOM bump`);
  } finally {
    await c.stop();
  }
});

test('VPA InPlaceOrRecreate: pods using 400m with 50m requests are resized in place, one at a time; same uid, no restart', async () => {
  const { c, clock } = await start();
  try {
    await deployment(c, 'api', 3, 'cpu: 400m\nmemory: 200Mi', { cpu: '50m', memory: '256Mi' });
    await clock.advance(30_000);
    const before = new Map((await pods(c, 'api')).map((p) => [p.metadata.name, p.metadata.uid]));
    await vpa(c, 'api', 'api', 'InPlaceOrRecreate');
    // Samples at 60s and 120s narrow the lower bound past 50m; the updater acts at 180s.
    await clock.advance(2 * 60_000 + 45_000);
    assert.equal((await reasons(c, 'InPlaceResizedByVPA')).filter((e) => e.involvedObject.kind === 'Pod').length, 1, 'one pod in flight (int(3 * 0.5) = 1)');
    await clock.advance(5 * 60_000);
    const after = await pods(c, 'api');
    assert.deepEqual(new Map(after.map((p) => [p.metadata.name, p.metadata.uid])), before);
    for (const p of after) {
      assert.equal(p.spec.containers[0]?.resources?.requests?.cpu, '476m');
      assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0);
      assert.equal(p.status?.containerStatuses?.[0]?.resources?.requests?.cpu, '476m');
    }
    const events = await reasons(c, 'InPlaceResizedByVPA');
    assert.equal(events.filter((e) => e.involvedObject.kind === 'Pod').length, 3);
    assert.equal(events[0]?.message, 'Pod was resized in place by VPA Updater.');
    assert.deepEqual(await reasons(c, 'EvictedByVPA'), []);
  } finally {
    await c.stop();
  }
});

test('VPA InPlaceOrRecreate: a resize the node cannot fit (Infeasible) is followed by eviction; the new pod gets the target at admission', async () => {
  const { c, clock } = await start('4');
  try {
    await deployment(c, 'big', 1, 'cpu: "6"\nmemory: 200Mi', { cpu: '1', memory: '256Mi' });
    await clock.advance(30_000);
    const [old] = await pods(c, 'big');
    await vpa(c, 'big', 'big', 'InPlaceOrRecreate', { updatePolicy: { updateMode: 'InPlaceOrRecreate', minReplicas: 1 } });
    await clock.advance(4 * 60_000);
    const evicted = await reasons(c, 'EvictedByVPA');
    assert.equal(evicted.length, 1);
    assert.equal(evicted[0]?.message, 'Pod was evicted by VPA Updater to apply resource recommendation.');
    assert.equal(evicted[0]?.involvedObject.uid, old?.metadata.uid);
    const [replacement] = await pods(c, 'big');
    assert.notEqual(replacement?.metadata.uid, old?.metadata.uid);
    assert.equal(replacement?.spec.containers[0]?.resources?.requests?.cpu, '7117m');
    assert.equal(replacement?.metadata.annotations?.vpaUpdates, 'Pod resources updated by big: container 0: cpu request, memory request');
  } finally {
    await c.stop();
  }
});
