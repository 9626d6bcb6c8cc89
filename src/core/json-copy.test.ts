import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyJson, copyJsonSharing, copyJsonSharingEqual } from './json-copy.ts';

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

test('copyJsonSharingEqual hands back the live parts the value repeats, keys in the same order', () => {
  const live = JSON.parse('{"conditions":[{"type":"Ready","status":"True"},{"type":"Init","status":"True"}],"phase":"Running","ip":"10.0.0.1"}') as Record<string, unknown>;
  const sent = JSON.parse('{"conditions":[{"type":"Ready","status":"False"},{"type":"Init","status":"True"}],"phase":"Running","ip":"10.0.0.1"}') as Record<string, unknown>;
  const copy = copyJsonSharingEqual(sent, live);
  assert.equal(JSON.stringify(copy), JSON.stringify(sent));
  const conditions = copy.conditions as unknown[];
  const liveConditions = live.conditions as unknown[];
  assert.notEqual(copy, live);
  assert.notEqual(conditions, liveConditions);
  assert.notEqual(conditions[0], liveConditions[0]);
  assert.equal(conditions[1], liveConditions[1]);
  assert.equal(copyJsonSharingEqual(JSON.parse(JSON.stringify(live)) as unknown, live), live);
});

test('copyJsonSharingEqual keeps its own copy where the keys differ in order or in number, or hold undefined', () => {
  const live = { a: { x: 1, y: 2 }, b: [1, 2], c: { z: 1 } };
  const copy = copyJsonSharingEqual({ a: { y: 2, x: 1 }, b: [1, 2, 3], c: { z: 1, w: undefined } }, live);
  assert.equal(JSON.stringify(copy.a), '{"y":2,"x":1}');
  assert.notEqual(copy.a, live.a);
  assert.notEqual(copy.b, live.b);
  assert.equal(copy.c, live.c);
  const fewer = { a: 1 };
  assert.notEqual(copyJsonSharingEqual(fewer, { a: 1, b: 2 }), fewer);
  assert.deepEqual(copyJsonSharingEqual(fewer, { a: 1, b: 2 }), { a: 1 });
  const proto = copyJsonSharingEqual(JSON.parse('{"__proto__":{}}') as Record<string, unknown>, {});
  assert.deepEqual(Object.keys(proto), ['__proto__']);
  assert.notEqual(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, Object.prototype);
});
