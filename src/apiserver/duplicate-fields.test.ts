import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateFields } from './duplicate-fields.ts';

test('duplicateFields names each repeated key by its path', () => {
  const cases: [string, string[]][] = [
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"name":"x","name":"y"}}', ['metadata.name']],
    ['{"spec":{"containers":[{"name":"a"},{"name":"b","image":"x","image":"y"}]}}', ['spec.containers[1].image']],
    ['{"a":"{\\"a\\":1,\\"a\\":2}","b":["a","a"]}', []],
    ['{"x\\u0041":1,"xA":2}', ['xA']],
    ['{"k":"a\\"b","k":"c"}', ['k']],
    ['{"s":"\\\\","t":{"u":1,"u":2}}', ['t.u']],
  ];
  for (const [text, expected] of cases) assert.deepEqual(duplicateFields(text), expected, text);
});
