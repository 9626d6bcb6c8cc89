import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { EventTtl, defaultEventTtlMs } from './event-ttl.ts';
import { storageKey } from './stored-object.ts';

const minute = 60_000;

test('an Event is deleted an hour after its last write, which each write renews; other resources are left alone', async () => {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const key = (name: string): string => storageKey({ group: '', resource: 'events', namespace: 'default', name });
  await store.create(key('stored-before-start'), '{}');
  const ttl = new EventTtl(store, clock);
  await ttl.start();
  await store.create(key('a'), '{}');
  const b = await store.create(key('b'), '{}');
  const pod = storageKey({ group: '', resource: 'pods', namespace: 'default', name: 'web' });
  await store.create(pod, '{}');
  await clock.advance(30 * minute);
  await store.update(key('b'), '{"count":2}', b.modRevision);
  await clock.advance(31 * minute);
  const names = async (): Promise<string[]> => (await store.list(storageKey({ group: '', resource: 'events', namespace: 'default', name: '' }))).items.map((kv) => kv.key.split('/').pop() ?? '');
  // 61 minutes: a's hour is up; b was written again at 30; the one stored before the start got an hour from then.
  assert.deepEqual(await names(), ['b']);
  await clock.advance(30 * minute);
  assert.deepEqual(await names(), []);
  assert.ok(await store.get(pod));
  assert.equal(defaultEventTtlMs, 60 * minute);
  ttl.stop();
});
