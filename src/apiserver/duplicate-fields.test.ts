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
    ['{"a":[[{"x":1}],[{"y":1,"y":2}]],"b":{"c":[{},{"d":1,"d":2,"d":3}]}}', ['a[1][0].y', 'b.c[1].d', 'b.c[1].d']],
    // Large objects switch from a key array to a Set: repeats are found on both sides of the switch.
    [`{"data":{${Array.from({ length: 40 }, (_, i) => `"k${i}":1`).join(',')},"k3":2,"k39":2}}`, ['data.k3', 'data.k39']],
  ];
  for (const [text, expected] of cases) assert.deepEqual(duplicateFields(text), expected, text);
});
