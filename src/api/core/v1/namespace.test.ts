import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { namespaceDefinition as def } from './namespace.ts';
import type { Namespace } from './namespace.ts';

const ctx = { now: Date.parse('2026-01-01T00:00:00Z') };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

test('namespace create: Active phase, the kubernetes finalizer and the metadata.name label', () => {
  const ns: Namespace = { metadata: { name: 'team-a' }, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } };
  def.defaults?.(ns);
  def.prepareForCreate?.(ns, ctx);
  assert.deepEqual(ns.status, { phase: 'Active' });
  assert.deepEqual(ns.spec?.finalizers, ['example.com/x', 'kubernetes']);
  assert.equal(ns.metadata.labels?.['kubernetes.io/metadata.name'], 'team-a');
});

test('namespace update keeps finalizers and status; /status keeps spec', () => {
  const old: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
  const upd: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
  def.prepareForUpdate?.(upd, old, ctx);
  assert.deepEqual(upd.spec?.finalizers, ['kubernetes']);
  assert.deepEqual(upd.status, { phase: 'Active' });
  const fin: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
  def.prepareForUpdate?.(fin, old, { ...ctx, subresource: 'finalize' });
  assert.deepEqual(fin.spec?.finalizers, []);
  assert.deepEqual(fin.status, { phase: 'Active' });
});

test('namespace validation messages', () => {
  assert.deepEqual(msgs(def.validateCreate?.({ metadata: { name: 'Bad_Name' } }, ctx)), [
    `metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(msgs(def.validateCreate?.({ metadata: { name: 'a' }, spec: { finalizers: ['custom'] } }, ctx)), [
    'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  const old: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, status: { phase: 'Active' } };
  assert.deepEqual(msgs(def.validateStatusUpdate?.({ metadata: { name: 'a', resourceVersion: '1' }, status: { phase: 'Terminating' } }, old, ctx)), [
    "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
  ]);
});

test('namespace table and field label', () => {
  const ns: Namespace = { metadata: { name: 'default', creationTimestamp: '2025-12-31T23:00:00Z' }, status: { phase: 'Active' } };
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Status', 'Age']);
  assert.deepEqual(def.table?.cells(ns, ctx.now), ['default', 'Active', '60m']);
  assert.equal(def.fieldLabels?.['status.phase']?.(ns), 'Active');
});
