import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { configMapDefinition as def } from './config-map.ts';
import type { ConfigMap } from './config-map.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const cm = (over: Partial<ConfigMap> = {}): ConfigMap => ({ metadata: { name: 'cfg', namespace: 'default', resourceVersion: '1' }, ...over });

test('configmap keys and the binaryData overlap', () => {
  assert.deepEqual(msgs(def.validateCreate?.(cm({ data: { 'a b': 'x', '..': 'y', ok: 'z' }, binaryData: { ok: 'eg==' } }), ctx)), [
    `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    `data[..]: Invalid value: "..": must not be '..'`,
    'data[ok]: Invalid value: "ok": duplicate of key present in binaryData',
  ]);
});

test("keys named as Object.prototype's members overlap binaryData only when binaryData has them", () => {
  const data = JSON.parse('{"constructor":"x","toString":"y","__proto__":"z"}') as Record<string, string>;
  assert.deepEqual(msgs(def.validateCreate?.(cm({ data, binaryData: { other: 'eg==' } }), ctx)), []);
  assert.deepEqual(msgs(def.validateCreate?.(cm({ data, binaryData: JSON.parse('{"constructor":"eg=="}') as Record<string, string> }), ctx)), [
    'data[constructor]: Invalid value: "constructor": duplicate of key present in binaryData',
  ]);
});

test('immutable configmaps refuse data changes and un-immutabling', () => {
  const old = cm({ immutable: true, data: { a: '1' } });
  assert.deepEqual(msgs(def.validateUpdate?.(cm({ immutable: false, data: { a: '2' } }), old, ctx)), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(msgs(def.validateUpdate?.(cm({ immutable: true, data: { a: '1' }, metadata: { name: 'cfg', namespace: 'default', resourceVersion: '1', labels: { x: 'y' } } }), old, ctx)), []);
});

test('configmap table counts data and binaryData', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Data', 'Age']);
  assert.deepEqual(def.table?.cells(cm({ data: { a: '1', b: '2' }, binaryData: { c: 'AA==' }, metadata: { name: 'cfg', creationTimestamp: '2026-01-01T00:00:00Z' } }), now), ['cfg', 3, '60m']);
  assert.deepEqual(def.shortNames, ['cm']);
});
