import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloatG } from './go-float.ts';

test('numbers are written as Go writes a float64 with strconv g and shortest precision', () => {
  const cases: [number, string][] = [[0, '0'], [3, '3'], [0.25, '0.25'], [123456, '123456'], [1e6, '1e+06'], [157286400, '1.572864e+08'], [0.0001, '0.0001'], [0.00005, '5e-05'], [1765012345.5, '1.7650123455e+09']];
  for (const [v, text] of cases) assert.equal(formatFloatG(v), text, String(v));
});
