// The base environment's AST validators (1.29+): bad duration, timestamp and regex literals and mixed
// list or map literals refuse to compile, in cel-go's words and at the offending literal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dynEnvironment, parseAndCheck } from './cel-libraries.ts';

const env = dynEnvironment(['self']);
const compile = (e: string): string => {
  const c = parseAndCheck(env, e);
  return c.ok ? 'compiled' : c.message;
};

test('literals that cannot be read are compilation errors, at the literal', () => {
  assert.equal(compile("self.name.matches('[a-z')"), "compilation failed: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[a-z')\n | ..................^");
  assert.equal(compile("duration('1x') < duration('1s')"), "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') < duration('1s')\n | .........^");
  assert.equal(compile("self.t > timestamp('2024-13-01T00:00:00Z')").split('\n')[0], 'compilation failed: ERROR: <input>:1:20: invalid timestamp argument');
  for (const ok of ["duration('1h30m') > duration('-1.5s')", "timestamp('2024-01-01T00:00:00.123Z') > timestamp('2023-01-01T00:00:00+01:00')", "self.name.matches('^[a-z]+$')", "self.name.matches('(?i)^abc$')", "matches(self.name, '^a')"]) assert.equal(compile(ok), 'compiled', ok);
});

test("list and map literals may not mix element types, except within string.format's arguments and where a type is dyn", () => {
  assert.equal(compile("self.x in [1, 'a']").split('\n')[0], "compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'string'");
  assert.equal(compile("{'a': 1, 'b': true}.size() == 2").split('\n')[0], "compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'bool'");
  assert.equal(compile('[[1], [2.0]].size() == 2').split('\n')[0], "compilation failed: ERROR: <input>:1:7: expected type 'list(int)' but found 'list(double)'");
  for (const ok of ["'%s is %d'.format(['a', 1])", "'%s'.format([[1, 'a']])", '[self.a, 1].size() == 2', "self.mode in ['a', 'b']"]) assert.equal(compile(ok), 'compiled', ok);
});
