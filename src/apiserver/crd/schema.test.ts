import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import { applyDefaults, pruneUnknown, validateValue } from './schema.ts';
import { validateStructural } from './structural.ts';
import { validateListSetsAndMaps } from './list-types.ts';
import type { JSONSchemaProps } from './types.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['mode'],
      properties: {
        mode: { type: 'string', enum: ['Off', 'Auto'] },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
        name: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
        tags: { type: 'array', maxItems: 1, items: { type: 'string' } },
        image: { type: 'string', default: 'busybox' },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        when: { type: 'string', format: 'date-time' },
        owner: { type: 'string', format: 'k8s-short-name' },
        port: { type: 'string', format: 'int32' },
      },
    },
  },
};

test('custom objects are validated with the apiserver messages', () => {
  const cases: [unknown, string[]][] = [
    [{ spec: { mode: 'Off' } }, []],
    [{ spec: {} }, ['spec.mode: Required value']],
    [{ spec: { mode: 'Bad' } }, ['spec.mode: Unsupported value: "Bad": supported values: "Off", "Auto"']],
    [{ spec: { mode: 'Off', replicas: 'two' } }, ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
    [{ spec: { mode: 'Off', replicas: 0 } }, ['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1']],
    [{ spec: { mode: 'Off', replicas: 11 } }, ['spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10']],
    [{ spec: { mode: 'Off', name: 'abcd' } }, ['spec.name: Too long: may not be more than 3 bytes']],
    [{ spec: { mode: 'Off', name: 'A' } }, ["spec.name: Invalid value: \"A\": spec.name in body should match '^[a-z]+$'"]],
    [{ spec: { mode: 'Off', tags: ['a', 'b'] } }, ['spec.tags: Too many: 2: must have at most 1 items']],
    [{ spec: { mode: 'Off', when: '2026-12-06T10:00:00Z', owner: 'team-a', port: 'any' } }, []],
    [{ spec: { mode: 'Off', when: 'tomorrow' } }, ['spec.when: Invalid value: "tomorrow": spec.when in body must be of type date-time: "tomorrow"']],
    [{ spec: { mode: 'Off', owner: 'Team_A' } }, ['spec.owner: Invalid value: "Team_A": spec.owner in body must be of type k8s-short-name: "Team_A"']],
  ];
  for (const [obj, expected] of cases) {
    assert.deepEqual(validateValue(obj, schema, '').map((e) => formatFieldError(e, { withField: true })), expected, JSON.stringify(obj));
  }
});

test('unknown fields are pruned unless preserved; defaults fill what is absent', () => {
  const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: { mode: 'Off', bogus: 1, free: { any: { thing: 1 } } }, extra: true };
  assert.deepEqual(pruneUnknown(obj, schema, true), ['spec.bogus', 'extra']);
  applyDefaults(obj, schema);
  assert.deepEqual(obj, { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: { mode: 'Off', free: { any: { thing: 1 } }, image: 'busybox' } });
});

test("a field named as one of Object.prototype's members is pruned, or defaulted, by the schema alone", () => {
  const named: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { toString: { type: 'string', default: 'set' } } } } };
  const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: { constructor: 5, valueOf: { a: 1 } } };
  assert.deepEqual(pruneUnknown(obj, named, true), ['spec.constructor', 'spec.valueOf']);
  applyDefaults(obj, named);
  assert.deepEqual(obj.spec, { toString: 'set' });
});

test('non-structural schemas are rejected with the upstream messages', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const cases: [JSONSchemaProps, string[]][] = [
    [{ type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } }, [`${at}.properties[spec].type: Required value: must not be empty for specified object fields`]],
    [{ type: 'object', properties: { list: { type: 'array' } } }, [`${at}.properties[list].items: Required value: must be specified`]],
    [{ type: 'string' }, [`${at}.type: Invalid value: "string": must be object at the root`]],
    [{ type: 'object', properties: { q: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } }, []],
    [{ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }, [`${at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]],
  ];
  for (const [s, expected] of cases) assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), expected, JSON.stringify(s));
});

test('JSON-Schema features a CRD does not support are refused as specStandardValidatorV3 refuses them', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const spec = (s: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec: s } });
  const cases: [JSONSchemaProps, string[]][] = [
    // A typo of a type name: kubectl before 1.30 fails every command on the OpenAPI it would publish.
    [spec({ type: 'int' }), [`${at}.properties[spec].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`]],
    [spec({ type: 'null' }), [`${at}.properties[spec].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`, `${at}.properties[spec].type: Forbidden: type cannot be set to null, use nullable as an alternative`]],
    [spec({ type: 'object', id: 'x' }), [`${at}.properties[spec].id: Forbidden: id is not supported`]],
    [spec({ type: 'array', items: { type: 'string' }, additionalItems: false }), [`${at}.properties[spec].additionalItems: Forbidden: additionalItems is not supported`]],
    [spec({ type: 'object', patternProperties: { '^a': { type: 'string' } } }), [`${at}.properties[spec].patternProperties: Forbidden: patternProperties is not supported`]],
    [spec({ type: 'object', definitions: { a: { type: 'string' } } }), [`${at}.properties[spec].definitions: Forbidden: definitions is not supported`]],
    [spec({ type: 'object', dependencies: { a: ['b'] } }), [`${at}.properties[spec].dependencies: Forbidden: dependencies is not supported`]],
    [spec({ type: 'array', items: { type: 'string' }, uniqueItems: true }), [`${at}.properties[spec].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]],
    [spec({ type: 'array', items: [{ type: 'string' }] as unknown as JSONSchemaProps }), [`${at}.properties[spec].items: Forbidden: items must be a schema object and not an array`]],
    [spec({ type: 'object', properties: { n: { type: 'string', anyOf: [{ type: 'float' } as JSONSchemaProps] } } }), [`${at}.properties[spec].properties[n].anyOf[0].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`, `${at}.properties[spec].properties[n].anyOf[0].type: Forbidden: must be empty to be structural`]],
  ];
  for (const [s, expected] of cases) assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), expected, JSON.stringify(s));
  // Through junctors' subschemas, however deep.
  const nested = spec({ type: 'object', properties: { a: { type: 'string' } }, not: { properties: { a: { anyOf: [{ id: 'x' }] } } } });
  assert.deepEqual(validateStructural(nested, at).map((e) => formatFieldError(e, { withField: true })), [`${at}.properties[spec].not.properties[a].anyOf[0].id: Forbidden: id is not supported`]);
  // A stored schema with such a type is not held to the supported ones on update.
  assert.deepEqual(validateStructural(spec({ type: 'int' }), at, { validTypes: false }), []);
});

/** An object schema whose `spec` holds `properties`. */
const withSpec = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', properties } } });

test("multipleOf, minProperties and maxProperties, and allOf/anyOf/oneOf/not at the request's root, in kube-openapi's words", () => {
  const s = withSpec({
    batch: { type: 'integer', multipleOf: 8 },
    ratio: { type: 'number', multipleOf: 0.1 },
    selector: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: { type: 'string', maxLength: 3 } },
    size: { type: 'string', oneOf: [{ pattern: '^[0-9]+Gi$' }, { pattern: '^[0-9]+$' }] },
    mode: { type: 'string', anyOf: [{ enum: ['a'] }, { enum: ['b'] }], not: { enum: ['c'] } },
  });
  const run = (spec: unknown): string[] => validateValue({ spec }, s, '').map((e) => formatFieldError(e, { withField: true }));
  assert.deepEqual(run({ batch: 16, ratio: 0.3, selector: { a: 'x' }, size: '10Gi', mode: 'a' }), []);
  assert.deepEqual(run({ batch: 12 }), ['spec.batch: Invalid value: 12: spec.batch in body should be a multiple of 8']);
  assert.deepEqual(run({ selector: {} }), ['spec.selector: Invalid value: 0: spec.selector in body should have at least 1 properties']);
  assert.deepEqual(run({ selector: { a: 'x', b: 'y', c: 'toolong' } }), ['spec.selector: Too many: 3: must have at most 2 items'], 'the object stops there: its values are not checked');
  assert.deepEqual(run({ size: '10' }), []);
  assert.deepEqual(run({ size: 'ten' }), ['<nil>: Invalid value: "": "spec.size" must validate one and only one schema (oneOf). Found none valid', "spec.size: Invalid value: \"ten\": spec.size in body should match '^[0-9]+Gi$'"]);
  assert.deepEqual(run({ mode: 'z' })[0], '<nil>: Invalid value: "": "spec.mode" must validate at least one schema (anyOf)');
  const twice: JSONSchemaProps = { type: 'object', properties: { n: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }], not: { minimum: 100 } } } };
  assert.deepEqual(validateValue({ n: 5 }, twice, '').map((e) => formatFieldError(e, { withField: true })), ['<nil>: Invalid value: "": "n" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
  assert.deepEqual(validateValue({ n: 200 }, twice, '').map((e) => formatFieldError(e, { withField: true })), ['<nil>: Invalid value: "": "n" must not validate the schema (not)']);
});

test('x-kubernetes-list-type set and map: a repeated item or key is a Duplicate at its second index', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } } },
      routes: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['host', 'path'], items: { type: 'object', properties: { host: { type: 'string' }, path: { type: 'string' } } } },
    },
  } as JSONSchemaProps;
  const run = (v: unknown): string[] => validateListSetsAndMaps(v, s, '').map((e) => formatFieldError(e, { withField: true }));
  assert.deepEqual(run({ tags: ['a', 'b'], ports: [{ port: 80 }, { port: 443 }] }), []);
  assert.deepEqual(run({ tags: ['a', 'b', 'a', 'a', 'b'] }), ['tags[2]: Duplicate value: "a"', 'tags[4]: Duplicate value: "b"']);
  assert.deepEqual(run({ ports: [{ port: 80, name: 'http' }, { port: 80, name: 'web' }] }), ['ports[1]: Duplicate value: {"port":80}']);
  assert.deepEqual(run({ routes: [{ host: 'a', path: '/' }, { host: 'a', path: '/v1' }, { host: 'a', path: '/' }] }), ['routes[2]: Duplicate value: {"host":"a","path":"/"}']);
  assert.deepEqual(run({ ports: [80] }), ['ports[0]: Invalid value: 80: must be an object for an array of list-type map']);
});

test('validation ratcheting: on update, a value equal to the one it correlates with keeps its errors; a changed one is checked', () => {
  const s = withSpec({
    name: { type: 'string', maxLength: 3 },
    replicas: { type: 'integer', maximum: 4 },
    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', minimum: 1024 } } } },
    args: { type: 'array', items: { type: 'string', maxLength: 2 } },
  });
  const run = (value: unknown, old?: unknown): string[] => validateValue(value, s, '', old === undefined ? undefined : { value: old }).map((e) => formatFieldError(e, { withField: true }));
  const stored = { spec: { name: 'abcd', replicas: 2, ports: [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }], args: ['long'] } };
  assert.deepEqual(run(stored).length, 3, 'on create every error counts');
  assert.deepEqual(run({ spec: { ...stored.spec, replicas: 3 } }, stored), [], 'the invalid fields did not change');
  assert.deepEqual(run({ spec: { ...stored.spec, name: 'abcde' } }, stored), ['spec.name: Too long: may not be more than 3 bytes']);
  assert.deepEqual(run({ spec: { ...stored.spec, ports: [{ name: 'metrics', port: 9090 }, { name: 'http', port: 80 }] } }, stored), [], 'map-list items correlate by key, not index');
  assert.deepEqual(run({ spec: { ...stored.spec, ports: [{ name: 'http', port: 81 }] } }, stored), ['spec.ports[0].port: Invalid value: 81: spec.ports[0].port in body should be greater than or equal to 1024']);
  assert.deepEqual(run({ spec: { ...stored.spec, args: ['long', 'x'] } }, stored), ['spec.args[0]: Too long: may not be more than 2 bytes'], "an atomic list's items do not correlate");
});

test("the Kubernetes extensions of a schema node and its validation rules are checked as a CRD is written, in upstream's words", () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const spec = (s: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec: s } });
  const item = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } as JSONSchemaProps;
  const cases: [JSONSchemaProps, string[]][] = [
    [spec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false } as JSONSchemaProps), [`${at}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]],
    [spec({ type: 'string', 'x-kubernetes-list-type': 'set' } as JSONSchemaProps), [`${at}.properties[spec].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`]],
    [spec({ type: 'array', items: item, 'x-kubernetes-list-type': 'map' } as JSONSchemaProps), [`${at}.properties[spec].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]],
    [spec({ type: 'array', items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'nope'] } as JSONSchemaProps), [
      `${at}.properties[spec].x-kubernetes-list-map-keys: Invalid value: ["name","nope"]: entries must all be names of item properties`,
      `${at}.properties[spec].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]],
    [spec({ type: 'array', items: { ...item, required: ['name'] }, 'x-kubernetes-list-map-keys': ['name'] } as JSONSchemaProps), [`${at}.properties[spec].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`]],
    [spec({ type: 'array', items: item, 'x-kubernetes-list-type': 'set' } as JSONSchemaProps), [`${at}.properties[spec].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`]],
    [spec({ type: 'object', 'x-kubernetes-map-type': 'merge' } as unknown as JSONSchemaProps), [`${at}.properties[spec].x-kubernetes-map-type: Unsupported value: "merge": supported values: "atomic", "granular"`]],
    [{ type: 'object', nullable: true }, [`${at}.nullable: Forbidden: nullable cannot be true at the root`]],
    [{ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } } }, [`${at}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`]],
  ];
  for (const [s, expected] of cases) assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), expected, JSON.stringify(s));
  const rules = (list: unknown[], extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => spec({ type: 'object', properties: { replicas: { type: 'integer' } }, ...extra, 'x-kubernetes-validations': list } as JSONSchemaProps);
  const ruleCases: [JSONSchemaProps, string[]][] = [
    [rules([{ rule: ' ' }]), [`${at}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`]],
    [rules([{ rule: 'self.replicas > 0 &&\nself.replicas < 9' }]), [`${at}.properties[spec].x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`]],
    [rules([{ rule: 'self.replicas > 0', reason: 'FieldValueWrong' }]), [`${at}.properties[spec].x-kubernetes-validations[0].reason: Unsupported value: "FieldValueWrong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`]],
    [rules([{ rule: 'self.replicas > 0', fieldPath: '.replicas' }, { rule: 'self.replicas > 0', fieldPath: '.nope' }]), [`${at}.properties[spec].x-kubernetes-validations[1].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`]],
    [rules([{ rule: 'self.replicas > 0', optionalOldSelf: false }]), [`${at}.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule`]],
    [rules([{ rule: "duration('1x') > duration('1s')", message: 'm' }]), [`${at}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"duration('1x') > duration('1s')", Message:"m", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^`]],
  ];
  for (const [s, expected] of ruleCases) assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), expected, JSON.stringify(s));
  const underList = spec({ type: 'object', properties: { items: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } } } } as JSONSchemaProps);
  assert.deepEqual(validateStructural(underList, at).map((e) => formatFieldError(e, { withField: true })), [`${at}.properties[spec].properties[items].items.x-kubernetes-validations[0].rule: Invalid value: "self >= oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[spec].properties[items]`]);
});

test('a default must be valid where it applies: its schema and its rules, the errors under .default', () => {
  const at = 'spec.validation.openAPIV3Schema';
  const s = withSpec({
    mode: { type: 'string', enum: ['Serve', 'Drain'], default: 'Pause' },
    replicas: { type: 'integer', minimum: 1, default: 1 },
    worker: { type: 'object', default: {}, properties: { min: { type: 'integer' }, max: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.min <= self.max' }] },
  });
  assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), [
    `${at}.properties[spec].properties[mode].default: Unsupported value: "Pause": supported values: "Serve", "Drain"`,
    `${at}.properties[spec].properties[worker].default: Invalid value: "object": no such key: min evaluating rule: self.min <= self.max`,
  ]);
});

test('a default must not hold fields its schema would prune, unless the stored CRD already had such a default', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const s = withSpec({ worker: { type: 'object', default: { name: 'foo', unknown: 42, tags: ['a'] }, properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } });
  assert.deepEqual(validateStructural(s, at).map((e) => formatFieldError(e, { withField: true })), [
    `${at}.properties[spec].properties[worker].default: Invalid value: map[string]interface {}{"name":"foo", "tags":[]interface {}{"a"}, "unknown":42}: must not have unknown fields`,
  ]);
  assert.deepEqual(validateStructural(s, at, { prunedDefaults: false }), []);
  const kept = withSpec({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { anything: 1 } } });
  assert.deepEqual(validateStructural(kept, at), [], 'a node that keeps unknown fields prunes nothing');
});
