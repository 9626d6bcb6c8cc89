// client-go's event correlation as a user sees it in `kubectl get events`: repeats counted on one Event,
// an object's many messages of one reason combined, a source's burst about one object limited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock, formatTime } from '../core/index.ts';
import { CoreEventWriter, eventNanos } from './event-correlator.ts';

function event(clock: VirtualClock, reason: string, message: string, object = 'web'): Event {
  const now = clock.now();
  return {
    metadata: { name: `${object}.${eventNanos(now).toString(16)}`, namespace: 'default' },
    involvedObject: { kind: 'Deployment', namespace: 'default', name: object, uid: `uid-${object}`, apiVersion: 'apps/v1' },
    reason,
    message,
    source: { component: 'deployment-controller' },
    firstTimestamp: formatTime(now),
    lastTimestamp: formatTime(now),
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'deployment-controller',
    reportingInstance: '',
  };
}

async function start() {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(1), components: false });
  const writer = new CoreEventWriter({ client: cluster.client, clock, log: () => {} });
  const events = async () => (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.source?.component === 'deployment-controller');
  return { clock, cluster, writer, events };
}

test('the same event written twice at once is one Event with count 2, not two', async () => {
  const { clock, cluster, writer, events } = await start();
  await using _ = cluster;
  writer.write(event(clock, 'ExternalProvisioning', 'Waiting for a volume to be created'), 'test');
  writer.write(event(clock, 'ExternalProvisioning', 'Waiting for a volume to be created'), 'test');
  await clock.advance(10);
  const all = await events();
  assert.deepEqual(all.map((e) => [e.reason, e.count]), [['ExternalProvisioning', 2]]);
});

test('an object\'s tenth distinct message of one reason within 10 minutes is combined, and later ones count on it', async () => {
  const { clock, cluster, writer, events } = await start();
  await using _ = cluster;
  for (let i = 1; i <= 12; i++) {
    writer.write(event(clock, 'ScalingReplicaSet', `Scaled up replica set web-${i} from 0 to 1`), 'test');
    await clock.advance(1_000);
  }
  const all = (await events()).sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? ''));
  assert.equal(all.length, 10, 'nine events of their own, then one combined');
  assert.equal(all[8]?.message, 'Scaled up replica set web-9 from 0 to 1');
  assert.deepEqual([all[9]?.message, all[9]?.count], ['(combined from similar events): Scaled up replica set web-12 from 0 to 1', 3]);
});

test('a source may burst 25 events about one object, then one every 5 minutes', async () => {
  const { clock, cluster, writer, events } = await start();
  await using _ = cluster;
  const reasons = Array.from({ length: 30 }, (_, i) => `Reason${i}`);
  for (const reason of reasons) writer.write(event(clock, reason, 'm'), 'test');
  await clock.advance(10);
  assert.equal((await events()).length, 25);
  writer.write(event(clock, 'Other', 'm', 'api'), 'test');
  await clock.advance(10);
  assert.equal((await events()).length, 26, 'another object has its own allowance');
  await clock.advance(300_000);
  writer.write(event(clock, 'Late', 'm'), 'test');
  writer.write(event(clock, 'Later', 'm'), 'test');
  await clock.advance(10);
  assert.deepEqual((await events()).filter((e) => e.reason?.startsWith('Late')).map((e) => e.reason), ['Late']);
});
