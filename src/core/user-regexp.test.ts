import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserRegExp, enableLinearRegExpFallback } from './user-regexp.ts';

enableLinearRegExpFallback();

test('a pattern that backtracks exponentially answers on a long input, as RE2 would', () => {
  const dnsish = new UserRegExp('^([a-z0-9]+-?)+$');
  const nested = new UserRegExp('^(a+)+$');
  const long = `${'a'.repeat(5000)}!`;
  const longer = `${'a'.repeat(100_000)}b`;
  // V8 takes a regexp past 50,000 backtracks to its linear engine only without the u flag: text in
  // the Basic Multilingual Plane gets that one. Backtracking alone takes 2^n steps here, past any
  // test's end already at a hundred characters.
  assert.equal(dnsish.for(long).flags, '');
  assert.equal(nested.for(longer).flags, '');
  assert.equal(dnsish.test(long), false);
  assert.equal(nested.test(longer), false);
  assert.equal(dnsish.test('gpu-a100-80gb'), true);
  // A pattern written for code points keeps the u flag, and text beyond the plane needs it.
  assert.equal(new UserRegExp('^\\p{L}+$').for('abc').flags, 'u');
  assert.equal(dnsish.for('a😀').flags, 'u');
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
