import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPathString, validFieldPath } from './field-path.ts';
import type { JSONSchemaProps } from './types.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        'a.b': { type: 'string' },
        "it's": { type: 'string' },
        size: { type: 'integer' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', additionalProperties: true },
      },
    },
  },
};

test('a field path walks properties and map keys, and names the field it reaches as field.Path prints it', () => {
  const cases: [string, string, string | undefined][] = [
    ['.spec.size', 'spec.size', 'integer'],
    ['.spec.labels.team', 'spec.labels[team]', 'string'],
    [".spec['a.b']", 'spec.a.b', 'string'],
    [".spec['it\\'s']", "spec.it's", 'string'],
    [".spec.labels['x.y']", 'spec.labels[x.y]', 'string'],
    ['.spec.free.anything', 'spec.free[anything]', undefined],
  ];
  for (const [path, printed, type] of cases) {
    const found = validFieldPath(path, schema);
    assert.ok(found.ok, path);
    assert.equal(fieldPathString(found.steps), printed, path);
    assert.equal(found.schema?.type, type, path);
  }
});

test("a path that is not a field of the schema gets upstream's reason", () => {
  const cases: [string, string][] = [
    ['spec', 'expected [ or . but got: spec'],
    ['.spec.', 'unexpected end of JSON path'],
    ['.spec..size', 'does not refer to a valid field'],
    ['.spec.size.x', 'does not refer to a valid field'],
    ['.spec.free.a.b', 'does not refer to a valid field'],
    ['.spec[size]', 'expected single quoted string but got size'],
    [".spec['size'", 'unexpected end of JSON path'],
    [".spec['size'x", 'expected ] but got x'],
    [".spec['\\q']", 'invalid string literal: invalid escape char \\q'],
    ['.spec[', 'unexpected end of JSON path'],
  ];
  for (const [path, message] of cases) assert.deepEqual(validFieldPath(path, schema), { ok: false, message }, path);
  assert.deepEqual(validFieldPath(".spec['size']", schema, { allowArrayNotation: false }), { ok: false, message: 'array notation is not allowed' });
});
