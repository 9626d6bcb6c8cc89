import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { managerName, smdPath } from './field-manager.ts';
import { ApiServer } from './server.ts';
import { checkDecoded, patchMetaFor } from './openapi/index.ts';
import { resultObject } from './encode.ts';
import { rejection } from './api-error.test-support.ts';

async function setup(): Promise<ApiServer> {
  const server = new ApiServer({
    store: new MemoryStore(),
    clock: new VirtualClock(),
    random: new SeededRandom(1),
    definitions: builtinDefinitions(),
    patchMetaFor: (def) => def.patchMeta ?? patchMetaFor(def.group, def.version, def.kind),
    decodeCheck: (def, obj, prune, keep) => checkDecoded(obj, def.group, def.version, def.kind, keep ? { prune, keep } : { prune }),
  });
  await server.create(refs.namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }, {});
  return server;
}

const cm = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data } as KubeObject);

test('managerName takes the User-Agent up to its first slash when no fieldManager is given', () => {
  assert.equal(managerName('mine', 'kubectl/v1.33.1'), 'mine');
  assert.equal(managerName('', 'kubectl/v1.33.1 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(managerName(undefined, 'OpenAPI-Generator/22.6.0/python'), 'OpenAPI-Generator');
  assert.equal(managerName(undefined, undefined), '');
});

test('smdPath names list-map elements by their keys', () => {
  const pod = { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } };
  const meta = patchMetaFor('', 'v1', 'Pod');
  assert.equal(smdPath('spec.containers[0].ports[0].hostIPP', pod, meta), '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].hostIPP');
});

describe('server-side apply through the pipeline', () => {
  test('an apply without fieldManager is the upstream 422 on PatchOptions', async () => {
    const server = await setup();
    const err = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', cm({ a: '1' }), {}));
    assert.equal(err.code, 422);
    assert.equal(err.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.deepEqual(err.details, { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] });
    const forced = await rejection(server.patch(refs.configMaps, 'default', 'c', 'merge', {}, { force: true }));
    assert.equal(forced.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  test('a field manager over 128 bytes or with an unprintable character is the 422 of its options kind', async () => {
    const server = await setup();
    const long = 'm'.repeat(129);
    const created = await rejection(server.create(refs.configMaps, 'default', cm({ a: '1' }), { fieldManager: long }));
    assert.equal(created.message, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    assert.deepEqual(created.details, { group: 'meta.k8s.io', kind: 'CreateOptions', causes: [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' }] });
    const applied = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', cm({ a: '1' }), { fieldManager: long }));
    assert.equal(applied.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    await server.create(refs.configMaps, 'default', cm({ a: '1' }), { fieldManager: 'tool' });
    const updated = await rejection(server.update(refs.configMaps, 'default', 'c', cm({ a: '2' }), { fieldManager: 'tö\u0007l' }));
    assert.equal(updated.code, 422);
    assert.match(updated.message, /^UpdateOptions\.meta\.k8s\.io "" is invalid: fieldManager: Invalid value: .*: invalid character U\+0007 \(at position 3\)$/);
  });

  test('apply creates, a second manager conflicts, force takes the field over', async () => {
    const server = await setup();
    const created = await server.patch(refs.configMaps, 'default', 'c', 'apply', cm({ a: '1' }), { fieldManager: 'alice' });
    assert.equal(created.created, true);
    const obj = resultObject(created);
    assert.deepEqual(obj.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1]), [['alice', 'Apply', { 'f:data': { 'f:a': {} } }]]);
    const err = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', cm({ a: '2' }), { fieldManager: 'bob' }));
    assert.equal(err.code, 409);
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "alice": .data.a');
    assert.deepEqual(err.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }]);
    const forced = resultObject(await server.patch(refs.configMaps, 'default', 'c', 'apply', cm({ a: '2' }), { fieldManager: 'bob', force: true }));
    assert.deepEqual(forced.data, { a: '2' });
    assert.deepEqual(forced.metadata.managedFields?.map((m) => m.manager), ['bob']);
  });

  test('ordinary writes record Update entries; the User-Agent names an anonymous writer', async () => {
    const server = await setup();
    await server.create(refs.configMaps, 'default', cm({ a: '1' }), { userAgent: 'kubectl/v1.33.1 (linux/amd64)' });
    const patched = resultObject(await server.patch(refs.configMaps, 'default', 'c', 'merge', { data: { b: '2' } }, { fieldManager: 'kubectl-patch' }));
    assert.deepEqual(patched.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1]), [
      ['kubectl', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }],
      ['kubectl-patch', 'Update', { 'f:data': { 'f:b': {} } }],
    ]);
  });

  test('an applied field the schema does not declare fails the typed patch', async () => {
    const server = await setup();
    const err = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', { ...cm({}), dataa: 1 }, { fieldManager: 'alice' }));
    assert.equal(err.message, 'failed to create typed patch object (default/c; /v1, Kind=ConfigMap): .dataa: field not declared in schema');
    assert.equal(err.code, 500);
    assert.equal(err.toStatus().reason, undefined, 'a plain error upstream: no reason, so kubectl prints "Error from server: ..."');
  });

  test('an applied configuration read back with its managedFields, or naming another kind, is refused as upstream refuses it', async () => {
    const server = await setup();
    const withFields = { ...cm({ a: '1' }), metadata: { name: 'c', managedFields: [] } };
    const bad = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', withFields, { fieldManager: 'alice' }));
    assert.deepEqual([bad.code, bad.message], [400, 'metadata.managedFields must be nil']);
    // versionCheckManager, the field manager's outermost layer, compares the whole GroupVersionKind.
    const kinds: [object, string][] = [
      [{ kind: 'configmap' }, '/v1, Kind=configmap'],
      [{ kind: '' }, '/v1, Kind='],
      [{ kind: 7 }, '/v1, Kind='],
      [{ apiVersion: 'v2' }, '/v2, Kind=ConfigMap'],
      [{ apiVersion: 'apps/v1' }, 'apps/v1, Kind=ConfigMap'],
      [{ apiVersion: undefined }, '/, Kind=ConfigMap'],
      [{ apiVersion: 'a/b/c' }, '/, Kind='],
    ];
    for (const [change, gvk] of kinds) {
      const other = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', { ...cm({ a: '1' }), ...change, metadata: { name: 'elsewhere' } }, { fieldManager: 'alice' }));
      assert.deepEqual([other.code, other.toStatus().reason, other.message], [400, 'BadRequest', `invalid object type: ${gvk}`]);
    }
    // The name is checked once the configuration is merged, after its kind.
    const renamed = await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', { ...cm({ a: '1' }), metadata: { name: 'elsewhere' } }, { fieldManager: 'alice' }));
    assert.deepEqual([renamed.code, renamed.message], [400, 'the name of the object (elsewhere) does not match the name on the URL (c)']);
  });

  test('an applied value of the wrong type fails the typed patch in structured-merge-diff words, and nothing is stored', async () => {
    const server = await setup();
    const typed = async (body: object): Promise<string> => (await rejection(server.patch(refs.configMaps, 'default', 'c', 'apply', body, { fieldManager: 'alice' }))).message;
    const prefix = 'failed to create typed patch object (default/c; /v1, Kind=ConfigMap): ';
    // Helm's `--set version=1` into a ConfigMap: the well-known failure.
    assert.equal(await typed(cm({ VERSION: 1 as unknown as string })), `${prefix}.data.VERSION: expected string, got &value.valueUnstructured{Value:1}`);
    assert.equal(await typed(cm({ b: { x: 1, a: 'y' } as unknown as string })), `${prefix}.data.b: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":"y", "x":1}}`);
    assert.equal(await typed({ ...cm({}), immutable: 'yes' }), `${prefix}.immutable: expected boolean, got &{yes}`);
    assert.equal(await typed({ ...cm({}), data: ['a'] }), `${prefix}.data: expected map, got &{[a]}`);
    assert.equal(await typed({ ...cm({ a: true as unknown as string }), dataa: 1 }), `${prefix}errors:\n  .data.a: expected string, got &value.valueUnstructured{Value:true}\n  .dataa: field not declared in schema`);
    await rejection(server.get(refs.configMaps, 'default', 'c'));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 5, ports: 'http' }], terminationGracePeriodSeconds: '30' } };
    const podErr = await rejection(server.patch(refs.pods, 'default', 'p', 'apply', pod, { fieldManager: 'alice' }));
    assert.equal(podErr.message, 'failed to create typed patch object (default/p; /v1, Kind=Pod): errors:\n  .spec.containers[name="app"].image: expected string, got &value.valueUnstructured{Value:5}\n  .spec.containers[name="app"].ports: expected list, got &{http}\n  .spec.terminationGracePeriodSeconds: expected numeric (int or float), got string');
  });

  test('an int-or-string the typed patch takes but Go cannot hold fails the conversion of the merged object, a 500 without a reason, and nothing is stored', async () => {
    const server = await setup();
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { ports: [{ name: 'a', port: 80, targetPort: false }] } };
    const err = await rejection(server.patch(refs.services, 'default', 's', 'apply', service, { fieldManager: 'alice' }));
    assert.deepEqual([err.code, err.toStatus().reason], [500, undefined]);
    assert.equal(err.message, 'failed to convert new object (default/s; /v1, Kind=Service) to proper version: unable to convert unstructured object to /v1, Kind=Service: json: cannot unmarshal bool into Go value of type int32');
    await rejection(server.get(refs.services, 'default', 's'));
  });

  test('strict patches report unknown fields without naming the kind; Warn warns', async () => {
    const server = await setup();
    await server.create(refs.configMaps, 'default', cm({ a: '1' }), {});
    const err = await rejection(server.patch(refs.configMaps, 'default', 'c', 'strategic', { dataa: 1 }, { fieldValidation: 'Strict' }));
    assert.equal(err.message, 'strict decoding error: unknown field "dataa"');
    const warnings: string[] = [];
    const obj = resultObject(await server.patch(refs.configMaps, 'default', 'c', 'merge', { dataa: 1, data: { b: '1' } }, { fieldValidation: 'Warn', warnings }));
    assert.deepEqual(warnings, ['unknown field "dataa"']);
    assert.equal((obj as { dataa?: unknown }).dataa, undefined, 'unknown fields are dropped');
  });
});
