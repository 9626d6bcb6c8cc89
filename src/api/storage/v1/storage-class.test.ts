import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { storageClassDefinition as def } from './storage-class.ts';
import type { StorageClass } from './storage-class.ts';

const now = Date.parse('2026-01-02T00:00:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const sc = (over: Partial<StorageClass> = {}): StorageClass => ({
  metadata: { name: 'standard', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
  provisioner: 'drydock.dev/hostpath',
  ...over,
});

test('storage class defaults: Delete and Immediate', () => {
  const s = sc();
  def.defaults?.(s);
  assert.deepEqual([s.reclaimPolicy, s.volumeBindingMode], ['Delete', 'Immediate']);
});

test('storage class table with the (default) marker', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
  const s = sc({ volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true });
  s.metadata.annotations = { 'storageclass.kubernetes.io/is-default-class': 'true' };
  assert.deepEqual(def.table?.cells(s, now), ['standard (default)', 'drydock.dev/hostpath', 'Delete', 'WaitForFirstConsumer', true, '24h']);
  s.metadata.annotations = { 'storageclass.kubernetes.io/is-default-class': 'false' };
  assert.equal(def.table?.cells(s, now)[0], 'standard');
  assert.deepEqual(def.shortNames, ['sc']);
});

test('storage class validation: provisioner required, policies supported, updates forbidden', () => {
  const s = sc({ provisioner: '', reclaimPolicy: 'Recycle' });
  def.defaults?.(s);
  assert.deepEqual(msgs(def.validateCreate?.(s, ctx)), ['provisioner: Required value', 'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']);
  const old = sc();
  def.defaults?.(old);
  const upd = sc({ provisioner: 'other.io/p', parameters: { type: 'ssd' } });
  def.defaults?.(upd);
  assert.deepEqual(msgs(def.validateUpdate?.(upd, old, ctx)), [
    'parameters: Forbidden: updates to parameters are forbidden.',
    'provisioner: Forbidden: updates to provisioner are forbidden.',
  ]);
});
