// Parsed quantities are shared from a cache: repeats must give the same value, sharing must not
// let one caller change another's, and texts past the cache's limit still parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalizeQuantityText, formatQuantity, parseQuantity, quantityParseError } from './quantity.ts';

test('a repeated quantity text parses to the same, unchangeable value', () => {
  for (const text of ['100m', '128Mi', '1.5Gi', '1e3', '0.1m']) {
    const a = parseQuantity(text);
    const b = parseQuantity(text);
    assert.ok(a && b);
    assert.deepEqual(a, b);
    assert.equal(formatQuantity(b), formatQuantity(a));
    assert.throws(() => {
      (a as { milli: bigint }).milli = 1n;
    }, TypeError);
    assert.equal(canonicalizeQuantityText(text), canonicalizeQuantityText(text));
  }
});

test('errors repeat too, and long texts are parsed uncached', () => {
  assert.equal(quantityParseError('12x'), quantityParseError('12x'));
  assert.notEqual(quantityParseError('12x'), undefined);
  const long = `${'1'.repeat(70)}m`;
  assert.equal(formatQuantity(parseQuantity(long) ?? { milli: 0n, format: 'DecimalSI' }), formatQuantity(parseQuantity(long) ?? { milli: 0n, format: 'DecimalSI' }));
  assert.notEqual(parseQuantity(long), undefined);
});
