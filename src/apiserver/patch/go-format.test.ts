import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goValue } from './go-format.ts';

test('goValue prints decoded JSON as fmt %v does: int64 whole, float64 in %g, maps sorted', () => {
  const cases: [unknown, string][] = [
    ['blue', 'blue'],
    [42, '42'],
    [-7, '-7'],
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [true, 'true'],
    [null, '<nil>'],
    [['a', 1], '[a 1]'],
    [{ b: 1, a: { c: 'x' } }, 'map[a:map[c:x] b:1]'],
  ];
  for (const [value, expected] of cases) assert.equal(goValue(value), expected, JSON.stringify(value));
});
