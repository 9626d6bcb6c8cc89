import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyValue } from '../storage/index.ts';
import { RecentCache, storedJson } from './stored-object.ts';

const kv = (n: number): KeyValue => ({ key: `/registry/core/configmaps/default/c${n}`, value: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${n}"}}`, createRevision: n, modRevision: n });

test('storedJson stamps the resourceVersion into the stored text', () => {
  assert.equal(storedJson(kv(7)), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"7","name":"c7"}}');
  assert.equal(storedJson({ ...kv(8), value: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}' }), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"8"}}');
});

test('RecentCache keeps the most recent values only, so nothing read once stays for good', () => {
  const cache = new RecentCache<string>(3);
  const values = [kv(1), kv(2), kv(3), kv(4)];
  for (const v of values) cache.set(v, v.key);
  assert.equal(cache.get(values[0] as KeyValue), undefined);
  assert.deepEqual(values.slice(1).map((v) => cache.get(v)), values.slice(1).map((v) => v.key));
});
