import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { secretDefinition as def } from './secret.ts';
import type { Secret } from './secret.ts';

const now = Date.parse('2026-01-01T00:00:30Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const secret = (over: Partial<Secret> = {}): Secret => ({ metadata: { name: 's', namespace: 'default', resourceVersion: '1' }, ...over });

test('secret defaults: type Opaque, stringData merged into base64 data and dropped', () => {
  const s = secret({ data: { a: 'b2xk', keep: 'eA==' }, stringData: { a: 'new', pass: 'hunter2' } });
  def.defaults?.(s);
  assert.equal(s.type, 'Opaque');
  assert.deepEqual(s.data, { a: 'bmV3', keep: 'eA==', pass: 'aHVudGVyMg==' });
  assert.equal(s.stringData, undefined);
});

test('stringData keys named as Object.prototype members become data keys', () => {
  const s = secret({ stringData: JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string> });
  def.defaults?.(s);
  assert.deepEqual(Object.keys(s.data ?? {}), ['__proto__', 'constructor']);
  assert.equal(JSON.stringify(s.data), '{"__proto__":"eA==","constructor":"eQ=="}');
});

test('secret type-specific required keys', () => {
  assert.deepEqual(msgs(def.validateCreate?.(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==' } }), ctx)), ['data[tls.key]: Required value']);
  assert.deepEqual(msgs(def.validateCreate?.(secret({ type: 'kubernetes.io/basic-auth' }), ctx)), ['data[username]: Required value', 'data[password]: Required value']);
  assert.deepEqual(msgs(def.validateCreate?.(secret({ type: 'kubernetes.io/service-account-token' }), ctx)), [
    'metadata.annotations[kubernetes.io/service-account.name]: Required value',
  ]);
  const badJSON = Buffer.from('{nope').toString('base64');
  const errs = msgs(def.validateCreate?.(secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': badJSON } }), ctx));
  assert.equal(errs.length, 1);
  assert.match(errs[0] ?? '', /^data\[\.dockerconfigjson\]: Invalid value: "<secret contents redacted>": /);
});

test('secret type is immutable', () => {
  const old = secret({ type: 'Opaque' });
  assert.deepEqual(msgs(def.validateUpdate?.(secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': 'eA==' } }), old, ctx)), [
    'type: Invalid value: "kubernetes.io/ssh-auth": field is immutable',
  ]);
});

test('secret table and type field label', () => {
  const s = secret({ type: 'Opaque', data: { a: 'eA==' }, metadata: { name: 's', creationTimestamp: '2026-01-01T00:00:00Z' } });
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Type', 'Data', 'Age']);
  assert.deepEqual(def.table?.cells(s, now), ['s', 'Opaque', 1, '30s']);
  assert.equal(def.fieldLabels?.['type']?.(s), 'Opaque');
});
