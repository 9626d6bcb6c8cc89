// cel-go's sets, strings.quote and string.format as Kubernetes' CEL environments have them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCel as run } from './cel.test-support.ts';

test('sets: contains, equivalent and intersects, with CEL equality across numeric types', () => {
  const cases: [string, unknown][] = [
    ['sets.contains([1, 2, 3], [3, 1]) && sets.contains([1], []) && !sets.contains([1, 2], [3])', true],
    ['sets.contains([1], [1.0])', true],
    ["sets.contains([{'a': 1, 'b': 2}], [{'b': 2, 'a': 1.0}]) && !sets.contains([{'a': 1}], [{'a': 2}])", true],
    ['sets.equivalent([1, 2], [2, 1, 1]) && !sets.equivalent([1], [1, 2])', true],
    ["sets.intersects(['a', 'b'], ['c', 'b']) && !sets.intersects([1], [])", true],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
});

test("strings.quote and string.format: cel-go's clauses, its en_US grouping for %f and its errors", () => {
  const cases: [string, unknown][] = [
    ["strings.quote('a\"b\\nc')", '"a\\"b\\nc"'],
    ["'%s scaled to %d replicas'.format(['web', 3])", 'web scaled to 3 replicas'],
    ["'%.2f GiB'.format([1234.5])", '1,234.50 GiB'],
    ["'%e'.format([1234.5])", '1.234500e+03'],
    ["'%b %o %x %X'.format([5, 8, 255, 'hi'])", '101 10 ff 6869'],
    ["'%s'.format([[1, 'a', 1.5, true, null]])", '[1, "a", 1.500000, true, null]'],
    ["'%s'.format([{'b': 1, 'a': 'x'}])", '{"a":"x", "b":1}'],
    ["'%s %s'.format([1.5, 1000000.0])", '1.5 1e+06'],
    ["'100%%'.format([])", '100%'],
    ["'%d'.format([1.5])", 'error: error during formatting: decimal clause can only be used on integers, was given double'],
    ["'%q'.format([1])", 'error: could not parse formatting clause: unrecognized formatting clause "q"'],
    ["'%s %s'.format(['a'])", 'error: index 1 out of range'],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
});
