import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { isApiError, SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer } from './server.ts';
import { builtinAdmissionPlugins } from './admission-plugins.ts';

async function setup(): Promise<ApiServer> {
  const server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  await server.create(refs.namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }, {});
  return server;
}

async function message(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (isApiError(error)) return `${error.code} ${error.message}`;
    throw error;
  }
  return 'no error';
}

const http = { fieldValidation: 'Strict' as const };
const cm = (apiVersion: string | undefined, kind: string | undefined, name = 'c'): KubeObject => ({ ...(apiVersion === undefined ? {} : { apiVersion }), ...(kind === undefined ? {} : { kind }), metadata: { name } }) as KubeObject;

test('a body whose kind the endpoint cannot decode is refused in transformDecodeError words; absent parts default', async () => {
  const server = await setup();
  assert.equal(await message(server.create(refs.configMaps, 'default', cm('v1', 'configmap'), http)), '400 configmap in version "v1" cannot be handled as a ConfigMap: no kind "configmap" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
  assert.equal(await message(server.create(refs.configMaps, 'default', cm('v1', 'Secret'), http)), '400 Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion');
  assert.equal(await message(server.create(refs.deployments, 'default', cm('apps/v1', 'StatefulSet'), http)), '400 StatefulSet in version "v1" cannot be handled as a Deployment: converting (v1.StatefulSet) to (apps.Deployment): unknown conversion');
  assert.equal(await message(server.create(refs.configMaps, 'default', cm('x/y', 'ConfigMap'), http)), '400 ConfigMap in version "y" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "x/y" in scheme "pkg/api/legacyscheme/scheme.go:30"');
  assert.equal(await message(server.create(refs.events, 'default', { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' } } as KubeObject, http)), '400 the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)');
  assert.equal(await message(server.create(refs.configMaps, 'default', { ...cm('v1', undefined), kind: 5 } as unknown as KubeObject, http)), '400 the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"apiVersion":"v1","metadata": ...)');
  assert.equal(await message(server.create(refs.configMaps, 'default', cm(undefined, undefined, 'plain'), http)), 'no error');
  assert.equal(await message(server.create(refs.configMaps, 'default', cm('v1', 'ConfigMap', 'full'), http)), 'no error');
});

test('a JSON or merge patch that changes the kind fails as its decoding does; a strategic merge patch cannot change it', async () => {
  const server = await setup();
  await server.create(refs.configMaps, 'default', cm('v1', 'ConfigMap'), http);
  const json = await message(server.patch(refs.configMaps, 'default', 'c', 'json', [{ op: 'replace', path: '/kind', value: 'A' }], http));
  assert.match(json, /^422 {2}"" is invalid: patch: Invalid value: ".*\\"kind\\":\\"A\\".*": no kind "A" is registered for version "v1" in scheme "pkg\/api\/legacyscheme\/scheme.go:30"$/);
  const merge = await message(server.patch(refs.configMaps, 'default', 'c', 'merge', { kind: 'Secret' }, http));
  assert.match(merge, /converting \(v1\.Secret\) to \(core\.ConfigMap\): unknown conversion$/);
  await server.patch(refs.configMaps, 'default', 'c', 'strategic', { kind: 'B', apiVersion: 'x/y', data: { a: '1' } }, http);
  const stored = JSON.parse(((await server.get(refs.configMaps, 'default', 'c')) as unknown as { kv: { value: string } }).kv.value) as KubeObject & { data?: object };
  assert.deepEqual([stored.apiVersion, stored.kind, stored.data], ['v1', 'ConfigMap', { a: '1' }]);
});
