import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchMeta } from '../../api/index.ts';
import { memberPaths } from './field-set.ts';
import type { JsonObject } from './json-value.ts';
import { TypedValueError, compare } from './typed-value.ts';

const meta: PatchMeta = {
  fields: {
    metadata: { fields: { labels: { values: {} } } },
    spec: { fields: { containers: { strategy: 'merge', mergeKey: 'name', listType: 'map', listMapKeys: ['name'] } } },
  },
};

const pod = (labels: Record<string, string>, containers: JsonObject[]): JsonObject => ({ metadata: { name: 'p', labels }, spec: { containers } });

test('compare puts added and modified fields in one changed set, and removed ones apart', () => {
  const c = compare(pod({ a: '1', b: '2' }, [{ name: 'c', image: 'x' }]), pod({ a: '9', c: '3' }, [{ name: 'c', image: 'y' }, { name: 'd' }]), meta);
  assert.deepEqual(memberPaths(c.changed).map((p) => p.join(' ')), [
    'f:metadata f:labels f:a',
    'f:metadata f:labels f:c',
    'f:spec f:containers k:{"name":"c"} f:image',
    'f:spec f:containers k:{"name":"d"}',
    'f:spec f:containers k:{"name":"d"} f:name',
  ]);
  assert.deepEqual(memberPaths(c.removed).map((p) => p.join(' ')), ['f:metadata f:labels f:b']);
});

test('compare names the list of an item without its key by the fields leading to it', () => {
  assert.throws(
    () => compare(pod({}, [{ name: 'c' }]), pod({}, [{ image: 'x' }]), meta),
    new TypedValueError('.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)'),
  );
});
