import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { persistentVolumeDefinition as def } from './persistent-volume.ts';
import type { PersistentVolume } from './persistent-volume.ts';
import { accessModesText } from './volume-access.ts';

const now = Date.parse('2026-01-01T00:00:40Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function pv(spec: PersistentVolume['spec'] = {}): PersistentVolume {
  return {
    metadata: { name: 'pv1', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' }, ...spec },
  };
}

test('access mode short forms, in upstream order', () => {
  const cases: [string[], string][] = [
    [['ReadWriteOnce'], 'RWO'],
    [['ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOnce'], 'RWO,ROX,RWX'],
    [['ReadWriteOncePod'], 'RWOP'],
    [['ReadWriteOnce', 'ReadWriteOnce'], 'RWO'],
    [[], ''],
  ];
  for (const [modes, want] of cases) assert.equal(accessModesText(modes), want, modes.join(','));
});

test('pv defaults and create: Retain, Filesystem, Pending with a transition time', () => {
  const v = pv();
  def.defaults?.(v);
  def.prepareForCreate?.(v, ctx);
  assert.equal(v.spec?.persistentVolumeReclaimPolicy, 'Retain');
  assert.equal(v.spec?.volumeMode, 'Filesystem');
  assert.deepEqual(v.status, { phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:40Z' });
});

test('pv status update stamps a phase change', () => {
  const old = pv();
  old.status = { phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' };
  const upd = pv();
  upd.status = { phase: 'Available' };
  def.prepareForUpdate?.(upd, old, { ...ctx, subresource: 'status' });
  assert.deepEqual(upd.status, { phase: 'Available', lastPhaseTransitionTime: '2026-01-01T00:00:40Z' });
});

test('pv validation messages', () => {
  assert.deepEqual(msgs(def.validateCreate?.(pv({ accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }), ctx)), [
    'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pv({ accessModes: ['ReadWriteSometimes' as 'ReadWriteOnce'], capacity: { storage: '0' } }), ctx)), [
    'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
  ]);
  const none: PersistentVolume = { metadata: { name: 'pv2' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } };
  assert.deepEqual(msgs(def.validateCreate?.(none, ctx)), ['spec: Required value: must specify a volume type']);
  const local = pv({ local: { path: '/mnt' } });
  delete local.spec?.hostPath;
  assert.deepEqual(msgs(def.validateCreate?.(local, ctx)), [
    'metadata.annotations: Required value: Local volume requires node affinity',
  ]);
});

test('pv table cells, wide VolumeMode included', () => {
  assert.deepEqual(def.table?.columns.map((c) => `${c.name}${c.priority ? ' p1' : ''}`), [
    'Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode p1',
  ]);
  const v = pv({ capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'standard' });
  def.defaults?.(v);
  v.status = { phase: 'Bound' };
  assert.deepEqual(def.table?.cells(v, now), ['pv1', '1Gi', 'RWO,ROX', 'Retain', 'Bound', 'default/data', 'standard', '<unset>', '', '40s', 'Filesystem']);
  v.metadata.deletionTimestamp = '2026-01-01T00:00:30Z';
  v.metadata.annotations = { 'volume.beta.kubernetes.io/storage-class': 'legacy' };
  const cells = def.table?.cells(v, now) ?? [];
  assert.deepEqual([cells[4], cells[6]], ['Terminating', 'legacy']);
});

test('pv node affinity is validated as core validation does', () => {
  assert.deepEqual(msgs(def.validateCreate?.(pv({ nodeAffinity: {} }), ctx)), ['spec.nodeAffinity.required: Required value: must specify required node constraints']);
  assert.deepEqual(msgs(def.validateCreate?.(pv({ nodeAffinity: { required: { nodeSelectorTerms: [] } } }), ctx)), [
    'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
  ]);
  const bad = pv({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }] } } });
  assert.deepEqual(msgs(def.validateCreate?.(bad, ctx)), [
    "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
  ]);
  // A value that is not a label value is refused on create, and kept on an update of a PV that already had it.
  const odd = pv({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] }] } } });
  assert.equal(msgs(def.validateCreate?.(odd, ctx)).length, 1);
  const stored = { ...odd, metadata: { ...odd.metadata, resourceVersion: '1' } };
  assert.deepEqual(msgs(def.validateUpdate?.({ ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } } }, stored, ctx)), []);
});

test('pv node affinity can be added to a PV without one, and not changed once set', () => {
  const zone = (z: string): NonNullable<NonNullable<PersistentVolume['spec']>['nodeAffinity']> => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [z] }] }] } });
  const bare = { ...pv(), metadata: { name: 'pv1', resourceVersion: '1' } };
  assert.deepEqual(msgs(def.validateUpdate?.({ ...bare, spec: { ...bare.spec, nodeAffinity: zone('a') } }, bare, ctx)), []);
  const pinned = { ...bare, spec: { ...bare.spec, nodeAffinity: zone('a') } };
  const moved = msgs(def.validateUpdate?.({ ...pinned, spec: { ...pinned.spec, nodeAffinity: zone('b') } }, pinned, ctx));
  assert.equal(moved.length, 1);
  assert.match(moved[0] ?? '', /^nodeAffinity: Invalid value: .*: field is immutable$/);
});
