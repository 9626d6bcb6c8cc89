// HPA scenario tests on the VirtualClock: an in-process cluster, a Deployment whose pods use what
// their behaviour annotation says, and an autoscaling/v2 HPA over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Event, HorizontalPodAutoscaler } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import { hpaRef } from './sync.ts';

async function start(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 2, capacity: { cpu: '16', memory: '32Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(7), components: true });
  return { c, clock };
}

async function deployment(c: Cluster, name: string, cpu: string): Promise<void> {
  await c.client.create(refs.deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name }, annotations: { 'sim.drydock.dev/main': `cpu: ${cpu}` } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '200m' } } }] } },
    },
  } as Deployment, { namespace: 'default' });
}

async function hpa(c: Cluster, name: string, spec: Partial<HorizontalPodAutoscaler['spec']>): Promise<void> {
  await c.client.create(hpaRef, {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name, namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }], ...spec },
  } as HorizontalPodAutoscaler, { namespace: 'default' });
}

const getHpa = (c: Cluster, name: string): Promise<HorizontalPodAutoscaler> => c.client.get<HorizontalPodAutoscaler>(hpaRef, 'default', name);
const replicas = async (c: Cluster, name: string): Promise<number | undefined> => (await c.client.get<Deployment>(refs.deployments, 'default', name)).spec.replicas;
const events = async (c: Cluster, name: string): Promise<string[]> =>
  (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === name && e.involvedObject.kind === 'HorizontalPodAutoscaler').map((e) => `${e.type} ${e.reason} ${e.message}`);

test('HPA scales a Deployment using 400m of 200m requests (200% vs 50%) up by the legacy max(2x, 4) rate, then to maxReplicas', async () => {
  const { c, clock } = await start();
  try {
    await deployment(c, 'web', '400m');
    await hpa(c, 'web', {});
    await clock.advance(16_000);
    assert.equal(await replicas(c, 'web'), 4, 'ceil(1 * 200 / 50) = 4 in the first sync');
    let h = await getHpa(c, 'web');
    assert.equal(h.status?.desiredReplicas, 4);
    assert.equal(h.status?.currentReplicas, 1);
    assert.deepEqual(h.status?.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '400m' } } }]);
    assert.deepEqual(h.status?.conditions?.map((x) => [x.type, x.status, x.reason, x.message]), [
      ['AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 4'],
      ['ScalingActive', 'True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)'],
      ['ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range'],
    ]);
    assert.ok(h.status?.lastScaleTime);
    // New pods need a metrics window after becoming ready; by then 4 x 200% asks for 16, capped at 5.
    await clock.advance(120_000);
    assert.equal(await replicas(c, 'web'), 5);
    h = await getHpa(c, 'web');
    assert.deepEqual(h.status?.conditions?.find((x) => x.type === 'ScalingLimited')?.reason, 'TooManyReplicas');
    assert.deepEqual(await events(c, 'web'), [
      'Normal SuccessfulRescale New size: 4; reason: cpu resource utilization (percentage of request) above target',
      'Normal SuccessfulRescale New size: 5; reason: cpu resource utilization (percentage of request) above target',
    ]);
  } finally {
    await c.stop();
  }
});

test('HPA below target holds the scale-down for the 300 s stabilization window, then scales to the recommendation', async () => {
  const { c, clock } = await start();
  try {
    await deployment(c, 'idle', '20m');
    await c.client.patch(refs.deployments, 'default', 'idle', 'merge', { spec: { replicas: 4 } });
    await hpa(c, 'idle', {});
    await clock.advance(60_000);
    assert.equal(await replicas(c, 'idle'), 4);
    assert.equal((await getHpa(c, 'idle')).status?.conditions?.find((x) => x.type === 'AbleToScale')?.reason, 'ScaleDownStabilized');
    await clock.advance(300_000);
    assert.equal(await replicas(c, 'idle'), 1, '10% of requests: ceil(4 * 10 / 50) = 1 once the window passes');
    assert.deepEqual((await events(c, 'idle')).at(-1), 'Normal SuccessfulRescale New size: 1; reason: All metrics below target');
  } finally {
    await c.stop();
  }
});

test('HPA whose target does not exist reports FailedGetScale', async () => {
  const { c, clock } = await start();
  try {
    await hpa(c, 'ghost', {});
    await clock.advance(16_000);
    const cond = (await getHpa(c, 'ghost')).status?.conditions?.[0];
    assert.deepEqual([cond?.type, cond?.status, cond?.reason, cond?.message], ['AbleToScale', 'False', 'FailedGetScale', 'the HPA controller was unable to get the target\'s current scale: deployments.apps "ghost" not found']);
    assert.deepEqual(await events(c, 'ghost'), ['Warning FailedGetScale deployments.apps "ghost" not found']);
  } finally {
    await c.stop();
  }
});
