import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyValue } from '../storage/index.ts';
import type { KubeObject } from '../core/index.ts';
import { TurnCache, encodeForStorage, encodeOwnedForStorage, rememberStoredObject, storedJson, storedObject } from './stored-object.ts';

const kv = (n: number): KeyValue => ({ key: `/registry/core/configmaps/default/c${n}`, value: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${n}"}}`, createRevision: n, modRevision: n });

test('storedJson stamps the resourceVersion into the stored text', () => {
  assert.equal(storedJson(kv(7)), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"7","name":"c7"}}');
  assert.equal(storedJson({ ...kv(8), value: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}' }), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"8"}}');
});

test('TurnCache keeps values for the turn only, one per revision slot, so nothing read once stays for good', async () => {
  const cache = new TurnCache<string>(4);
  const values = [kv(1), kv(2), kv(3), kv(5)];
  for (const v of values) cache.set(v, v.key);
  // Revision 5 takes revision 1's slot.
  assert.deepEqual(values.map((v) => cache.get(v)), [undefined, values[1]?.key, values[2]?.key, values[3]?.key]);
  assert.equal(cache.get({ ...(values[1] as KeyValue) }), undefined, 'another value with the same revision is another entry');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(values.map((v) => cache.get(v)), [undefined, undefined, undefined, undefined]);
  cache.set(values[0] as KeyValue, 'again');
  assert.equal(cache.get(values[0] as KeyValue), 'again');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(cache.get(values[0] as KeyValue), undefined);
});

test('an update encodes to the same text whether it reuses the live text of the values it keeps or not', () => {
  const specFields = { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } } } };
  const statusFields = { 'f:status': { 'f:phase': {} } };
  const pod = (): KubeObject => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', namespace: 'default', resourceVersion: '5', labels: {}, managedFields: [{ manager: 'm', operation: 'Update', fieldsV1: specFields }, { manager: 'k', fieldsV1: statusFields, subresource: 'status', time: undefined }] },
    spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'A', value: 'é "quoted" \u2028' }] }], nodeName: undefined, priority: 0 },
    status: { phase: 'Pending', conditions: [] },
    extra: null,
  } as KubeObject);
  // The live object as an update stored it (a create's encoding records no spans).
  const created = pod();
  const live = pod();
  const liveText = encodeOwnedForStorage(live, { object: created, text: encodeOwnedForStorage(created) });
  assert.equal(liveText, encodeForStorage(pod()));
  const writes: [string, KubeObject][] = [
    ['a status write keeps spec', { ...live, metadata: { ...live.metadata, generation: 2 }, status: { phase: 'Running' } }],
    ['a spec write keeps status', { ...live, spec: { containers: [] } }],
    ['a field dropped, another added', { apiVersion: 'v1', kind: 'Pod', metadata: live.metadata, status: live.status, data: { k: 'v' } } as KubeObject],
    ['fields in another order', { status: live.status, metadata: live.metadata, kind: 'Pod', spec: live.spec, apiVersion: 'v1' } as KubeObject],
    ['a value that equals but is not the live one', { ...live, spec: JSON.parse(JSON.stringify(live.spec)) as unknown }],
    ['a manager\'s fields replaced, another\'s kept', { ...live, metadata: { ...live.metadata, managedFields: [{ manager: 'm', operation: 'Update', fieldsV1: specFields }, { manager: 'k', subresource: 'status', fieldsV1: { 'f:status': { 'f:podIP': {} } } }] } }],
    ['the managers in another order, one entry not an object', { ...live, metadata: { ...live.metadata, managedFields: [{ fieldsV1: statusFields, manager: 'k' }, null, { manager: 'm', fieldsV1: specFields }] as never } }],
    ['no managed fields left', { ...live, metadata: { ...live.metadata, managedFields: [] } }],
    ['managed fields only', { ...live, metadata: { managedFields: [{ manager: 'm', fieldsV1: specFields }] } }],
  ];
  for (const [what, next] of writes) {
    const expected = encodeForStorage({ ...next, metadata: { ...next.metadata } });
    assert.equal(encodeOwnedForStorage(next, { object: live, text: liveText }), expected, what);
  }
});

test('a written object is what readers of its turn share; one nobody read in that turn is decoded afresh later', async () => {
  const written = (n: number): { kv: KeyValue; obj: KubeObject } => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${n}` } };
    const stored = kv(n);
    rememberStoredObject(stored, obj);
    return { kv: stored, obj };
  };
  const read = written(21);
  const unread = written(22);
  assert.equal(storedObject(read.kv), read.obj, 'a reader in the turn of the write gets the object the write stored');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(storedObject(read.kv), read.obj, 'and keeps sharing it while it is held');
  const decoded = storedObject(unread.kv);
  assert.notEqual(decoded, unread.obj);
  assert.deepEqual(decoded, { ...unread.obj, metadata: { ...unread.obj.metadata, resourceVersion: '22' } });
});

test('a created object is stored with apiVersion, kind and metadata first, its other fields in order, a __proto__ field kept', () => {
  const obj = JSON.parse('{"spec":{"a":1},"kind":"Widget","__proto__":{"x":1},"metadata":{"name":"w","resourceVersion":"3"},"apiVersion":"example.com/v1","status":{}}') as KubeObject;
  assert.equal(encodeOwnedForStorage(obj), '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":1},"__proto__":{"x":1},"status":{}}');
  assert.equal(encodeForStorage(JSON.parse('{"kind":"ConfigMap","data":{"k":"v"},"apiVersion":"v1","metadata":{"name":"c"}}') as KubeObject), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v"}}');
});
