// A create's managedFields entry from the one-walk fast path must equal the general path's
// (recordUpdate with no live object, then finish) byte for byte, on several kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchMeta } from '../../api/index.ts';
import { emptyObject } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { patchMetaFor } from '../openapi/index.ts';
import { emptySet } from './field-set.ts';
import { finish, recordUpdate, updateManagedFields, updatedManagedFields, withoutManagedFields } from './managed-fields.ts';
import type { FieldManagerOptions, ManagerFields } from './managed-fields.ts';
import type { JsonObject } from './json-value.ts';

function generalPath(obj: KubeObject, options: FieldManagerOptions): string {
  try {
    const managers = new Map<string, ManagerFields>();
    const writer: ManagerFields = { manager: options.manager, operation: 'Update', apiVersion: options.apiVersion, set: emptySet() };
    if (options.subresource) writer.subresource = options.subresource;
    const rhs = withoutManagedFields(obj);
    recordUpdate(managers, writer, options.emptyObject ?? {}, rhs, options);
    return JSON.stringify(finish(undefined, rhs, managers));
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

function fastPath(obj: KubeObject, options: FieldManagerOptions): string {
  try {
    return JSON.stringify(updateManagedFields(undefined, obj, options));
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

const options = (apiVersion: string, meta: PatchMeta | undefined, extra: Partial<FieldManagerOptions> = {}): FieldManagerOptions => ({
  manager: 'kubectl-create',
  apiVersion,
  now: '2026-01-02T03:04:05Z',
  meta,
  ignoreFields: [['status']],
  ...extra,
});

/** Options for a built-in kind: its schema and its zero value, as the field tracker gets them. */
const typedOptions = (group: string, version: string, kind: string, extra: Partial<FieldManagerOptions> = {}): FieldManagerOptions =>
  options(group ? `${group}/${version}` : version, patchMetaFor(group, version, kind), { emptyObject: emptyObject(group, version, kind) as JsonObject, ...extra });

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', generateName: 'p-', namespace: 'default', uid: 'u', resourceVersion: '1', creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'web' }, annotations: { a: 'b' }, finalizers: ['x/y'], ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'r', controller: true }] },
  spec: {
    nodeName: 'n',
    volumes: [{ name: 'v', emptyDir: {} }],
    containers: [
      { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], args: ['a', 'b'], resources: { requests: { cpu: '100m' } } },
      { name: 'side', image: 'busybox', command: [] },
    ],
    tolerations: [{ key: 'k', operator: 'Exists' }],
  },
  status: { phase: 'Pending' },
};

const cases: { name: string; obj: KubeObject; options: FieldManagerOptions }[] = [
  { name: 'pod', obj: pod, options: typedOptions('', 'v1', 'Pod') },
  { name: 'pod status subresource', obj: pod, options: typedOptions('', 'v1', 'Pod', { subresource: 'status', ignoreFields: [['spec']] }) },
  { name: 'pod without schema', obj: pod, options: options('v1', undefined, { ignoreFields: [] }) },
  {
    name: 'deployment',
    obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 8080, name: 'http' }] }] } } } },
    options: typedOptions('apps', 'v1', 'Deployment'),
  },
  {
    name: 'service',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { app: 's' }, ports: [{ port: 80, targetPort: 8080 }, { port: 53, protocol: 'UDP' }] } },
    options: typedOptions('', 'v1', 'Service'),
  },
  {
    name: 'configmap',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1', 'b.txt': 'x' }, binaryData: {} } as KubeObject,
    options: typedOptions('', 'v1', 'ConfigMap', { ignoreFields: [] }),
  },
  { name: 'identity only', obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', uid: 'u' } }, options: typedOptions('', 'v1', 'Namespace') },
  {
    name: 'list-map item without its key',
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ image: 'i' }] } } as KubeObject,
    options: typedOptions('', 'v1', 'Pod'),
  },
  {
    name: 'list-map items that are not maps, below a list-map item',
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', ports: [80] }] } } as unknown as KubeObject,
    options: typedOptions('', 'v1', 'Pod'),
  },
  {
    name: 'a list-map item without its second key',
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', ports: [{ protocol: 'UDP' }] }] } } as KubeObject,
    options: typedOptions('', 'v1', 'Pod'),
  },
  {
    name: 'undefined and null values',
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: undefined }, spec: { nodeName: null, containers: [{ name: 'c', image: undefined }] } } as unknown as KubeObject,
    options: typedOptions('', 'v1', 'Pod'),
  },
  {
    name: 'stripped fields with children, and key order by code unit',
    obj: { apiVersion: { x: 1 }, kind: 'Pod', metadata: { name: { a: 1 }, uid: [], labels: { b: '1', B: '2', 'é': '3', a_: '4', a: '5' } }, spec: { containers: [{ name: 'Z' }, { name: 'a' }, { name: '_' }] } } as unknown as KubeObject,
    options: typedOptions('', 'v1', 'Pod'),
  },
  { name: 'nested reset field', obj: pod, options: typedOptions('', 'v1', 'Pod', { ignoreFields: [['spec', 'nodeName'], ['status']] }) },
  { name: 'atomic root', obj: { apiVersion: 'v1', kind: 'X', metadata: { name: 'x' }, spec: { a: 1 } } as KubeObject, options: options('v1', { mapType: 'atomic' }) },
  { name: 'managed fields sent are dropped', obj: { ...pod, metadata: { ...pod.metadata, managedFields: [] } }, options: typedOptions('', 'v1', 'Pod') },
];

// The entries alone, as the field tracker takes them: a create without managed fields walks the object
// itself, which must come out as it went in.
function entriesOnly(obj: KubeObject, options: FieldManagerOptions): string {
  const before = JSON.stringify(obj);
  try {
    const entries = JSON.stringify(updatedManagedFields(undefined, obj, options) ?? null);
    return JSON.stringify(obj) === before ? entries : 'the object changed';
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

function generalEntries(obj: KubeObject, options: FieldManagerOptions): string {
  const general = generalPath(obj, options);
  return general.startsWith('throws ') ? general : JSON.stringify((JSON.parse(general) as KubeObject).metadata.managedFields ?? null);
}

for (const c of cases) {
  test(`create managedFields fast path equals the general path: ${c.name}`, () => {
    assert.equal(fastPath(c.obj, c.options), generalPath(c.obj, c.options));
    assert.equal(entriesOnly(c.obj, c.options), generalEntries(c.obj, c.options));
  });
}

test('a create owns its fields, without identity metadata or reset fields, compared with the kind\'s zero value', () => {
  const out = updateManagedFields(undefined, pod, typedOptions('', 'v1', 'Pod'));
  // As upstream's create handler records it: spec and spec.containers are in Pod's zero value (a
  // struct; a list without omitempty, null), so they own no "." of their own; every list item, and
  // every struct or list the zero value lacks (ports, env, resources, requests, volumes), does.
  assert.deepEqual(out.metadata.managedFields?.[0]?.fieldsV1, {
    'f:metadata': {
      'f:annotations': { '.': {}, 'f:a': {} },
      'f:finalizers': { '.': {}, 'v:"x/y"': {} },
      'f:generateName': {},
      'f:labels': { '.': {}, 'f:app': {} },
      'f:ownerReferences': { '.': {}, 'k:{"uid":"r"}': {} },
    },
    'f:spec': {
      'f:containers': {
        'k:{"name":"app"}': {
          '.': {},
          'f:args': {},
          'f:env': { '.': {}, 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
          'f:image': {},
          'f:name': {},
          'f:ports': { '.': {}, 'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} }, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          'f:resources': { '.': {}, 'f:requests': { '.': {}, 'f:cpu': {} } },
        },
        'k:{"name":"side"}': { '.': {}, 'f:command': {}, 'f:image': {}, 'f:name': {} },
      },
      'f:nodeName': {},
      'f:tolerations': {},
      'f:volumes': { '.': {}, 'k:{"name":"v"}': { '.': {}, 'f:emptyDir': {}, 'f:name': {} } },
    },
  });
});

test('a create leaves unowned what equals the zero value, and a custom resource starts from nothing', () => {
  const meta = patchMetaFor('apps', 'v1', 'ReplicaSet');
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { replicas: 1, template: { metadata: { creationTimestamp: null, labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }, status: { replicas: 0 } } as unknown as KubeObject;
  const created = updateManagedFields(undefined, rs, typedOptions('apps', 'v1', 'ReplicaSet', { subresource: 'status', ignoreFields: [['spec']] }));
  assert.equal(created.metadata.managedFields, undefined, 'status.replicas 0 is the zero value: nothing to own');
  const main = updateManagedFields(undefined, rs, options('apps/v1', meta, { emptyObject: emptyObject('apps', 'v1', 'ReplicaSet') as JsonObject }));
  assert.deepEqual(main.metadata.managedFields?.[0]?.fieldsV1, {
    'f:spec': { 'f:replicas': {}, 'f:template': { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
  });
  const custom = updateManagedFields(undefined, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: { cpu: 1 } } } as KubeObject, options('example.com/v1', undefined, { ignoreFields: [] }));
  assert.deepEqual(custom.metadata.managedFields?.[0]?.fieldsV1, { 'f:spec': { '.': {}, 'f:size': { '.': {}, 'f:cpu': {} } } });
});

test('an update owns "." on whatever struct or list it adds, and nothing of its own on one that was there', () => {
  const meta = patchMetaFor('apps', 'v1', 'Deployment');
  const base = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec: { selector: { matchLabels: { a: 'b' } }, strategy: { type: 'Recreate' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } as unknown as KubeObject;
  const live = updateManagedFields(undefined, base, typedOptions('apps', 'v1', 'Deployment', { manager: 'creator' }));
  const next = { ...live, spec: { ...(base.spec as object), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } } as KubeObject;
  const updated = updateManagedFields(live, next, typedOptions('apps', 'v1', 'Deployment', { manager: 'editor' }));
  const editor = updated.metadata.managedFields?.find((e) => e.manager === 'editor');
  assert.deepEqual(editor?.fieldsV1, { 'f:spec': { 'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} } } });
});

test('a decoded FieldsV1 encodes back to the same text, sorted, whether or not it was written in order', async () => {
  const { fromFieldsV1, toFieldsV1 } = await import('./field-set.ts');
  const sorted = { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } } } };
  assert.equal(toFieldsV1(fromFieldsV1(sorted)), sorted, 'a canonical FieldsV1 is handed back as is');
  const unsorted = { 'f:spec': { 'f:x': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:b': {}, '.': {} } } };
  assert.equal(JSON.stringify(toFieldsV1(fromFieldsV1(unsorted))), '{"f:metadata":{"f:labels":{".":{},"f:b":{}}},"f:spec":{"f:a":{},"f:x":{}}}');
  assert.equal(JSON.stringify(toFieldsV1(fromFieldsV1({ 'f:a': { '.': {} } }))), '{"f:a":{}}');
  // Out of order only below a level that is in order; a leaf written as a non-object.
  assert.equal(JSON.stringify(toFieldsV1(fromFieldsV1({ 'f:a': {}, 'f:b': { 'f:z': {}, 'f:c': {} } }))), '{"f:a":{},"f:b":{"f:c":{},"f:z":{}}}');
  assert.equal(JSON.stringify(toFieldsV1(fromFieldsV1({ 'f:a': true, 'f:b': { '.': {}, 'f:c': {} } }))), '{"f:a":{},"f:b":{".":{},"f:c":{}}}');
});

test('a write takes from other managers exactly the fields it changes, however deep, and leaves the others\' entries as they were', () => {
  const meta = patchMetaFor('apps', 'v1', 'Deployment');
  const container = { name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }] };
  const live = updateManagedFields(undefined, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec: { replicas: 1, template: { spec: { containers: [container] } } } } as KubeObject, options('apps/v1', meta, { emptyObject: emptyObject('apps', 'v1', 'Deployment') as JsonObject, manager: 'creator' }));
  const scaled = updateManagedFields(live, { ...live, spec: { replicas: 3, template: { spec: { containers: [container] } } } } as KubeObject, options('apps/v1', meta, { emptyObject: emptyObject('apps', 'v1', 'Deployment') as JsonObject, manager: 'scaler' }));
  const [creator, scaler] = scaled.metadata.managedFields ?? [];
  assert.equal(scaler?.manager, 'scaler');
  assert.equal(JSON.stringify(scaler?.fieldsV1), '{"f:spec":{"f:replicas":{}}}');
  assert.match(JSON.stringify(creator?.fieldsV1), /f:image.*f:containerPort/);
  assert.doesNotMatch(JSON.stringify(creator?.fieldsV1), /f:replicas/);
  const image = { ...container, image: 'nginx:2' };
  const retagged = updateManagedFields(scaled, { ...scaled, spec: { replicas: 3, template: { spec: { containers: [image] } } } } as KubeObject, options('apps/v1', meta, { emptyObject: emptyObject('apps', 'v1', 'Deployment') as JsonObject, manager: 'retagger' }));
  const byManager = Object.fromEntries((retagged.metadata.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
  assert.doesNotMatch(JSON.stringify(byManager.creator), /f:image/);
  assert.match(JSON.stringify(byManager.creator), /f:containerPort/);
  assert.equal(byManager.scaler, scaler?.fieldsV1, 'an entry the write does not reach is the same object');
  assert.equal(JSON.stringify(byManager.retagger), '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{"f:image":{}}}}}}}');
});

test('entries of managers a write leaves alone pass through as they were, whether the server wrote them or a client sent them back', () => {
  const meta = patchMetaFor('', 'v1', 'ConfigMap');
  const opts = (manager: string): FieldManagerOptions => options('v1', meta, { emptyObject: emptyObject('', 'v1', 'ConfigMap') as JsonObject, manager, ignoreFields: [] });
  const live = updateManagedFields(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', labels: { x: 'y' } }, data: { a: '1' } } as KubeObject, opts('creator'));
  const creatorOf = (obj: KubeObject): unknown => (obj.metadata.managedFields ?? []).find((e) => e.manager === 'creator')?.fieldsV1;
  const written = updateManagedFields(live, { ...live, data: { a: '1', b: '2' } } as KubeObject, opts('writer'));
  assert.equal(creatorOf(written), creatorOf(live));
  const sentBack = JSON.parse(JSON.stringify(written)) as KubeObject;
  const rewritten = updateManagedFields(written, { ...sentBack, data: { a: '1', b: '3' } } as KubeObject, opts('writer'));
  assert.equal(JSON.stringify(creatorOf(rewritten)), '{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}');
  assert.deepEqual((rewritten.metadata.managedFields ?? []).map((e) => e.manager), ['creator', 'writer']);
});

test('a manager\'s entry that a write changes in part is written sorted, whether the part it keeps came from the server or a client sent it out of order', () => {
  const meta = patchMetaFor('', 'v1', 'ConfigMap');
  const opts: FieldManagerOptions = options('v1', meta, { emptyObject: emptyObject('', 'v1', 'ConfigMap') as JsonObject, manager: 'writer', ignoreFields: [] });
  const entryOf = (obj: KubeObject): string => JSON.stringify((obj.metadata.managedFields ?? []).find((e) => e.manager === 'writer')?.fieldsV1);
  const live = updateManagedFields(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', labels: { x: 'y' } }, data: { a: '1', b: '2' } } as KubeObject, opts);
  const grown = updateManagedFields(live, { ...live, data: { a: '1', b: '2', c: '3' } } as KubeObject, opts);
  assert.equal(entryOf(grown), '{"f:data":{".":{},"f:a":{},"f:b":{},"f:c":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}');
  // The same entry sent back by a client with every level out of order, then grown by one field.
  const sent = JSON.parse(JSON.stringify(grown)) as KubeObject;
  const entries = sent.metadata.managedFields ?? [];
  const unsorted = JSON.parse('{"f:metadata":{"f:labels":{"f:x":{},".":{}}},"f:data":{"f:c":{},"f:b":{},"f:a":{},".":{}}}') as Record<string, unknown>;
  sent.metadata.managedFields = entries.map((e) => (e.manager === 'writer' ? { ...e, fieldsV1: unsorted } : e));
  const regrown = updateManagedFields(grown, { ...sent, data: { a: '1', b: '2', c: '3', d: '4' } } as KubeObject, opts);
  assert.equal(entryOf(regrown), '{"f:data":{".":{},"f:a":{},"f:b":{},"f:c":{},"f:d":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}');
});
