// The computed protobuf length against bodies real kubectl 1.33 encoded (test/fixtures/protobuf): Go's
// encoder wrote them, so their byte counts are the truth the size must match exactly.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeProtobufObject } from './index.ts';
import { protobufEnvelopeSize, varintSize } from './encoded-size.ts';

const FIXTURES = join(import.meta.dirname.replace(/[\/]dist([\/]|$)/, '$1'), '../../../test/fixtures/protobuf');
const cases = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as { name: string; args: string[] }[];

for (const c of cases) {
  test(`kubectl ${c.args.join(' ')}: the computed size is the length Go encoded`, () => {
    const bytes = readFileSync(join(FIXTURES, `${c.name}.bin`));
    const decoded = decodeProtobufObject(new Uint8Array(bytes));
    assert.ok(decoded.ok);
    assert.equal(protobufEnvelopeSize(decoded.object), bytes.length);
  });
}

test('a ConfigMap grows by each entry, with its tag and lengths', () => {
  const small = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
  const large = { ...small, data: { a: 'b', key: 'x'.repeat(300) } };
  const base = protobufEnvelopeSize(small) ?? 0;
  // entry {1 "key", 2 300 bytes} = 5 + 303; the entry's own tag and length add 1 + 2; the message's length grows a byte.
  assert.equal((protobufEnvelopeSize(large) ?? 0) - base, 5 + 303 + 3 + 1);
});

test('a Secret counts its data as the bytes base64 carries, not the text', () => {
  const secret = (value: string) => protobufEnvelopeSize({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: value } }) ?? 0;
  assert.equal(secret(Buffer.alloc(3000).toString('base64')) - secret(Buffer.alloc(2000).toString('base64')), 1000);
});

test('a kind with no protobuf message has no protobuf size', () => {
  assert.equal(protobufEnvelopeSize({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }), undefined);
});

test('varints: seven bits a byte, negatives take ten', () => {
  assert.deepEqual([0, 127, 128, 16383, 16384, 2 ** 35, -1].map(varintSize), [1, 1, 2, 2, 3, 6, 10]);
});
