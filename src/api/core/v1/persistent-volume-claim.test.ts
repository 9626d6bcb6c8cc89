import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { persistentVolumeClaimDefinition as def } from './persistent-volume-claim.ts';
import type { PersistentVolumeClaim } from './persistent-volume-claim.ts';

const now = Date.parse('2026-01-01T00:02:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function pvc(spec: PersistentVolumeClaim['spec'] = {}): PersistentVolumeClaim {
  return {
    metadata: { name: 'data', namespace: 'default', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '5Gi' } }, ...spec },
  };
}

test('pvc defaults and create: Filesystem, Pending', () => {
  const c = pvc();
  c.status = { phase: 'Bound' };
  def.defaults?.(c);
  def.prepareForCreate?.(c, ctx);
  assert.equal(c.spec?.volumeMode, 'Filesystem');
  assert.deepEqual(c.status, { phase: 'Pending' });
});

test('pvc validation: access modes and the storage request', () => {
  assert.deepEqual(msgs(def.validateCreate?.(pvc({ accessModes: [], resources: {} }), ctx)), [
    'spec.accessModes: Required value: at least 1 access mode is required',
    'spec.resources[storage]: Required value',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pvc({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] }), ctx)), [
    'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pvc({ resources: { requests: { storage: '-1Gi' } } }), ctx)), [
    'spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pvc({ volumeMode: 'Raw' as 'Block' }), ctx)), ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']);
});

test('pvc spec is immutable except binding and requests of bound claims', () => {
  const old = pvc();
  old.status = { phase: 'Pending' };
  const bind = pvc({ volumeName: 'pv1' });
  assert.deepEqual(msgs(def.validateUpdate?.(bind, old, ctx)), []);
  const grow = pvc({ resources: { requests: { storage: '10Gi' } } });
  assert.deepEqual(msgs(def.validateUpdate?.(grow, old, ctx)), [
    'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
  ]);
  const bound = pvc({ volumeName: 'pv1' });
  bound.status = { phase: 'Bound' };
  assert.deepEqual(msgs(def.validateUpdate?.(pvc({ volumeName: 'pv1', resources: { requests: { storage: '10Gi' } } }), bound, ctx)), []);
});

test('pvc table: unbound shows no capacity; bound shows the volume values', () => {
  assert.deepEqual(def.table?.columns.map((c) => `${c.name}${c.priority ? ' p1' : ''}`), [
    'Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode p1',
  ]);
  const c = pvc({ storageClassName: 'standard' });
  def.defaults?.(c);
  assert.deepEqual(def.table?.cells(c, now), ['data', 'Pending', '', '', '', 'standard', '<unset>', '2m', 'Filesystem']);
  c.spec = { ...c.spec, volumeName: 'pv1' };
  c.status = { phase: 'Bound', capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOncePod'] };
  assert.deepEqual(def.table?.cells(c, now).slice(1, 5), ['Bound', 'pv1', '5Gi', 'RWOP']);
  assert.deepEqual(def.shortNames, ['pvc']);
});
