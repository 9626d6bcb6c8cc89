import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookupTable } from './own-keys.ts';

test("a lookup table finds only its own keys, not Object.prototype's members", () => {
  const units = lookupTable({ s: 1000, m: 60_000 });
  assert.equal(units.s, 1000);
  for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) assert.equal(units[key], undefined, key);
  assert.deepEqual(Object.keys(units), ['s', 'm']);
  assert.equal(JSON.stringify(units), '{"s":1000,"m":60000}');
});
