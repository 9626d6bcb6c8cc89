import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserRegExp, enableLinearRegExpFallback } from './user-regexp.ts';

enableLinearRegExpFallback();

test('a pattern that backtracks exponentially answers at once on a long input, as RE2 would', () => {
  const dnsish = new UserRegExp('^([a-z0-9]+-?)+$');
  const started = performance.now();
  assert.equal(dnsish.test(`${'a'.repeat(5000)}!`), false);
  assert.equal(new UserRegExp('^(a+)+$').test(`${'a'.repeat(100_000)}b`), false);
  // Seconds without the fallback already at 30 characters; here all of it in well under a second.
  assert.ok(performance.now() - started < 5000);
  assert.equal(dnsish.test('gpu-a100-80gb'), true);
});

test('text with characters beyond the Basic Multilingual Plane is matched by code point, as RE2 matches UTF-8', () => {
  assert.equal(new UserRegExp('^.$').test('😀'), true);
  assert.equal(new UserRegExp('^.$').test('é'), true);
  assert.equal(new UserRegExp('^[^a]{2}$').test('😀😀'), true);
  assert.equal(new UserRegExp('^\\p{L}+$').test('Größe'), true);
  assert.equal(new UserRegExp('^\\u{1F600}$').test('😀'), true);
});

test('a pattern the u flag refuses is refused; a global one finds every match from the start each time', () => {
  assert.throws(() => new UserRegExp('a{'), SyntaxError);
  const all = new UserRegExp('[0-9]+', 'g');
  assert.deepEqual([...'a1b22c333'.matchAll(all.for('a1b22c333'))].map((m) => m[0]), ['1', '22', '333']);
  assert.deepEqual([...'x4😀55'.matchAll(all.for('x4😀55'))].map((m) => m[0]), ['4', '55']);
});
