import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyJson, copyJsonSharing } from './json-copy.ts';

test('copyJson copies deeply, so the copy can change without touching a frozen original', () => {
  const original = Object.freeze({ metadata: Object.freeze({ labels: Object.freeze({ a: '1' }) }), spec: Object.freeze({ containers: Object.freeze([Object.freeze({ name: 'c', ports: Object.freeze([80]) })]) }) });
  const copy = copyJson(original) as unknown as { metadata: { labels: Record<string, string> }; spec: { containers: { name: string; ports: number[] }[] } };
  assert.deepEqual(copy, original);
  copy.metadata.labels.b = '2';
  copy.spec.containers[0]?.ports.push(443);
  assert.deepEqual(original.metadata.labels, { a: '1' });
  assert.deepEqual(original.spec.containers[0]?.ports, [80]);
});

test('copyJson drops keys set to undefined, as the encoded object would not have them', () => {
  assert.deepEqual(copyJson({ a: undefined, b: null, c: [undefined, 1] }), { b: null, c: [undefined, 1] });
});

test('a key named __proto__ is copied as a key, not taken for the prototype', () => {
  const original = JSON.parse('{"data":{"__proto__":"x","a":"b"},"spec":{"__proto__":{"y":1}}}') as Record<string, Record<string, unknown>>;
  for (const copy of [copyJson(original), copyJsonSharing(original, undefined)]) {
    assert.deepEqual(Object.keys(copy.data ?? {}), ['__proto__', 'a']);
    assert.equal(JSON.stringify(copy), JSON.stringify(original));
    assert.equal(Object.getPrototypeOf(copy.spec), Object.prototype);
  }
});
