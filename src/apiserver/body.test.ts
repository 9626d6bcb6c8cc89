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
