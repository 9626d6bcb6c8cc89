// Two-variable comprehensions as Kubernetes' CEL environments (1.32+) run them: cel-go's documented examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCel as run } from './cel.test-support.ts';
import { dynEnvironment, parseAndCheck, perCallCostLimit, runProgram } from './cel-libraries.ts';

test('all, exists and existsOne bind an index or key beside the value', () => {
  const cases: [string, unknown][] = [
    ['[1, 2, 3].all(i, j, i < j)', true],
    ["{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)", false],
    ["{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))", true],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))", true],
    ['[1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)', false],
    ['[1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)', false],
    ['[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)', true],
    ["{'i': 0, 'j': 1, 'k': 2}.existsOne(i, v, i == 'l' || v == 1)", true],
    ["{'i': 0, 'j': 1}.exists_one(k, v, v == 1)", true],
    ['self.spec.ports.all(i, p, i == 0 || p.port != self.spec.ports[0].port)', true],
    ['[].all(i, v, false) && ![].exists(i, v, true)', true],
  ];
  const self = { spec: { ports: [{ port: 80 }, { port: 443 }] } };
  for (const [expression, want] of cases) assert.equal(run(expression, self), want, expression);
});

test('all and exists: a deciding element wins over an error in another, as _&&_ and _||_ do', () => {
  assert.equal(run('[0, 2].all(i, v, 1 / v > 1)'), false, 'false at 2 decides though 1 / 0 failed');
  assert.equal(run('[0, 1].exists(i, v, 1 / v == 1)'), true);
  assert.match(String(run('[1, 0].all(i, v, 1 / v > 0)')), /^error: division by zero/);
  assert.match(String(run('[1, 0].existsOne(i, v, 1 / v > 0)')), /^error: division by zero/);
});

test('transformList, transformMap and transformMapEntry, with and without a filter', () => {
  const cases: [string, unknown][] = [
    ['[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar)', [1n, 4n, 9n]],
    ['[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar)', [1n, 9n]],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k)", ['greeting', 'farewell']],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v)", ['hello', 'goodbye']],
    ["{'greeting': 'hello'}.transformMap(k, v, v + '!')", { greeting: 'hello!' }],
    ["{'greeting': 'hello'}.transformMapEntry(keyVar, valueVar, {valueVar: keyVar})", { hello: 'greeting' }],
    ["{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v * 10) == {'b': 20}", true],
    ['[1, 2, 3].transformMap(i, v, (i * v) + v)[2]', 9n],
    ['[1, 2, 3].transformMapEntry(i, v, {v: i})[3]', 2n],
    ["{'a': 'x', 'b': 'y'}.transformMapEntry(k, v, {v: k}).size()", 2n],
    ["{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(keyVar, valueVar, {valueVar: keyVar})", 'error: insert failed: key aloha already exists'],
  ];
  for (const [expression, want] of cases) assert.deepEqual(run(expression), want, expression);
});

test('compile errors in cel-go words: a bad range, a predicate that is not bool, a variable that is not a name', () => {
  const env = dynEnvironment(['self']);
  const message = (e: string): string => {
    const c = parseAndCheck(env, e);
    return c.ok ? 'compiled' : c.message.split('\n')[0] ?? '';
  };
  assert.equal(message("'abc'.all(i, v, true)"), "compilation failed: ERROR: <input>:1:1: expression of type 'string' cannot be the range of a comprehension (must be list, map, or dynamic)");
  assert.equal(message('[1].all(i, v, v)'), "compilation failed: ERROR: <input>:1:15: found no matching overload for '_&&_' applied to '(bool, int)'");
  assert.equal(message('[1].transformList(i, v, v, v)'), "compilation failed: ERROR: <input>:1:25: found no matching overload for '_?_:_' applied to '(int, dyn, dyn)'");
  assert.match(message('[1].all(i.x, v, true)'), /^compilation failed: ERROR: <input>:1:\d+: Syntax error: argument must be a simple name$/);
  assert.equal(message('self.items.transformList(i, v, v.name).size() > 0 && [1].transformMapEntry(i, v, {v: i}).size() == 1'), 'compiled');
});

test('every step counts against the evaluation cost limit', () => {
  const env = dynEnvironment(['self']);
  const c = parseAndCheck(env, 'self.all(i, a, self.all(j, b, self.all(k, c, true)))');
  assert.ok(c.ok);
  const list = Array.from({ length: Math.ceil(Math.cbrt(perCallCostLimit)) + 1 }, () => 0);
  assert.deepEqual(runProgram(c.run, { self: list }), { ok: false, message: 'operation cancelled: actual cost limit exceeded' });
  assert.deepEqual(runProgram(c.run, { self: [1, 2] }), { ok: true, value: true });
});
