// etcd's size limits as a client meets them: the 500s in etcd's and gRPC's words, measured on the
// protobuf a built-in kind is stored as, and the handlers' second try without managedFields.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from './index.ts';
import { etcdKey, etcdWriteRefusal } from './etcd-limits.ts';
import { rejection } from './api-error.test-support.ts';

async function setup() {
  const store = new MemoryStore({});
  const server = new ApiServer({ store, clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { store, client };
}

const configMap = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...extra },
  data,
});

/** A managedFields entry of about `bytes` bytes: a field set naming many data keys. */
function bigManagedFields(bytes: number): unknown[] {
  const fields: Record<string, object> = {};
  for (let i = 0; i * 18 < bytes; i++) fields[`f:key-${String(i).padStart(6, '0')}`] = {};
  return [{ manager: 'importer', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': fields } }];
}

describe('the limits', () => {
  const write = (value: string) => ({ key: '/registry/pods/default/big', value, custom: false, modRevision: 0 });
  // A pod whose one container has a long argument: pods have no size limit of their own.
  const stored = (bytes: number) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', args: ['x'.repeat(bytes)] }] } });

  test('an object up to 1.5 MiB in all is stored; a byte more is etcd\'s "request is too large"', () => {
    // Find the largest argument that fits: the limit is on the raft request, some framing over the object.
    let fits = 1_572_000;
    while (etcdWriteRefusal(write(stored(fits + 1))) === undefined) fits++;
    assert.ok(fits > 1_572_400 && fits < 1_572_864, `${fits}`);
    const refused = etcdWriteRefusal(write(stored(fits + 1)));
    assert.equal(refused?.code, 500);
    assert.equal(refused?.toStatus().reason, undefined);
    assert.equal(refused?.message, 'etcdserver: request is too large');
  });

  test('over 2 MiB the etcd client refuses to send it, naming the message size', () => {
    const refused = etcdWriteRefusal(write(stored(2_200_000)));
    assert.match(refused?.message ?? '', /^rpc error: code = ResourceExhausted desc = grpc: trying to send message larger than max \(2200\d\d\d vs\. 2097152\)$/);
  });

  test('a Secret is measured in the bytes its base64 carries: 1.2 MB of data (1.6 MB of JSON) would fit', () => {
    const secret = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, data: { blob: Buffer.alloc(1_200_000).toString('base64') } });
    assert.ok(secret.length > 1_600_000);
    assert.equal(etcdWriteRefusal({ ...write(secret), key: '/registry/secrets/default/s' }), undefined);
  });

  test('a custom resource is stored as JSON, and measured so', () => {
    const widget = (bytes: number) => JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { blob: 'x'.repeat(bytes) } });
    const key = etcdKey({ group: 'example.com', resource: 'widgets', custom: true }, 'default', 'w');
    assert.equal(key, '/registry/example.com/widgets/default/w');
    assert.equal(etcdWriteRefusal({ key, value: widget(1_572_700), custom: true, modRevision: 0 })?.message, 'etcdserver: request is too large');
    assert.equal(etcdWriteRefusal({ key, value: widget(1_572_600), custom: true, modRevision: 0 }), undefined);
  });

  test('a built-in kind with no field table here (a CustomResourceDefinition) is not refused on its JSON size', () => {
    const crd = JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', description: 'x'.repeat(1_700_000) } });
    assert.equal(etcdWriteRefusal({ key: '/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com', value: crd, custom: false, modRevision: 0 }), undefined);
  });

  test('keys are upstream\'s: nodes under minions, services under services/specs', () => {
    assert.equal(etcdKey({ group: '', resource: 'nodes', custom: false }, '', 'n1'), '/registry/minions/n1');
    assert.equal(etcdKey({ group: '', resource: 'services', custom: false }, 'default', 'web'), '/registry/services/specs/default/web');
    assert.equal(etcdKey({ group: 'apps', resource: 'deployments', custom: false }, 'default', 'web'), '/registry/deployments/default/web');
  });
});

describe('writes through the API', () => {
  test('a too-large create is a 500 in etcd\'s words and stores nothing; a dry run never reaches etcd', async () => {
    const { client } = await setup();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', args: ['x'.repeat(1_600_000)] }] } };
    const error = await rejection(client.create(refs.pods, pod));
    assert.equal(error.code, 500);
    assert.equal(error.message, 'etcdserver: request is too large');
    assert.equal((await rejection(client.get(refs.pods, 'default', 'big'))).code, 404);
    const dry = await client.create(refs.pods, pod, { dryRun: true });
    assert.equal(dry.metadata.name, 'big');
  });

  test('a create that fits only without its managedFields is stored without them', async () => {
    const { client } = await setup();
    const created = await client.create(refs.configMaps, configMap('big', { k: 'x'.repeat(900_000) }, { managedFields: bigManagedFields(750_000) }));
    assert.equal(created.metadata.managedFields, undefined);
    const read = await client.get(refs.configMaps, 'default', 'big');
    assert.equal(read.metadata.managedFields, undefined);
    assert.equal((read.data as Record<string, string>).k?.length, 900_000);
  });

  test('a patch that fits only without managedFields drops them; an update falls back to the live ones and still fails', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('big', { small: 'x' }, { managedFields: bigManagedFields(750_000) }));
    const live = await client.get(refs.configMaps, 'default', 'big');
    assert.ok(JSON.stringify(live.metadata.managedFields).length > 750_000);
    // An update's body without the managed fields gets the live ones from the field manager: too large again.
    const { managedFields: _dropped, ...bodyMeta } = live.metadata;
    const error = await rejection(client.update(refs.configMaps, { ...live, metadata: bodyMeta, data: { k: 'x'.repeat(900_000) } }));
    assert.equal(error.message, 'etcdserver: request is too large');
    const patched = await client.patch(refs.configMaps, 'default', 'big', 'merge', { data: { k: 'x'.repeat(900_000) } });
    assert.equal(patched.metadata.managedFields, undefined);
    assert.equal((patched.data as Record<string, string>).k?.length, 900_000);
  });

  test('an update whose own managedFields make it too large is stored with the live object\'s', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('big', { small: 'x' }), { fieldManager: 'creator' });
    const live = await client.get(refs.configMaps, 'default', 'big');
    const updated = await client.update(refs.configMaps, { ...live, metadata: { ...live.metadata, managedFields: bigManagedFields(750_000) }, data: { k: 'x'.repeat(900_000) } } as KubeObject, { fieldManager: 'editor' });
    assert.deepEqual(updated.metadata.managedFields?.map((entry) => entry.manager), ['creator', 'editor']);
    assert.equal((updated.data as Record<string, string>).k?.length, 900_000);
  });

  test('a server-side apply is not tried again', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('big', { small: 'x' }, { managedFields: bigManagedFields(750_000) }));
    const error = await rejection(client.patch(refs.configMaps, 'default', 'big', 'apply', configMap('big', { k: 'x'.repeat(900_000) }), { fieldManager: 'me', force: true }));
    assert.equal(error.message, 'etcdserver: request is too large');
  });
});
