// x-kubernetes-embedded-resource objects: decoded and validated as resources, with upstream's messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import { coerceEmbedded, embeddedResourceErrors } from './embedded-resource.ts';
import type { JSONSchemaProps } from './types.ts';

const embedded: JSONSchemaProps = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: embedded,
        byName: { type: 'object', additionalProperties: embedded },
        list: { type: 'array', items: embedded },
      },
    },
  },
};

const messages = (obj: Record<string, unknown>): string[] => embeddedResourceErrors(obj, schema).map((e) => formatFieldError(e, { withField: true }));

test('an embedded resource needs apiVersion and kind, but neither name nor metadata', () => {
  assert.deepEqual(messages({ spec: { template: {}, list: [{ apiVersion: 'v1', kind: 'Pod' }] } }), ['spec.template.apiVersion: Required value', 'spec.template.kind: Required value']);
});

test('apiVersion, kind and metadata are checked as a resource is, at field paths with keys and indexes', () => {
  const obj = {
    spec: {
      byName: { a: { apiVersion: 'a/b/c', kind: 'Pod_x' } },
      list: [{ apiVersion: 1, kind: '', metadata: { name: 'a/b', namespace: 'Bad_NS', labels: { '-a': 'b' } } }],
    },
  };
  assert.deepEqual(messages(obj), [
    'spec.byName[a].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    `spec.byName[a].kind: Invalid value: "Pod_x": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    'spec.list[0].apiVersion: Invalid value: 1: must be a string',
    'spec.list[0].kind: Required value',
    `spec.list[0].metadata.name: Invalid value: "a/b": may not contain '/'`,
    `spec.list[0].metadata.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    `spec.list[0].metadata.labels: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ]);
});

test('decoding keeps only ObjectMeta fields of embedded metadata, and drops empty ones', () => {
  const obj = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', foo: 1, annotations: {}, creationTimestamp: null, labels: { a: 'b' } }, spec: { x: 1 } } } };
  const got = coerceEmbedded(obj, schema, true);
  assert.deepEqual([got.unknown, got.typeError], [['spec.template.metadata.foo'], undefined]);
  assert.deepEqual(obj.spec.template, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { a: 'b' } }, spec: { x: 1 } });
});

test('decoding refuses a non-string kind and a metadata that is no ObjectMeta', () => {
  assert.equal(coerceEmbedded({ spec: { template: { kind: 1 } } }, schema, true).typeError, 'spec.template.kind: Invalid value: 1: must be a string');
  assert.equal(
    coerceEmbedded({ spec: { template: { metadata: { labels: 'x' } } } }, schema, true).typeError,
    'spec.template.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
  );
});
