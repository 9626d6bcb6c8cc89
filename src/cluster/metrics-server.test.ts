// The resource metrics API on the VirtualClock: PodMetrics and NodeMetrics from the simulated
// kubelets' usage, as kubectl top and the autoscalers read them through metrics.k8s.io.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricsRefs, refs } from '../api/index.ts';
import type { NodeMetrics, Pod, PodMetrics } from '../api/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';

async function start(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true });
  return { c, clock };
}

function pod(name: string, behaviour: string, limits?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name }, annotations: { 'sim.drydock.dev/main': behaviour } },
    spec: { containers: [{ name: 'main', image: 'nginx', ...(limits ? { resources: { limits, requests: limits } } : {}) }] },
  };
}

test('metrics.k8s.io: pod usage follows the behaviour model, capped by the CPU limit, memory ramps with age', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.pods, pod('web', 'cpu: 250m\nmemory: 100Mi->200Mi/100s'), { namespace: 'default' });
    await c.client.create(refs.pods, pod('capped', 'cpu: "2"\nmemory: 64Mi', { cpu: '500m', memory: '1Gi' }), { namespace: 'default' });
    await clock.advance(50_000);
    const web = await c.client.get<PodMetrics>(metricsRefs.pods, 'default', 'web');
    assert.equal(web.window, '15s');
    // Quantities in their canonical form, as a Quantity's JSON gives them: 250000000n is 250m.
    assert.deepEqual(web.containers, [{ name: 'main', usage: { cpu: '250m', memory: '150Mi' } }]);
    const list = await c.client.list<PodMetrics>(metricsRefs.pods, { namespace: 'default', labelSelector: 'app=capped' });
    assert.equal(list.kind, 'PodMetricsList');
    assert.deepEqual(list.items.map((m) => [m.metadata.name, m.containers[0]?.usage]), [['capped', { cpu: '500m', memory: '64Mi' }]]);
    const nodes = await c.client.list<NodeMetrics>(metricsRefs.nodes);
    assert.deepEqual(nodes.items.map((n) => [n.metadata.name, n.usage]), [['cpu-0', { cpu: '750m', memory: '214Mi' }]]);
  } finally {
    await c.stop();
  }
});

test('metrics.k8s.io: a pod without metrics is NotFound as metrics-server words it; writes are refused', async () => {
  const { c } = await start();
  try {
    await assert.rejects(c.client.get(metricsRefs.pods, 'default', 'nope'), (e: unknown) => isApiError(e) && e.message === 'podmetrics.metrics.k8s.io "default/nope" not found');
    await assert.rejects(c.client.get(metricsRefs.nodes, undefined, 'nope'), (e: unknown) => isApiError(e) && e.message === 'nodemetrics.metrics.k8s.io "nope" not found');
    await assert.rejects(c.client.create(metricsRefs.pods, { metadata: { name: 'x' } }, { namespace: 'default' }), (e: unknown) => isApiError(e) && e.code === 405);
    const discovered = (await c.client.discover()).filter((r) => r.group === 'metrics.k8s.io').map((r) => [r.resource, r.kind, r.namespaced, [...r.verbs]]);
    assert.deepEqual(discovered, [['pods', 'PodMetrics', true, ['get', 'list']], ['nodes', 'NodeMetrics', false, ['get', 'list']]]);
  } finally {
    await c.stop();
  }
});
