// The Kubernetes CEL library functions Drydock adds to cel-js, through the admission policy
// environment: lists (sum, min, max, isSorted, indexOf, lastIndexOf), regex (find, findAll) and
// strings (replace, charAt), with upstream's results and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicyExpression, evaluatePolicyExpression, toCelValue } from './index.ts';
import { enableLinearRegExpFallback } from '../core/index.ts';

function run(expression: string, object: unknown = {}): unknown {
  const compiled = compilePolicyExpression(expression, 'any');
  assert.ok(compiled.ok, expression);
  const result = evaluatePolicyExpression(compiled.program, { object: toCelValue(object) });
  return result.ok ? result.value : `error: ${result.message}`;
}

test('lists: sum, min, max, isSorted, indexOf, lastIndexOf', () => {
  const o = { gpus: [2, 8, 4], names: ['a', 'b', 'a'] };
  assert.equal(run('object.gpus.sum()', o), 14n);
  assert.equal(run('[].sum()'), 0n);
  assert.equal(run('[1.5, 2.0].sum()'), 3.5);
  assert.equal(run('object.gpus.min()', o), 2n);
  assert.equal(run('object.gpus.max()', o), 8n);
  assert.equal(run('[].max()'), 'error: max called on empty list');
  assert.equal(run('object.gpus.isSorted()', o), false);
  assert.equal(run('[1, 2, 2].isSorted()'), true);
  assert.equal(run("object.names.indexOf('a')", o), 0n);
  assert.equal(run("object.names.lastIndexOf('a')", o), 2n);
  assert.equal(run("object.names.indexOf('z')", o), -1n);
});

test('regex find and findAll; strings replace and charAt', () => {
  const o = { image: 'registry.example.com/team/app:1.2', name: 'web-app-v2' };
  assert.equal(run("object.image.find('[0-9.]+$')", o), '1.2');
  assert.equal(run("object.image.find('^x')", o), '');
  assert.deepEqual(run("object.name.findAll('[a-z]+')", o), ['web', 'app', 'v']);
  assert.deepEqual(run("object.name.findAll('[a-z]+', 2)", o), ['web', 'app']);
  assert.equal(run("object.name.replace('-', '_')", o), 'web_app_v2');
  assert.equal(run("object.name.replace('-', '_', 1)", o), 'web_app-v2');
  assert.equal(run('object.name.charAt(4)', o), 'a');
});

test('macros nested over long lists end in cel-go\'s cost error; the same macros within the limit give their answer', () => {
  const numbers = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;
  const list = numbers(1000);
  assert.equal(run(`${list}.all(a, ${list}.all(b, ${list}.all(c, c >= 0)))`), 'error: operation cancelled: actual cost limit exceeded');
  assert.equal(run(`${list}.map(a, ${list}.map(b, ${list}.filter(c, c == a + b)))`), 'error: operation cancelled: actual cost limit exceeded');
  assert.equal(run(`${list}.exists(a, ${list}.exists(b, ${list}.exists_one(c, c < 0)))`), 'error: operation cancelled: actual cost limit exceeded');
  // A billion steps were asked for; the limit stops them at a million: 1,000 + 1,000 x 999 steps
  // finish, 1,000 + 1,000 x 1,000 do not.
  assert.equal(run(`${list}.all(a, ${numbers(999)}.all(b, b >= 0))`), true);
  assert.equal(run(`${list}.all(a, ${list}.all(b, b >= 0))`), 'error: operation cancelled: actual cost limit exceeded');
  // 500 x (500 + 499) steps: under the limit, and each evaluation has the whole limit again.
  const half = `[${Array.from({ length: 500 }, (_, i) => i).join(',')}]`;
  assert.equal(run(`${half}.all(a, ${half}.filter(b, b > 0).all(b, b >= 0))`), true);
  assert.equal(run(`${half}.all(a, ${half}.filter(b, b > 0).all(b, b >= 0))`), true);
  assert.equal(run(`${list}.exists(a, a == 3)`), true);
  assert.deepEqual(run('[1, 2, 3].map(x, x * 2)'), [2n, 4n, 6n]);
});

// Which regexp V8 runs (the one its linear engine can take) is core/user-regexp.test.ts's; with
// backtracking alone, any of these takes 2^3000 steps and this test never ends.
test('matches, find and findAll answer on a pattern that would backtrack exponentially', () => {
  enableLinearRegExpFallback();
  const long = 'a'.repeat(3000);
  assert.equal(run(`'${long}!'.matches('^(a+)+$')`), false);
  assert.equal(run(`'${long}!'.find('^([a-z]+-?)+$')`), '');
  assert.deepEqual(run(`'${long}!'.findAll('([a-z]+-?)+!x')`), []);
  assert.equal(run(`'gpu-a100'.matches('^([a-z0-9]+-?)+$')`), true);
});
