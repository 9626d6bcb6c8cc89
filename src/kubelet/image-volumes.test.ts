import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

async function start(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  return { c: await Cluster.start({ config, clock, random: new SeededRandom(1), components: true }), clock };
}

const modelPod = (name: string, pullPolicy?: 'Always' | 'IfNotPresent' | 'Never'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    volumes: [{ name: 'model', image: { reference: 'quay.io/acme/model-weights:v1', ...(pullPolicy ? { pullPolicy } : {}) } }],
    containers: [
      { name: 'server', image: 'nginx:1.27', volumeMounts: [{ name: 'model', mountPath: '/models', subPath: 'llama' }] },
      { name: 'sidecar', image: 'nginx:1.27' },
    ],
  },
});

/** The pod's events as `kubectl describe` lists them: reason, the container they name (or none), message. */
async function podEvents(c: Cluster, name: string): Promise<string[][]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject.name === name && e.reason !== 'Scheduled')
    .map((e) => [e.reason ?? '', e.involvedObject.fieldPath ?? '', e.message ?? '']);
}

test('the kubelet pulls an image volume before the container that mounts it, with events on the pod', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.pods, modelPod('first'), { namespace: 'default' });
    await clock.advance(10_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'first');
    assert.equal(p.status?.phase, 'Running');
    const events = await podEvents(c, 'first');
    const volumeEvents = events.filter(([, fieldPath]) => fieldPath === '');
    assert.deepEqual(volumeEvents.map(([reason]) => reason), ['Pulling', 'Pulled']);
    assert.equal(volumeEvents[0]?.[2], 'Pulling image "quay.io/acme/model-weights:v1"');
    assert.match(volumeEvents[1]?.[2] ?? '', /^Successfully pulled image "quay\.io\/acme\/model-weights:v1" in /);
    assert.deepEqual(events.slice(0, 3).map(([reason, fieldPath]) => [reason, fieldPath]), [['Pulling', ''], ['Pulled', ''], ['Pulling', 'spec.containers{server}']]);
    const node = await c.client.get<Node>(refs.nodes, undefined, p.spec.nodeName ?? '');
    assert.ok(node.status?.images?.some((i) => i.names?.includes('quay.io/acme/model-weights:v1')));
  } finally {
    await c.stop();
  }
});

test('an image volume already on the node is not pulled again under IfNotPresent; Always pulls it', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.pods, modelPod('first'), { namespace: 'default' });
    await clock.advance(10_000);
    await c.client.create(refs.pods, modelPod('second'), { namespace: 'default' });
    await c.client.create(refs.pods, modelPod('third', 'Always'), { namespace: 'default' });
    await clock.advance(10_000);
    const podLevel = async (name: string) => (await podEvents(c, name)).filter(([, fieldPath]) => fieldPath === '').map(([reason, , message]) => [reason, (message ?? '').split(' in ')[0]]);
    assert.deepEqual(await podLevel('second'), [['Pulled', 'Container image "quay.io/acme/model-weights:v1" already present on machine and can be accessed by the pod']]);
    assert.deepEqual(await podLevel('third'), [['Pulling', 'Pulling image "quay.io/acme/model-weights:v1"'], ['Pulled', 'Successfully pulled image "quay.io/acme/model-weights:v1"']]);
  } finally {
    await c.stop();
  }
});

test('one sync starting several containers pulls the image volume once, however many of them mount it', async () => {
  const { c, clock } = await start();
  try {
    const p = modelPod('shared');
    p.spec.containers[1]!.volumeMounts = [{ name: 'model', mountPath: '/models' }];
    await c.client.create(refs.pods, p, { namespace: 'default' });
    await clock.advance(10_000);
    assert.equal((await c.client.get<Pod>(refs.pods, 'default', 'shared')).status?.phase, 'Running');
    const podLevel = (await podEvents(c, 'shared')).filter(([, fieldPath]) => fieldPath === '').map(([reason]) => reason);
    assert.deepEqual(podLevel, ['Pulling', 'Pulled']);
    await clock.advance(60_000);
    assert.deepEqual((await podEvents(c, 'shared')).filter(([, fieldPath]) => fieldPath === '').length, 2, 'a running pod pulls nothing more');
  } finally {
    await c.stop();
  }
});
