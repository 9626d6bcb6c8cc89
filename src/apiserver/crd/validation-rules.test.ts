// CRD validation rules by themselves: upstream's error for a rule that fails to evaluate, a transition
// rule skipped without an old value, and map-list items correlated by key for oldSelf.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { validateRules } from './validation-rules.ts';

const messages = (errors: ReturnType<typeof validateRules>): string[] => errors.map((e) => formatFieldError(e, { withField: true }));

test('a rule that fails to evaluate is reported with the rule, as upstream', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.limit > 1' }] } } } as JSONSchemaProps;
  assert.deepEqual(messages(validateRules({ spec: {} }, undefined, schema, '')), ['spec: Invalid value: "object": no such key: limit evaluating rule: self.limit > 1']);
});

test('transition rules need an old value; map-list items correlate by key', () => {
  const items = { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not shrink' }] } } };
  const schema = { type: 'object', properties: { disks: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items } } } as unknown as JSONSchemaProps;
  const old = { disks: [{ name: 'a', size: 10 }, { name: 'b', size: 5 }] };
  assert.deepEqual(messages(validateRules({ disks: [{ name: 'b', size: 4 }, { name: 'c', size: 1 }] }, old, schema, '')), ['disks[0].size: Invalid value: "integer": may not shrink']);
  assert.deepEqual(validateRules(old, undefined, schema, ''), [], 'no old value on create');
});

test('a rule may use optional types: a field that is absent gives its orValue', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.?maxReplicas.orValue(10)', message: 'too many replicas' }] } } } as unknown as JSONSchemaProps;
  assert.deepEqual(validateRules({ spec: { replicas: 8 } }, undefined, schema, ''), []);
  assert.deepEqual(messages(validateRules({ spec: { replicas: 12 } }, undefined, schema, '')), ['spec: Invalid value: "object": too many replicas']);
  assert.deepEqual(messages(validateRules({ spec: { replicas: 12, maxReplicas: 20 } }, undefined, schema, '')), []);
});

test("a rule may use Kubernetes' IP, CIDR and URL libraries (isIP, cidr().containsIP, isURL)", () => {
  const address = { type: 'object', properties: { type: { type: 'string' }, value: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "self.type == 'IPAddress' ? isIP(self.value) : true", message: 'value must be an IP address' }] };
  const schema = { type: 'object', properties: { addresses: { type: 'array', items: address }, cidr: { type: 'string', 'x-kubernetes-validations': [{ rule: "cidr(self).containsIP('10.0.0.1')", message: 'must contain 10.0.0.1' }] } } } as unknown as JSONSchemaProps;
  assert.deepEqual(validateRules({ addresses: [{ type: 'IPAddress', value: '10.0.0.5' }, { type: 'Hostname', value: 'gw.example.com' }], cidr: '10.0.0.0/8' }, undefined, schema, ''), []);
  assert.deepEqual(messages(validateRules({ addresses: [{ type: 'IPAddress', value: 'gw.example.com' }], cidr: '192.168.0.0/16' }, undefined, schema, '')), [
    'addresses[0]: Invalid value: "object": value must be an IP address',
    'cidr: Invalid value: "string": must contain 10.0.0.1',
  ]);
});

test('a date-time, duration or byte field is a timestamp, duration or bytes in a rule; two-variable comprehensions and the Format library compile', () => {
  const spec = {
    type: 'object',
    properties: {
      start: { type: 'string', format: 'date-time' },
      end: { type: 'string', format: 'date-time' },
      grace: { type: 'string', format: 'duration' },
      key: { type: 'string', format: 'byte' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
    'x-kubernetes-validations': [
      { rule: "self.end - self.start >= duration('1h')", message: 'the window must last an hour' },
      { rule: "self.grace <= duration('5m')", message: 'grace is at most five minutes' },
      { rule: 'size(self.key) == 16', message: 'key must be 16 bytes' },
      { rule: 'self.labels.all(k, v, !format.labelValue().validate(v).hasValue())', messageExpression: "'invalid label values: ' + self.labels.transformList(k, v, format.labelValue().validate(v).hasValue(), k).join(', ')" },
    ],
  };
  const schema = { type: 'object', properties: { spec } } as unknown as JSONSchemaProps;
  const good = { start: '2026-12-06T10:00:00Z', end: '2026-12-06T11:30:00+00:00', grace: '30s', key: Buffer.alloc(16).toString('base64'), labels: { app: 'web' } };
  assert.deepEqual(messages(validateRules({ spec: good }, undefined, schema, '')), []);
  const bad = { start: '2026-12-06T10:00:00Z', end: '2026-12-06T10:30:00Z', grace: '1 hour', key: 'AAAA', labels: { app: 'web', team: 'a b' } };
  assert.deepEqual(messages(validateRules({ spec: bad }, undefined, schema, '')), [
    'spec: Invalid value: "object": the window must last an hour',
    'spec: Invalid value: "object": grace is at most five minutes',
    'spec: Invalid value: "object": key must be 16 bytes',
    'spec: Invalid value: "object": invalid label values: team',
  ]);
});

test("a property whose name is a CEL keyword or holds '-', '.', '/' or '__' is reached by its escaped name", () => {
  const spec = {
    type: 'object',
    properties: { namespace: { type: 'string' }, 'max-replicas': { type: 'integer' }, 'example.com/tier': { type: 'string' }, __internal: { type: 'boolean' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
    'x-kubernetes-validations': [
      { rule: "self.__namespace__ == 'prod' && self.max__dash__replicas <= 8", message: 'prod runs at most 8 replicas' },
      { rule: "self.example__dot__com__slash__tier == 'gold' && !self.__underscores__internal", message: 'tier must be gold' },
      { rule: "self.labels['app-name'] == 'web'", message: 'map keys stay as they are' },
    ],
  };
  const schema = { type: 'object', properties: { spec } } as unknown as JSONSchemaProps;
  const value = { namespace: 'prod', 'max-replicas': 4, 'example.com/tier': 'gold', __internal: false, labels: { 'app-name': 'web' } };
  assert.deepEqual(messages(validateRules({ spec: value }, undefined, schema, '')), []);
  assert.deepEqual(messages(validateRules({ spec: { ...value, 'max-replicas': 9, __internal: true } }, undefined, schema, '')), ['spec: Invalid value: "object": prod runs at most 8 replicas', 'spec: Invalid value: "object": tier must be gold']);
});

test('validation ratcheting: a rule on a value equal to the old one it correlates with keeps its errors', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, tier: { type: 'string', 'x-kubernetes-validations': [{ rule: "self in ['gold', 'silver']", message: 'unknown tier' }] } } } } } as unknown as JSONSchemaProps;
  const stored = { spec: { replicas: 1, tier: 'bronze' } };
  assert.deepEqual(messages(validateRules(stored, undefined, schema, '')), ['spec.tier: Invalid value: "string": unknown tier']);
  assert.deepEqual(validateRules({ spec: { replicas: 2, tier: 'bronze' } }, stored, schema, ''), []);
  assert.deepEqual(messages(validateRules({ spec: { replicas: 2, tier: 'copper' } }, stored, schema, '')), ['spec.tier: Invalid value: "string": unknown tier']);
});
