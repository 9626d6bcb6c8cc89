// Continue tokens: what upstream's DecodeContinue refuses, in its words, and the latest-revision token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../core/index.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';

const b64 = (text: string): string => Buffer.from(text).toString('base64url');

function refusal(token: string): string {
  try {
    decodeContinue(token);
  } catch (error) {
    assert.ok(error instanceof ApiError && error.code === 400);
    return error.message;
  }
  throw new Error(`${token} was accepted`);
}

test('a token round-trips; a negative revision is the latest', () => {
  assert.deepEqual(decodeContinue(encodeContinue(42, 'default/web')), { rv: 42, start: 'default/web' });
  assert.deepEqual(decodeContinue(encodeContinue(-1, 'default/web')), { rv: -1, start: 'default/web' });
});

test('a token that is not one is refused as DecodeContinue refuses it', () => {
  assert.equal(refusal('abc='), 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3');
  assert.equal(refusal('abcde'), 'invalid continue token: continue key is not valid: illegal base64 data at input byte 4');
  assert.equal(refusal(b64('{"v":')), 'invalid continue token: continue key is not valid: unexpected end of JSON input');
  assert.equal(refusal(b64('[]')), 'invalid continue token: continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken');
  assert.equal(refusal(b64('{"v":"meta.k8s.io/v1","rv":"7","start":"a"}')), 'invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64');
  assert.equal(refusal(b64('{"v":"v2","rv":7,"start":"a"}')), 'invalid continue token: continue key is not valid: server does not recognize this encoded version v2');
  assert.equal(refusal(b64('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}')), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  assert.equal(refusal(b64('{"v":"meta.k8s.io/v1","rv":7,"start":""}')), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // A start key that climbs above the resource's keys.
  assert.equal(refusal(b64('{"v":"meta.k8s.io/v1","rv":7,"start":"../secrets/x"}')), 'invalid continue token: continue key is not valid: ../secrets/x');
});
