// What server-side apply types against a CRD schema: free-form objects, preserved subtrees and embedded resources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toFieldSet } from '../patch/typed-value.ts';
import { toFieldsV1 } from '../patch/field-set.ts';
import { schemaPatchMeta, undeclaredForApply } from './apply-typing.ts';
import type { JSONSchemaProps } from './types.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        free: { type: 'object' },
        open: { type: 'object', additionalProperties: true },
        keep: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { inner: { type: 'object', properties: { a: { type: 'string' } } } } },
        closed: { type: 'object', properties: { a: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } } },
      },
    },
  },
};

test('apply accepts any field under an object with neither properties nor additionalProperties', () => {
  assert.deepEqual(undeclaredForApply({ spec: { free: { a: 1, nested: { x: [1] } }, open: { b: 2 } } }, schema), []);
});

test('below x-kubernetes-preserve-unknown-fields even objects with properties take unknown fields', () => {
  assert.deepEqual(undeclaredForApply({ spec: { keep: { other: 1, inner: { b: 2 } } } }, schema), []);
});

test('an object with properties refuses the others, in lists and embedded resources too', () => {
  const applied = { apiVersion: 'x/v1', kind: 'W', metadata: {}, status: {}, spec: { closed: { b: 1 }, items: [{ a: 'x', c: 1 }], template: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { image: 'i' }, extra: 1 } } };
  assert.deepEqual(undeclaredForApply(applied, schema), ['status', 'spec.closed.b', 'spec.items[0].c', 'spec.template.extra']);
});

test('a root with no properties still declares only apiVersion, kind and metadata', () => {
  assert.deepEqual(undeclaredForApply({ apiVersion: 'x/v1', spec: { a: 1 } }, { type: 'object' }), ['spec']);
});

test('managed fields record the keys of a free-form object as map elements', () => {
  const meta = schemaPatchMeta(schema, undefined);
  const set = toFieldSet({ spec: { free: { a: 1, nested: { x: 1 } }, closed: { a: 'y' } } }, meta);
  assert.deepEqual(toFieldsV1(set), { 'f:spec': { 'f:closed': { 'f:a': {} }, 'f:free': { 'f:a': {}, 'f:nested': { '.': {}, 'f:x': {} } } } });
});
