// The CSI kinds of storage.k8s.io/v1, as a CSI driver's chart installs them and its sidecars write
// them: CSIDriver, CSINode, VolumeAttachment (+status), CSIStorageCapacity and VolumeAttributesClass,
// with upstream's defaults, validation and columns. Drydock's own provisioner is not a CSI driver, so
// nothing here acts on them.
// Upstream: staging/src/k8s.io/api/storage/v1/types.go, pkg/apis/storage/v1/defaults.go,
// pkg/apis/storage/validation/validation.go, pkg/registry/storage/*/strategy.go, printers.go.
import { FieldPath, GoSyntax, compareQuantities, duplicate, forbiddenField, invalidValue, notSupported, parseQuantity, required, tooLong } from '../../../core/index.ts';
import type { FieldError, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { byteLength, inclusiveRangeError, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isDeepEqual, validateLabelSelectorStrict } from '../../workload-template.ts';
import { keepField } from '../../core/v1/keep-field.ts';
import { validateParameters, validateProvisioner } from './storage-class.ts';

export interface CSIDriver extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    volumeLifecycleModes?: string[];
    storageCapacity?: boolean;
    fsGroupPolicy?: string;
    tokenRequests?: { audience: string; expirationSeconds?: number }[];
    requiresRepublish?: boolean;
    seLinuxMount?: boolean;
    nodeAllocatableUpdatePeriodSeconds?: number;
  };
}

export interface CSINode extends KubeObject {
  metadata: ObjectMeta;
  spec: { drivers: { name: string; nodeID: string; topologyKeys?: string[]; allocatable?: { count?: number } }[] | null };
}

export interface VolumeAttachment extends KubeObject {
  metadata: ObjectMeta;
  spec: { attacher: string; source: { persistentVolumeName?: string; inlineVolumeSpec?: Record<string, unknown> }; nodeName: string };
  status?: { attached: boolean; attachmentMetadata?: Record<string, string>; attachError?: VolumeError; detachError?: VolumeError };
}

interface VolumeError {
  time?: string;
  message?: string;
  errorCode?: number;
}

export interface CSIStorageCapacity extends KubeObject {
  metadata: ObjectMeta;
  nodeTopology?: LabelSelector;
  storageClassName: string;
  capacity?: string;
  maximumVolumeSize?: string;
}

export interface VolumeAttributesClass extends KubeObject {
  metadata: ObjectMeta;
  driverName: string;
  parameters?: Record<string, string>;
}

const spec = FieldPath.root('spec');
const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];

// ---- CSIDriver ----

function defaultCSIDriver(d: CSIDriver): void {
  const s = (d.spec ??= {});
  s.attachRequired ??= true;
  s.podInfoOnMount ??= false;
  s.storageCapacity ??= false;
  s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!s.volumeLifecycleModes?.length) s.volumeLifecycleModes = ['Persistent'];
  s.requiresRepublish ??= false;
  // SELinuxMountReadWriteOncePod (beta, on) makes the field defaulted, then required.
  s.seLinuxMount ??= false;
}

function validateCSIDriverSpec(s: CSIDriver['spec']): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream's path names the field attachedRequired.
  if (s.attachRequired === undefined) errs.push(required(spec.child('attachedRequired'), ''));
  if (s.podInfoOnMount === undefined) errs.push(required(spec.child('podInfoOnMount'), ''));
  if (s.storageCapacity === undefined) errs.push(required(spec.child('storageCapacity'), ''));
  if (s.fsGroupPolicy !== undefined && !fsGroupPolicies.includes(s.fsGroupPolicy)) errs.push(notSupported(spec.child('fsGroupPolicy'), s.fsGroupPolicy, fsGroupPolicies));
  const audiences = new Set<string>();
  (s.tokenRequests ?? []).forEach((t, i) => {
    const p = spec.child('tokenRequests').index(i);
    if (audiences.has(t.audience)) return errs.push(duplicate(p.child('audience'), t.audience));
    audiences.add(t.audience);
    if (t.expirationSeconds === undefined) return;
    if (t.expirationSeconds < 600) errs.push(invalidValue(p.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (t.expirationSeconds > 2 ** 32) errs.push(invalidValue(p.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const mode of s.volumeLifecycleModes ?? []) if (!lifecycleModes.includes(mode)) errs.push(notSupported(spec.child('volumeLifecycleModes'), mode, lifecycleModes));
  if (s.seLinuxMount === undefined) errs.push(required(spec.child('seLinuxMount'), ''));
  const period = s.nodeAllocatableUpdatePeriodSeconds;
  if (period !== undefined && period < 10) errs.push(invalidValue(spec.child('nodeAllocatableUpdatePeriodSeconds'), period, 'must be greater than or equal to 10 seconds'));
  return errs;
}

const csiDriverTable: TablePrinter<CSIDriver> = {
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', 'attachRequired indicates this CSI volume driver requires an attach operation.'),
    column('PodInfoOnMount', 'boolean', 'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.'),
    column('StorageCapacity', 'boolean', 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report.'),
    column('TokenRequests', 'string', 'tokenRequests indicates the CSI driver needs pods\' service account tokens it is mounting volume for to do necessary authentication.'),
    column('RequiresRepublish', 'boolean', 'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume.'),
    column('Modes', 'string', 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.'),
    ageColumn,
  ],
  cells: (d, now) => [
    d.metadata.name ?? '',
    d.spec?.attachRequired ?? true,
    d.spec?.podInfoOnMount ?? false,
    d.spec?.storageCapacity ?? false,
    d.spec?.tokenRequests?.length ? d.spec.tokenRequests.map((t) => t.audience).join(',') : '<unset>',
    d.spec?.requiresRepublish ?? false,
    d.spec?.volumeLifecycleModes?.length ? d.spec.volumeLifecycleModes.join(',') : '<none>',
    translateTimestampSince(d.metadata.creationTimestamp, now),
  ],
};

export const csiDriverDefinition: ResourceDefinition<CSIDriver> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIDriver',
  resource: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  hasStatus: false,
  defaults: defaultCSIDriver,
  validateCreate: (d) => validateCSIDriverSpec(d.spec ?? {}),
  validateUpdate: (d, old) => [
    ...validateObjectMetaUpdate(d.metadata, old.metadata),
    ...validateCSIDriverSpec(d.spec ?? {}),
    ...validateImmutableField(d.spec?.attachRequired, old.spec?.attachRequired, spec.child('attachedRequired')),
    // The internal type's %#v, as upstream's error prints it.
    ...(isDeepEqual(d.spec?.volumeLifecycleModes, old.spec?.volumeLifecycleModes) ? [] : [invalidValue(spec.child('volumeLifecycleModes'), new GoSyntax(`[]storage.VolumeLifecycleMode{${(d.spec?.volumeLifecycleModes ?? []).map((m) => JSON.stringify(m)).join(', ')}}`), 'field is immutable')]),
  ],
  table: csiDriverTable,
};

// ---- CSINode ----

const csiNodeIDMaxLength = 192;

function validateCSINodeDrivers(node: CSINode): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (node.spec?.drivers ?? []).forEach((d, i) => {
    const p = spec.child('drivers').index(i);
    for (const msg of isDNS1123Subdomain(d.name ?? '')) errs.push(invalidValue(p.child('name'), d.name ?? '', msg));
    const id = d.nodeID ?? '';
    if (id === '') errs.push(required(p.child('nodeID'), id));
    if (id.length > csiNodeIDMaxLength) errs.push(invalidValue(p.child('nodeID'), id, `must be ${csiNodeIDMaxLength} characters or less`));
    const count = d.allocatable?.count;
    if (count !== undefined && count < 0) errs.push(invalidValue(p.child('allocatable').child('count'), count, 'must be greater than or equal to 0'));
    if (names.has(d.name)) errs.push(duplicate(p.child('name'), d.name));
    names.add(d.name);
    const keys = new Set<string>();
    for (const key of d.topologyKeys ?? []) {
      if (key === '') errs.push(required(p, key));
      if (keys.has(key)) errs.push(duplicate(p, key));
      keys.add(key);
      for (const msg of isQualifiedName(key)) errs.push(invalidValue(p, key, msg));
    }
  });
  return errs;
}

export const csiNodeDefinition: ResourceDefinition<CSINode> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  resource: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  hasStatus: false,
  validateCreate: validateCSINodeDrivers,
  validateUpdate: (n, old) => {
    const errs = validateCSINodeDrivers(n);
    // An existing driver's entry is immutable except its allocatable count (MutableCSINodeAllocatableCount, beta).
    for (const was of old.spec?.drivers ?? []) {
      const now = (n.spec?.drivers ?? []).find((d) => d.name === was.name);
      if (now && !isDeepEqual({ ...now, allocatable: undefined }, { ...was, allocatable: undefined })) errs.push(...validateImmutableField(now, was, spec.child('drivers')));
    }
    return errs;
  },
  table: {
    columns: [nameColumn, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), ageColumn],
    cells: (n, now) => [n.metadata.name ?? '', n.spec?.drivers?.length ?? 0, translateTimestampSince(n.metadata.creationTimestamp, now)],
  },
};

// ---- VolumeAttachment ----

const maxAttachedVolumeMetadataSize = 256 * 1024;
const maxVolumeErrorMessageSize = 1024;

function validateVolumeError(e: VolumeError | undefined, path: FieldPath): FieldError[] {
  if (!e) return [];
  const errs: FieldError[] = [];
  // Upstream reports the metadata limit here.
  if ((e.message ?? '').length > maxVolumeErrorMessageSize) errs.push(tooLong(path.child('message'), maxAttachedVolumeMetadataSize));
  if (e.errorCode !== undefined && e.errorCode < 0) errs.push(invalidValue(path.child('errorCode'), e.errorCode, inclusiveRangeError(0, 2147483647)));
  return errs;
}

function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const s = va.spec ?? ({} as VolumeAttachment['spec']);
  const errs: FieldError[] = [];
  const attacher = s.attacher ?? '';
  if (attacher === '') errs.push(required(spec.child('attacher'), attacher));
  const source = spec.child('source');
  const pv = s.source?.persistentVolumeName;
  const inline = s.source?.inlineVolumeSpec;
  if (inline === undefined && pv === undefined) errs.push(required(source, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (inline !== undefined && pv !== undefined) errs.push(forbiddenField(source, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (pv !== undefined && pv === '') errs.push(required(source.child('persistentVolumeName'), 'must specify non empty persistentVolumeName'));
  for (const msg of nameIsDNSSubdomain(s.nodeName ?? '', false)) errs.push(invalidValue(spec.child('nodeName'), s.nodeName ?? '', msg));
  const status = FieldPath.root('status');
  let size = 0;
  for (const [k, v] of Object.entries(va.status?.attachmentMetadata ?? {})) size += byteLength(k) + byteLength(v);
  if (size > maxAttachedVolumeMetadataSize) errs.push(tooLong(status.child('attachmentMetadata'), maxAttachedVolumeMetadataSize));
  errs.push(...validateVolumeError(va.status?.attachError, status.child('attachError')));
  errs.push(...validateVolumeError(va.status?.detachError, status.child('detachError')));
  // ValidateVolumeAttachmentV1: the attacher is a CSI driver's name, the PV a PV's.
  for (const msg of isDNS1123Subdomain(attacher)) errs.push(invalidValue(spec.child('attacher'), attacher, msg));
  if (pv) for (const msg of nameIsDNSSubdomain(pv, false)) errs.push(invalidValue(FieldPath.root('spec.source.persistentVolumeName'), pv, msg));
  return errs;
}

export const volumeAttachmentDefinition: ResourceDefinition<VolumeAttachment> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  resource: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  prepareForCreate(va) {
    delete va.status;
  },
  prepareForUpdate(va, old, ctx) {
    keepField(va, old, ctx.subresource === 'status' ? 'spec' : 'status');
  },
  validateCreate: validateVolumeAttachment,
  validateUpdate: (va, old) => [
    ...validateVolumeAttachment(va),
    ...(isDeepEqual(va.spec, old.spec) ? [] : [invalidValue(spec, va.spec, 'field is immutable')]),
  ],
  validateStatusUpdate: (va, old) => [...validateObjectMetaUpdate(va.metadata, old.metadata), ...validateVolumeAttachment(va)],
  table: {
    columns: [
      nameColumn,
      column('Attacher', 'string', 'attacher indicates the name of the volume driver that MUST handle this request.'),
      column('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.'),
      column('Node', 'string', 'nodeName represents the node that the volume should be attached to.'),
      column('Attached', 'boolean', 'attached indicates the volume is successfully attached.'),
      ageColumn,
    ],
    cells: (va, now) => [va.metadata.name ?? '', va.spec?.attacher ?? '', va.spec?.source?.persistentVolumeName ?? '', va.spec?.nodeName ?? '', va.status?.attached ?? false, translateTimestampSince(va.metadata.creationTimestamp, now)],
  },
};

// ---- CSIStorageCapacity ----

function validateCapacity(c: CSIStorageCapacity): FieldError[] {
  const errs = validateLabelSelectorStrict(c.nodeTopology, FieldPath.root('nodeTopology'));
  for (const msg of nameIsDNSSubdomain(c.storageClassName ?? '', false)) errs.push(invalidValue(FieldPath.root('storageClassName'), c.storageClassName ?? '', msg));
  const capacity = c.capacity === undefined ? undefined : parseQuantity(String(c.capacity));
  if (capacity && compareQuantities(capacity, parseQuantity('0') ?? capacity) < 0) errs.push(invalidValue(FieldPath.root('capacity'), String(c.capacity), 'must be greater than or equal to 0'));
  return errs;
}

export const csiStorageCapacityDefinition: ResourceDefinition<CSIStorageCapacity> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  resource: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  hasStatus: false,
  validateCreate: validateCapacity,
  validateUpdate: (c, old) => {
    const errs = validateObjectMetaUpdate(c.metadata, old.metadata);
    if (!isDeepEqual(c.nodeTopology, old.nodeTopology)) errs.push(invalidValue(FieldPath.root('nodeTopology'), c.nodeTopology, 'field is immutable'));
    if (c.storageClassName !== old.storageClassName) errs.push(invalidValue(FieldPath.root('storageClassName'), c.storageClassName, 'field is immutable'));
    return errs;
  },
  table: {
    columns: [
      nameColumn,
      column('StorageClassName', 'string', 'storageClassName represents the name of the StorageClass that the reported capacity applies to.'),
      column('Capacity', 'string', 'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.'),
      ageColumn,
    ],
    cells: (c, now) => [c.metadata.name ?? '', c.storageClassName ?? '', c.capacity === undefined ? '<unset>' : String(c.capacity), translateTimestampSince(c.metadata.creationTimestamp, now)],
  },
};

// ---- VolumeAttributesClass ----

function validateAttributesClass(v: VolumeAttributesClass): FieldError[] {
  return [...validateProvisioner(v.driverName, FieldPath.root('driverName')), ...validateParameters(v.parameters, false, FieldPath.root('parameters'))];
}

export const volumeAttributesClassDefinition: ResourceDefinition<VolumeAttributesClass> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttributesClass',
  resource: 'volumeattributesclasses',
  singular: 'volumeattributesclass',
  namespaced: false,
  shortNames: ['vac'],
  hasStatus: false,
  validateCreate: validateAttributesClass,
  validateUpdate: (v, old) => {
    const errs = validateObjectMetaUpdate(v.metadata, old.metadata);
    if (v.driverName !== old.driverName) errs.push(forbiddenField('driverName', 'updates to driverName are forbidden.'));
    if (!isDeepEqual(v.parameters, old.parameters)) errs.push(forbiddenField('parameters', 'updates to parameters are forbidden.'));
    return [...errs, ...validateAttributesClass(v)];
  },
  table: {
    columns: [nameColumn, column('DriverName', 'string', 'Name of the CSI driver'), ageColumn],
    cells: (v, now) => [v.metadata.name ?? '', v.driverName ?? '', translateTimestampSince(v.metadata.creationTimestamp, now)],
  },
};
