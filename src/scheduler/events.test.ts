// The scheduler's event recorder writes as client-go's events broadcaster does: an event once, its
// series once at count 2, then only on the 30-minute refresh and when the series has been idle for
// 6 minutes, so a pod that keeps failing does not cost a write per attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Event, Pod } from '../api/index.ts';
import { builtinDefinitions, refs } from '../api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from '../apiserver/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { EventRecorder, truncateMessage } from './events.ts';

const failed = { type: 'Warning' as const, reason: 'FailedScheduling', action: 'Scheduling', message: '0/3 nodes are available: 3 Insufficient cpu.' };

test('repeats are counted; the series is written at count 2, on the refresh, and once idle', async () => {
  const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const recorder = new EventRecorder({ client, clock, log: () => {} });
  const pod = { metadata: { name: 'big', namespace: 'default', uid: 'u1' }, spec: { containers: [] } } as unknown as Pod;
  let writes = 0;
  const watch = client.watch(refs.events, { namespace: 'default', resourceVersion: '0' }, () => writes++);
  const events = async (): Promise<Event[]> => (await client.list<Event>(refs.events, { namespace: 'default' })).items;

  recorder.record(pod, failed);
  await recorder.flush();
  await clock.advance(10_000);
  recorder.record(pod, failed);
  await recorder.flush();
  assert.deepEqual((await events()).map((e) => e.series?.count), [2], 'the first repeat starts the series');
  for (let i = 0; i < 5; i++) {
    await clock.advance(10_000);
    recorder.record(pod, failed);
  }
  await recorder.flush();
  await clock.advance(1);
  assert.equal(writes, 2, 'later repeats are only counted');
  assert.equal((await events())[0]?.series?.count, 2);

  // Idle for 6 minutes: finishSeries sends the last count and forgets it; the next failure is a new event.
  await clock.advance(12 * 60_000);
  await recorder.flush();
  const [e] = await events();
  assert.equal(e?.series?.count, 7);
  assert.equal(e?.series?.lastObservedTime, '2026-12-04T10:01:00.000000Z');
  recorder.record(pod, failed);
  await recorder.flush();
  assert.equal((await events()).length, 2);
  recorder.stop();
  watch.stop();
});

test('a FailedScheduling note past 1024 characters is stored cut to 1020 and " ..."', async () => {
  const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const recorder = new EventRecorder({ client, clock, log: () => {} });
  const pod = { metadata: { name: 'big', namespace: 'default', uid: 'u1' }, spec: { containers: [] } } as unknown as Pod;
  const long = `0/300 nodes are available: ${Array.from({ length: 60 }, (_, i) => `1 node(s) had untolerated taint(s) ${i}`).join(', ')}.`;
  recorder.record(pod, { ...failed, message: long });
  await recorder.flush();
  const [e] = (await client.list<Event>(refs.events, { namespace: 'default' })).items;
  assert.equal(e?.message, `${long.slice(0, 1020)} ...`);
  assert.equal(e?.message?.length, 1024);
  assert.equal(truncateMessage(long.slice(0, 1024)), long.slice(0, 1024));
  recorder.stop();
});
