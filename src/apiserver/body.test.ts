import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../core/index.ts';
import { decodeText } from './body.ts';

const what = { kind: 'Blob', version: 'v1' };
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.reason, 'BadRequest');
    return error.message;
  }
  assert.fail('decoded');
};

test('a body nested deeper than the limit is refused in the words of the decoder that would stop it', () => {
  const deep = `{"spec":${'['.repeat(300)}${']'.repeat(300)}}`;
  assert.equal(message(() => decodeText(deep, 'json', what)), `Blob in version "v1" cannot be handled as a Blob: invalid character '[' exceeded max depth`);
  assert.equal(message(() => decodeText(deep, 'yaml', what)), 'Blob in version "v1" cannot be handled as a Blob: error converting YAML to JSON: yaml: line 1: exceeded max depth of 256');
});

test('YAML aliases that stack one anchored value under another are refused once the value they make is too deep', () => {
  const levels = (n: number, inner: string): string => '['.repeat(n) + inner + ']'.repeat(n);
  const text = `a: &a ${levels(120, '1')}\nb: &b ${levels(120, '*a')}\nc: ${levels(120, '*b')}\n`;
  assert.equal(message(() => decodeText(text, 'yaml', what)), 'Blob in version "v1" cannot be handled as a Blob: error converting YAML to JSON: yaml: exceeded max depth of 256');
  const shallow = `a: &a ${levels(100, '1')}\nb: ${levels(100, '*a')}\n`;
  assert.deepEqual(Object.keys(decodeText(shallow, 'yaml', what) as object), ['a', 'b']);
});

test('a YAML body that is JSON text reads as the yaml library reads it; one that repeats a key still gets YAML\'s refusal', () => {
  const pod = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]}]},"n":1.5e3,"z":null}';
  assert.deepEqual(decodeText(pod, 'yaml', what), JSON.parse(pod));
  assert.deepEqual(decodeText(` \n${pod}\n`, 'yaml', what), JSON.parse(pod));
  assert.match(message(() => decodeText('{"a": 1, "a": 2}', 'yaml', what)), /^Blob in version "v1" cannot be handled as a Blob: error converting YAML to JSON: Map keys must be unique/);
  // Not JSON, but YAML: the yaml library reads it.
  assert.deepEqual(decodeText('{a: 1, b: [x, y]}', 'yaml', what), { a: 1, b: ['x', 'y'] });
});
