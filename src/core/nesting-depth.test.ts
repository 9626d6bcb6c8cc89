import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTooDeep, maxNestingDepth, valueTooDeep, yamlTooDeep } from './nesting-depth.ts';

const nestedJson = (depth: number): string => '{"a":'.repeat(depth - 1) + '[1]' + '}'.repeat(depth - 1);
const nestedValue = (depth: number): unknown => JSON.parse(nestedJson(depth));

test('JSON text: the limit itself passes, one level more names the bracket that went past it', () => {
  assert.equal(jsonTooDeep(nestedJson(maxNestingDepth)), undefined);
  assert.equal(jsonTooDeep(nestedJson(maxNestingDepth + 1)), '[');
  assert.equal(jsonTooDeep(`[${nestedJson(maxNestingDepth)}]`), '[');
  assert.equal(jsonTooDeep(`{"x":${nestedJson(maxNestingDepth)}}`), '[');
  assert.equal(jsonTooDeep('{"a":{"b":[1]}}', 2), '[');
  assert.equal(jsonTooDeep('{"a":{"b":[1]}}', 3), undefined);
});

test('JSON text: brackets and escaped quotes inside strings do not count', () => {
  const brackets = JSON.stringify({ a: '[[[[{{{{'.repeat(100), b: 'say \\"[[[\\" and \\\\', c: '\\' });
  assert.equal(jsonTooDeep(brackets, 1), undefined);
  assert.equal(jsonTooDeep(`[${brackets}]`, 1), '{');
  // A string ending in an escaped backslash closes at the quote after it.
  assert.equal(jsonTooDeep(JSON.stringify(['\\', [[1]]]), 2), '[');
});

test('decoded values: the deepest object or array decides, scalars add no level', () => {
  assert.equal(valueTooDeep(nestedValue(maxNestingDepth)), false);
  assert.equal(valueTooDeep(nestedValue(maxNestingDepth + 1)), true);
  assert.equal(valueTooDeep('text'), false);
  assert.equal(valueTooDeep({ a: [{ b: 1 }] }, 3), false);
  assert.equal(valueTooDeep({ a: [{ b: {} }] }, 3), true);
  // Far deeper than the stack would allow a recursive walk.
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(valueTooDeep(deep), true);
});

test('YAML text: flow, block and compact collections are counted, with the line of the one too deep', () => {
  assert.equal(yamlTooDeep(nestedJson(maxNestingDepth)), undefined);
  assert.equal(yamlTooDeep(nestedJson(maxNestingDepth + 1)), 1);
  const block = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';
  assert.equal(yamlTooDeep(block(maxNestingDepth)), undefined);
  assert.equal(yamlTooDeep(block(maxNestingDepth + 1)), maxNestingDepth + 1);
  assert.equal(yamlTooDeep(`x:\n  y:\n    ${'- '.repeat(maxNestingDepth - 1)}z\n`), 3);
  assert.equal(yamlTooDeep(`x:\n  y:\n    ${'- '.repeat(maxNestingDepth - 2)}z\n`), undefined);
  // A complex key nests like a value.
  assert.equal(yamlTooDeep(`? ${'['.repeat(3)}1${']'.repeat(3)}\n: v\n`, 3), 1);
  assert.equal(yamlTooDeep(`? ${'['.repeat(2)}1${']'.repeat(2)}\n: v\n`, 3), undefined);
  // Brackets in scalars are text.
  assert.equal(yamlTooDeep(`a: "${'['.repeat(500)}"\nb: |\n  ${'{'.repeat(500)}\n`), undefined);
  // Every document of a stream is read.
  assert.equal(yamlTooDeep(`a: 1\n---\n${'['.repeat(maxNestingDepth + 1)}${']'.repeat(maxNestingDepth + 1)}\n`), 3);
});

test('YAML text far deeper than the yaml library could compose is measured without recursing', () => {
  assert.equal(yamlTooDeep('['.repeat(100_000)), 1);
  assert.equal(yamlTooDeep('- '.repeat(50_000) + 'x'), 1);
});

test('JSON text that is not valid (an unclosed string) ends the scan instead of looping', () => {
  assert.equal(jsonTooDeep(`{"a": "${'x'.repeat(maxNestingDepth)}`), undefined);
  assert.equal(jsonTooDeep(`${'['.repeat(maxNestingDepth + 1)}"\\"`), '[');
});

test('YAML text: a pair in a flow sequence is a mapping of its own, two levels for one bracket', () => {
  const pairs = (n: number): string => '[a: '.repeat(n) + '1' + ']'.repeat(n);
  assert.equal(yamlTooDeep(pairs(maxNestingDepth / 2)), undefined);
  assert.equal(yamlTooDeep(`${pairs(maxNestingDepth / 2)}\n`.replace('1', '[1]')), 1);
  assert.equal(yamlTooDeep('[a: [b]]', 2), 1);
  assert.equal(yamlTooDeep('[a: b]', 2), undefined);
});

test('YAML text that has fewer brackets, dashes, question marks and lines than the limit is not parsed twice, and is not too deep', () => {
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx\n' + `# ${'x'.repeat(400)}\n`;
  assert.equal(yamlTooDeep(manifest), undefined);
  assert.equal(yamlTooDeep(manifest, 3), 7);
});
