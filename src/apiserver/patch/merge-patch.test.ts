import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from './merge-patch.ts';

const cases: { name: string; original: unknown; patch: unknown; want: unknown }[] = [
  {
    name: 'kubectl scale sets one field',
    original: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } } },
    patch: { spec: { replicas: 3 } },
    want: { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } } },
  },
  {
    name: 'kubectl label --overwrite and label removal',
    original: { metadata: { name: 'p', labels: { app: 'web', tier: 'fe' } } },
    patch: { metadata: { labels: { tier: null, env: 'prod' } } },
    want: { metadata: { name: 'p', labels: { app: 'web', env: 'prod' } } },
  },
  {
    name: 'lists are replaced, not merged',
    original: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
    patch: { spec: { containers: [{ name: 'c' }] } },
    want: { spec: { containers: [{ name: 'c' }] } },
  },
  {
    name: 'a new object loses its null members',
    original: { metadata: {} },
    patch: { metadata: { annotations: { a: '1', b: null } } },
    want: { metadata: { annotations: { a: '1' } } },
  },
  {
    name: 'an object replacing a scalar loses its nulls',
    original: { spec: { x: 1 } },
    patch: { spec: { x: { y: null, z: 2 } } },
    want: { spec: { x: { z: 2 } } },
  },
  {
    name: 'null for an absent key is a no-op',
    original: { spec: {} },
    patch: { spec: { gone: null } },
    want: { spec: {} },
  },
  {
    name: 'a scalar over an object replaces it',
    original: { spec: { template: { a: 1 } } },
    patch: { spec: { template: 'x' } },
    want: { spec: { template: 'x' } },
  },
];

for (const c of cases) {
  test(`merge patch: ${c.name}`, () => {
    assert.deepEqual(applyMergePatch(c.original, c.patch), c.want);
  });
}

test('merge patch does not mutate its inputs', () => {
  const original = Object.freeze({ spec: Object.freeze({ replicas: 1 }) });
  const patch = Object.freeze({ spec: Object.freeze({ replicas: 2 }) });
  assert.deepEqual(applyMergePatch(original, patch), { spec: { replicas: 2 } });
  assert.equal(original.spec.replicas, 1);
});
