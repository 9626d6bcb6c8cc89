// ResourceSlice node selectors: a requirement's key is a label like any other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeSelectorMatches } from './node-selector.ts';

test("a label key named as an Object.prototype member exists only where a node has it", () => {
  const selector = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'toString', operator: 'Exists' as const }] }] };
  assert.equal(nodeSelectorMatches(selector, { metadata: { name: 'n1', labels: { zone: 'a' } } }), false);
  assert.equal(nodeSelectorMatches(selector, { metadata: { name: 'n2', labels: { toString: 'x' } } }), true);
  const absent = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'valueOf', operator: 'DoesNotExist' as const }] }] };
  assert.equal(nodeSelectorMatches(absent, { metadata: { name: 'n1' } }), true);
});
