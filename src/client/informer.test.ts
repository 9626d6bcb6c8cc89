// An informer's indexes follow the server through updates that keep an object's indexed values
// (the bucket holds the newest object), updates that move it, and deletes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from '../apiserver/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { Informer } from './informer.ts';
import { SharedInformers, informerFor } from './shared-informers.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };

const configMap = (name: string, tier: string, value: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { tier } }, data: { value } });

/** A server holding ConfigMap default/a (tier web, value 1) and an informer of ConfigMaps indexed by tier, not started. */
async function tieredConfigMaps() {
  const clock = new VirtualClock();
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  await client.create(refs.configMaps, configMap('a', 'web', '1'));
  const informer = new Informer<ConfigMap>({ client, ref: refs.configMaps, clock });
  informer.addIndex('tier', (cm) => [cm.metadata.labels?.tier ?? '']);
  return { client, informer };
}

/** Turns until `done`, as an informer's deliveries take a few; fails if they never catch up. */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(done(), 'the informer caught up');
}

test('an index holds the newest object under each value, moves it when its value changes, and drops it when deleted', async () => {
  const { client, informer } = await tieredConfigMaps();
  informer.start();
  await informer.waitForSync();
  const values = (tier: string): string[] => informer.byIndex('tier', tier).map((cm) => `${cm.metadata.name}=${cm.data?.value}`).sort();

  const a = await client.get<ConfigMap>(refs.configMaps, 'default', 'a');
  await client.update(refs.configMaps, { ...a, data: { value: '2' } });
  await settle(() => informer.getByName('default', 'a')?.data?.value === '2');
  assert.deepEqual(values('web'), ['a=2'], 'same value: the bucket holds the new object');

  await client.create(refs.configMaps, configMap('b', 'web', '1'));
  const a2 = await client.get<ConfigMap>(refs.configMaps, 'default', 'a');
  await client.update(refs.configMaps, { ...a2, metadata: { ...a2.metadata, labels: { tier: 'db' } }, data: { value: '3' } });
  await settle(() => informer.getByName('default', 'a')?.data?.value === '3' && informer.getByName('default', 'b') !== undefined);
  assert.deepEqual(values('web'), ['b=1']);
  assert.deepEqual(values('db'), ['a=3']);

  await client.delete(refs.configMaps, 'default', 'a');
  await settle(() => informer.getByName('default', 'a') === undefined);
  assert.deepEqual(values('db'), []);
  assert.deepEqual(values('web'), ['b=1']);
  informer.stop();
});

test('shared informers: one list and watch for every user, indexes added late are built, and it runs until the last user stops', async () => {
  const clock = new VirtualClock();
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const base = createLocalClient(server);
  let lists = 0;
  const list = base.list.bind(base);
  base.list = ((...args: Parameters<typeof base.list>) => (lists++, list(...args))) as typeof base.list;
  const client = base;
  await base.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  await base.create(refs.configMaps, configMap('a', 'web', '1'));
  const factory = new SharedInformers();
  const first = informerFor<ConfigMap>(factory, { client, ref: refs.configMaps, clock });
  const second = informerFor<ConfigMap>(factory, { client, ref: refs.configMaps, clock });
  assert.equal(first, second);
  assert.notEqual(informerFor<ConfigMap>(factory, { client, ref: refs.configMaps, clock, labelSelector: 'tier=db' }), first, 'other selectors, another informer');
  first.start();
  await first.waitForSync();
  const seen: string[] = [];
  second.addHandlers({ onAdd: (cm) => seen.push(cm.metadata.name ?? '') });
  second.addIndex('tier', (cm) => [cm.metadata.labels?.tier ?? '']);
  second.start();
  assert.deepEqual([lists, seen, second.byIndex('tier', 'web').map((cm) => cm.metadata.name)], [1, ['a'], ['a']]);
  first.stop();
  await base.create(refs.configMaps, configMap('b', 'web', '1'));
  for (let i = 0; i < 100 && !second.getByName('default', 'b'); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(second.getByName('default', 'b'), 'still watching after one of two users stopped');
  second.stop();
  await base.create(refs.configMaps, configMap('c', 'web', '1'));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(second.getByName('default', 'c'), undefined, 'stopped with its last user');
});

test('a handler that throws is logged; the cache and the other handlers go on', async () => {
  const clock = new VirtualClock();
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const logged: string[] = [];
  const informer = new Informer<ConfigMap>({ client, ref: refs.configMaps, clock, log: (line) => logged.push(line) });
  const seen: string[] = [];
  informer.addHandlers({
    onAdd: (cm) => {
      if (cm.metadata.name === 'odd') throw new TypeError('Cannot convert undefined or null to object');
    },
    onUpdate: () => {
      throw new Error('update handler bug');
    },
  });
  informer.addHandlers({ onAdd: (cm) => seen.push(`add ${cm.metadata.name}`), onUpdate: (_old, cm) => seen.push(`update ${cm.metadata.name}`) });
  informer.start();
  await informer.waitForSync();
  await client.create(refs.configMaps, configMap('odd', 'web', '1'));
  await client.create(refs.configMaps, configMap('next', 'web', '1'));
  const odd = await client.get<ConfigMap>(refs.configMaps, 'default', 'odd');
  await client.update(refs.configMaps, { ...odd, data: { value: '2' } });
  for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(seen, ['add odd', 'add next', 'update odd']);
  assert.equal(informer.getByName('default', 'odd')?.data?.value, '2');
  assert.equal(logged.length, 2);
  assert.match(logged[0] ?? '', /^informer configmaps: handler failed on default\/odd: TypeError: Cannot convert undefined or null to object/);
  assert.match(logged[1] ?? '', /handler failed on default\/odd: Error: update handler bug/);
  informer.stop();
});

test('get, list and every index hand out the same newest object after updates that keep the indexed values, an index added late too', async () => {
  const { client, informer } = await tieredConfigMaps();
  informer.addIndex('namespace', (cm) => [cm.metadata.namespace ?? '']);
  informer.start();
  await informer.waitForSync();
  for (const value of ['2', '3']) {
    const a = await client.get<ConfigMap>(refs.configMaps, 'default', 'a');
    await client.update(refs.configMaps, { ...a, data: { value } });
    await settle(() => informer.getByName('default', 'a')?.data?.value === value);
  }
  informer.addIndex('value', (cm) => [cm.data?.value ?? '']);
  const newest = informer.getByName('default', 'a');
  assert.equal(newest?.data?.value, '3');
  const handedOut = [informer.list()[0], informer.byIndex('tier', 'web')[0], informer.byIndex('namespace', 'default')[0], informer.byIndex('value', '3')[0]];
  assert.deepEqual(handedOut.map((cm) => cm === newest), [true, true, true, true]);
  assert.deepEqual(informer.byIndex('value', '1'), []);
  informer.stop();
});
