// The CSI kinds: CSIDriver defaults and columns, and each kind's validation in upstream's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { CSIDriver, CSINode, CSIStorageCapacity, VolumeAttachment, VolumeAttributesClass } from './csi.ts';
import { csiDriverDefinition, csiNodeDefinition, csiStorageCapacityDefinition, volumeAttachmentDefinition, volumeAttributesClassDefinition } from './csi.ts';

const ctx = { now: 0 };
const messages = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

test('CSIDriver: defaults, validation, immutable attachRequired, and the columns kubectl prints', () => {
  const d: CSIDriver = { metadata: { name: 's3.csi.aws.com' }, spec: { attachRequired: false, tokenRequests: [{ audience: 'sts', expirationSeconds: 60 }, { audience: 'sts' }], volumeLifecycleModes: ['Persistent', 'Scratch'] } };
  csiDriverDefinition.defaults?.(d);
  assert.deepEqual([d.spec.podInfoOnMount, d.spec.storageCapacity, d.spec.fsGroupPolicy, d.spec.requiresRepublish, d.spec.seLinuxMount], [false, false, 'ReadWriteOnceWithFSType', false, false]);
  assert.deepEqual(messages(csiDriverDefinition.validateCreate?.(d, ctx)), [
    'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    'spec.tokenRequests[1].audience: Duplicate value: "sts"',
    'spec.volumeLifecycleModes: Unsupported value: "Scratch": supported values: "Persistent", "Ephemeral"',
  ]);
  const valid: CSIDriver = { ...d, metadata: { ...d.metadata, resourceVersion: '1' }, spec: { ...d.spec, tokenRequests: [{ audience: 'sts' }, { audience: 'vault' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'] } };
  const changed: CSIDriver = { ...valid, spec: { ...valid.spec, attachRequired: true, volumeLifecycleModes: ['Persistent'] } };
  assert.deepEqual(messages(csiDriverDefinition.validateUpdate?.(changed, valid, ctx)), ['spec.attachedRequired: Invalid value: true: field is immutable', 'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent"}: field is immutable']);
  assert.deepEqual(csiDriverDefinition.table?.cells(changed, 0).slice(0, 7), ['s3.csi.aws.com', true, false, false, 'sts,vault', false, 'Persistent']);
});

test('CSINode, VolumeAttachment, CSIStorageCapacity and VolumeAttributesClass validation', () => {
  const node: CSINode = { metadata: { name: 'n' }, spec: { drivers: [{ name: 'a.b', nodeID: '', topologyKeys: ['zone', 'zone'] }, { name: 'a.b', nodeID: 'x' }] } };
  assert.deepEqual(messages(csiNodeDefinition.validateCreate?.(node, ctx)), ['spec.drivers[0].nodeID: Required value', 'spec.drivers[0]: Duplicate value: "zone"', 'spec.drivers[1].name: Duplicate value: "a.b"']);
  const va: VolumeAttachment = { metadata: { name: 'va' }, spec: { attacher: '', nodeName: 'n', source: {} } };
  assert.deepEqual(messages(volumeAttachmentDefinition.validateCreate?.(va, ctx)).map((m) => m.split(': ').slice(0, 2).join(': ')), ['spec.attacher: Required value', 'spec.source: Required value', 'spec.attacher: Invalid value']);
  const cap: CSIStorageCapacity = { metadata: { name: 'c', namespace: 'd' }, storageClassName: 'Bad_Class', capacity: '-1Gi' };
  assert.deepEqual(messages(csiStorageCapacityDefinition.validateCreate?.(cap, ctx)).map((m) => m.split(': ').slice(0, 2).join(': ')), ['storageClassName: Invalid value', 'capacity: Invalid value']);
  const vac: VolumeAttributesClass = { metadata: { name: 'v', resourceVersion: '1' }, driverName: 'ebs.csi.aws.com', parameters: { iops: '1' } };
  assert.deepEqual(messages(volumeAttributesClassDefinition.validateCreate?.(vac, ctx)), []);
  assert.deepEqual(messages(volumeAttributesClassDefinition.validateUpdate?.({ ...vac, driverName: 'x.y', parameters: {} }, vac, ctx)), [
    'driverName: Forbidden: updates to driverName are forbidden.',
    'parameters: Forbidden: updates to parameters are forbidden.',
    'parameters: Required value: must contain at least one key/value pair',
  ]);
});
