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

test('Gt and Lt compare as int64, as labels.Requirement does', () => {
  const gt = (value: string) => ({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'rank', operator: 'Gt' as const, values: [value] }] }] });
  const node = (rank: string) => ({ metadata: { name: 'n', labels: { rank } } });
  // Above 2^53, where floating point would call these equal.
  assert.equal(nodeSelectorMatches(gt('9223372036854775806'), node('9223372036854775807')), true);
  assert.equal(nodeSelectorMatches(gt('9007199254740992'), node('9007199254740993')), true);
  // A label past int64 does not parse: the node does not match.
  assert.equal(nodeSelectorMatches(gt('5'), node('99999999999999999999')), false);
  // Nor does any node for a requirement value past int64: the term does not parse.
  assert.equal(nodeSelectorMatches(gt('99999999999999999999'), node('1')), false);
});

test('a term with a requirement labels.NewRequirement refuses matches no node, NotIn included', () => {
  const notIn = (values: string[]) => ({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn' as const, values }] }] });
  const n = { metadata: { name: 'n', labels: { zone: 'a' } } };
  assert.equal(nodeSelectorMatches(notIn(['b']), n), true);
  assert.equal(nodeSelectorMatches(notIn(['not a label value']), n), false);
  assert.equal(nodeSelectorMatches(notIn([]), n), false);
  // The next term is judged on its own.
  assert.equal(nodeSelectorMatches({ nodeSelectorTerms: [...notIn(['bad value']).nodeSelectorTerms, ...notIn(['b']).nodeSelectorTerms] }, n), true);
});

test('matchFields: In or NotIn with one value against metadata.name', () => {
  const fields = (operator: 'In' | 'NotIn', values: string[]) => ({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator, values }] }] });
  const n = { metadata: { name: 'n1' } };
  assert.equal(nodeSelectorMatches(fields('In', ['n1']), n), true);
  assert.equal(nodeSelectorMatches(fields('NotIn', ['n1']), n), false);
  assert.equal(nodeSelectorMatches(fields('NotIn', ['n2']), n), true);
  assert.equal(nodeSelectorMatches(fields('In', ['n1', 'n2']), n), false);
});
