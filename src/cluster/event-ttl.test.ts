// kube-apiserver's --event-ttl on the cluster's clock: an Event is gone an hour after its last write,
// through both Event APIs, and a watcher sees it go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';

const event = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, reason: 'Tested', message: name, type: 'Normal', count: 1 } as unknown as KubeObject);

test('an Event lives an hour after its last write, and its deletion reaches watchers', async () => {
  const clock = new VirtualClock();
  await using c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(3), components: false });
  const names = async (): Promise<string[]> => (await c.client.list<KubeObject>(refs.events, { namespace: 'default' })).items.map((e) => e.metadata.name ?? '').sort();
  await c.client.create(refs.events, event('once'), { namespace: 'default' });
  const again = await c.client.create<KubeObject>(refs.events, event('again'), { namespace: 'default' });
  const deleted: string[] = [];
  // Past the server's own watch timeout (30 to 60 minutes) the watch would end: asked for longer.
  const watch = c.client.watch<KubeObject>(refs.events, { namespace: 'default', timeoutSeconds: 10_000 }, (e) => {
    if (e.type === 'DELETED') deleted.push(e.object.metadata.name ?? '');
  });
  await clock.advance(50 * 60_000);
  await c.client.update(refs.events, { ...again, count: 2 } as KubeObject);
  await clock.advance(12 * 60_000);
  assert.deepEqual(await names(), ['again']);
  assert.deepEqual((await c.client.list<KubeObject>(refs.eventsV1, { namespace: 'default' })).items.map((e) => e.metadata.name), ['again']);
  await clock.advance(60 * 60_000);
  assert.deepEqual(await names(), []);
  assert.deepEqual(deleted, ['once', 'again']);
  watch.stop();
});
