import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateJsonPath, parseJsonPath } from './json-path.ts';

test('printer-column JSONPaths find fields, indices and filtered conditions', () => {
  const obj = { spec: { replicas: 3, 'a-b': 'x' }, status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Other', status: 'False' }] }, items: [1, 2] };
  const cases: [string, unknown[]][] = [
    ['.spec.replicas', [3]],
    ['.spec.a-b', ['x']],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    ['.items[1]', [2]],
    ['.items[*]', [1, 2]],
    ['.spec.missing', []],
  ];
  for (const [path, expected] of cases) assert.deepEqual(evaluateJsonPath(parseJsonPath(path) ?? [], obj), expected, path);
  assert.equal(parseJsonPath('.spec[bad'), undefined);
});
