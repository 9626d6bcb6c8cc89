import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodTemplateSpec } from '../api/index.ts';
import { computeHash, fnv32, fnv32a, safeEncodeString } from './template-hash.ts';

const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } };

test('fnv32a matches the reference vectors', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  assert.equal(fnv32a(enc('')), 0x811c9dc5);
  assert.equal(fnv32a(enc('a')), 0xe40c292c);
  assert.equal(fnv32a(enc('foobar')), 0xbf9cf968);
});

test('fnv32 (FNV-1, what HashControllerRevision uses) matches the reference vectors', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  assert.equal(fnv32(enc('')), 0x811c9dc5);
  assert.equal(fnv32(enc('a')), 0x050c5d7e);
  assert.equal(fnv32(enc('foobar')), 0x31f0b262);
});

test('safeEncodeString maps decimal digits as upstream', () => {
  assert.equal(safeEncodeString('0123456789'), '456789bcdf');
});

test('computeHash is stable, key-order independent, and changes with the template and the collision count', () => {
  const h = computeHash(template, undefined);
  assert.match(h, /^[456789bcdf]{1,10}$/);
  const reordered: PodTemplateSpec = { spec: { containers: [{ image: 'nginx', name: 'nginx' }] }, metadata: { labels: { app: 'web' } } };
  assert.equal(computeHash(reordered, undefined), h);
  assert.notEqual(computeHash({ ...template, spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } }, undefined), h);
  assert.notEqual(computeHash(template, 1), h);
  assert.notEqual(computeHash(template, 0), h);
});
