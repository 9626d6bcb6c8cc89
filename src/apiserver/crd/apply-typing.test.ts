// What server-side apply types against a CRD schema: free-form objects, preserved subtrees and embedded resources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toFieldSet } from '../patch/typed-value.ts';
import { toFieldsV1 } from '../patch/field-set.ts';
import { applyTypeErrors, schemaPatchMeta } from './apply-typing.ts';
import type { JSONSchemaProps } from './types.ts';

const undeclared = (obj: Record<string, unknown>, s: JSONSchemaProps): string[] => applyTypeErrors(obj, s).map((e) => e.path);

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
  assert.deepEqual(undeclared({ spec: { free: { a: 1, nested: { x: [1] } }, open: { b: 2 } } }, schema), []);
});

test('below x-kubernetes-preserve-unknown-fields even objects with properties take unknown fields', () => {
  assert.deepEqual(undeclared({ spec: { keep: { other: 1, inner: { b: 2 } } } }, schema), []);
});

test('an object with properties refuses the others, in lists and embedded resources too', () => {
  const applied = { apiVersion: 'x/v1', kind: 'W', metadata: {}, status: {}, spec: { closed: { b: 1 }, items: [{ a: 'x', c: 1 }], template: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { image: 'i' }, extra: 1 } } };
  assert.deepEqual(undeclared(applied, schema), ['status', 'spec.closed.b', 'spec.items[0].c', 'spec.template.extra']);
});

test('a root with no properties still declares only apiVersion, kind and metadata', () => {
  assert.deepEqual(undeclared({ apiVersion: 'x/v1', spec: { a: 1 } }, { type: 'object' }), ['spec']);
});

test('managed fields record the keys of a free-form object as map elements', () => {
  const meta = schemaPatchMeta(schema, undefined);
  const set = toFieldSet({ spec: { free: { a: 1, nested: { x: 1 } }, closed: { a: 'y' } } }, meta);
  assert.deepEqual(toFieldsV1(set), { 'f:spec': { 'f:closed': { 'f:a': {} }, 'f:free': { 'f:a': {}, 'f:nested': { '.': {}, 'f:x': {} } } } });
});

test('a value of the wrong type is a typing error in structured-merge-diff words; null fits any type', () => {
  const typed = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' }, l: { type: 'array', items: { type: 'string' } }, ios: { 'x-kubernetes-int-or-string': true } } } } } as JSONSchemaProps;
  assert.deepEqual(applyTypeErrors({ spec: { n: 'x', s: 1, l: [1, null], ios: 'a' } }, typed), [
    { path: 'spec.n', message: 'expected numeric (int or float), got string' },
    { path: 'spec.s', message: 'expected string, got &value.valueUnstructured{Value:1}' },
    { path: 'spec.l[0]', message: 'expected string, got &value.valueUnstructured{Value:1}' },
  ]);
  assert.deepEqual(applyTypeErrors({ spec: { n: null, s: null, l: null } }, typed), []);
  assert.deepEqual(applyTypeErrors({ spec: 'x' }, typed), [{ path: 'spec', message: 'expected map, got &{x}' }]);
});

test("an embedded resource's apiVersion and kind are typed as strings, as the published schema has them", () => {
  assert.deepEqual(applyTypeErrors({ spec: { template: { apiVersion: 1, kind: true, metadata: {} } } }, schema), [
    { path: 'spec.template.apiVersion', message: 'expected string, got &value.valueUnstructured{Value:1}' },
    { path: 'spec.template.kind', message: 'expected string, got &value.valueUnstructured{Value:true}' },
  ]);
});
