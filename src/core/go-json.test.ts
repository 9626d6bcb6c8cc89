import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goMapJson } from './go-json.ts';

test('goMapJson writes what Go marshals from a decoded map: sorted keys, Go string escapes', () => {
  assert.equal(goMapJson({ spec: { template: { $patch: 'replace', metadata: { labels: { b: '1', a: '<&>' } } } }, n: [1, 2.5, true, null] }), '{"n":[1,2.5,true,null],"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":"\\u003c\\u0026\\u003e","b":"1"}}}}}');
  assert.equal(goMapJson('tab\tform\fback\\b\u2028'), '"tab\\tform\\u000cback\\\\b\\u2028"');
});
