// The schema a CRD publishes: type meta and ObjectMeta at the root and at each embedded resource.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishedSchema } from './openapi-schema.ts';
import type { JSONSchemaProps } from './types.ts';

const gvk = { group: 'ex.com', version: 'v1', kind: 'Widget' };
const objectMeta = { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata" };

const embedded = (extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } }, ...extra });

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: embedded({ required: ['spec'] }),
        list: { type: 'array', items: embedded() },
        byName: { type: 'object', additionalProperties: embedded() },
        loose: embedded({ 'x-kubernetes-preserve-unknown-fields': true }),
      },
    },
  },
};

type Node = { properties?: Record<string, Node>; items?: Node; additionalProperties?: Node; required?: string[]; type?: string };
const spec = (s: unknown): Record<string, Node> => (s as Node).properties!.spec!.properties!;

test('an embedded resource publishes apiVersion and kind (strings, required) and metadata as ObjectMeta', () => {
  const template = spec(publishedSchema(schema, gvk)).template!;
  assert.deepEqual(Object.keys(template.properties!).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.equal(template.properties!.apiVersion!.type, 'string');
  assert.equal(template.properties!.kind!.type, 'string');
  assert.match((template.properties!.kind as { description: string }).description, /^kind is a string value representing the type of this object\./);
  assert.deepEqual(template.properties!.metadata, objectMeta);
  assert.deepEqual(template.required, ['spec', 'kind', 'apiVersion']);
});

test('embedded resources in list items and map values get them too, and the CRD schema itself is untouched', () => {
  const published = spec(publishedSchema(schema, gvk));
  assert.deepEqual(published.list!.items!.required, ['kind', 'apiVersion']);
  assert.ok(published.byName!.additionalProperties!.properties!.metadata);
  assert.equal(schema.properties!.spec!.properties!.template!.properties!.kind, undefined);
});

test('the root keeps its schema and gets TypeMeta, ObjectMeta and its group-version-kind', () => {
  const root = publishedSchema(schema, gvk) as Node & Record<string, unknown>;
  assert.deepEqual(Object.keys(root.properties!).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.match((root.properties!.kind as { description: string }).description, /^Kind is a string value representing the REST resource/);
  assert.deepEqual(root['x-kubernetes-group-version-kind'], [gvk]);
});

test('swagger 2.0: an embedded resource that preserves unknown fields, and a preserving root, list no fields', () => {
  const published = spec(publishedSchema(schema, gvk, true));
  assert.equal(published.loose!.properties!.kind, undefined);
  assert.ok(published.template!.properties!.kind);
  assert.ok(spec(publishedSchema(schema, gvk)).loose!.properties!.kind, 'v3 lists them all the same');
  const open = publishedSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, gvk, true);
  assert.deepEqual(open, { type: 'object', 'x-kubernetes-group-version-kind': [gvk] });
});
