// Aggregated discovery over HTTP as upstream's ServeHTTPWithETag answers it: a tag clients cache the
// document under, 304 Not Modified while it is current, and a new tag once a CRD changes the list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer } from './server.ts';
import { CustomResources } from './crd/controller.ts';
import { createHttpHandler } from './http.ts';
import { createLocalClient } from './local-client.ts';

const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
// What kubectl 1.33 sends for /api and /apis.
const kubectlAccept = `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${v2};q=0.9,application/json;q=0.8`;
let http: Server;
let base = '';
let server: ApiServer;
let crds: CustomResources;

before(async () => {
  server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(3), definitions: builtinDefinitions() });
  crds = new CustomResources(server);
  await crds.start();
  http = createServer(createHttpHandler({ server, tokens: [] }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => http.close(() => resolve())));

const get = async (path: string, headers: Record<string, string>) => {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

test('/api and /apis carry a quoted SHA-512 ETag, Vary: Accept and Cache-Control: public', async () => {
  for (const path of ['/api', '/apis']) {
    const res = await get(path, { Accept: kubectlAccept });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), v2);
    assert.match(res.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
    assert.equal(res.headers.get('vary'), 'Accept');
    assert.equal(res.headers.get('cache-control'), 'public');
  }
  assert.notEqual((await get('/api', { Accept: v2 })).headers.get('etag'), (await get('/apis', { Accept: v2 })).headers.get('etag'));
  // The legacy documents have no tag upstream either.
  const legacy = await get('/apis', { Accept: 'application/json' });
  assert.equal(legacy.headers.get('etag'), null);
  assert.equal(legacy.headers.get('cache-control'), null);
});

test('a current If-None-Match is 304 with the tag, Vary and Cache-Control and no body; anything else is the document', async () => {
  const first = await get('/apis', { Accept: kubectlAccept });
  const etag = first.headers.get('etag') ?? '';
  const again = await get('/apis', { Accept: kubectlAccept, 'If-None-Match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
  assert.deepEqual([again.headers.get('etag'), again.headers.get('vary'), again.headers.get('cache-control'), again.headers.get('content-type')], [etag, 'Accept', 'public', null]);
  // The handler compares the header whole: a weak or listed tag is not the same string.
  for (const other of [`W/${etag}`, `"x", ${etag}`, '*', etag.slice(1, -1)]) assert.equal((await get('/apis', { Accept: kubectlAccept, 'If-None-Match': other })).status, 200, other);
  // One tag for v2 and v2beta1, as upstream's: Vary: Accept is what keeps caches from mixing them.
  const beta = await get('/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList', 'If-None-Match': etag });
  assert.equal(beta.status, 304);
});

test('creating a CRD changes the /apis tag and a stale If-None-Match gets the new list', async () => {
  const before = (await get('/apis', { Accept: v2 })).headers.get('etag') ?? '';
  const coreBefore = (await get('/api', { Accept: v2 })).headers.get('etag') ?? '';
  await createLocalClient(server).create(refs.customResourceDefinitions, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.dev' },
    spec: { group: 'example.dev', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  } as KubeObject);
  await crds.settled();
  const after = await get('/apis', { Accept: v2, 'If-None-Match': before });
  assert.equal(after.status, 200);
  assert.notEqual(after.headers.get('etag'), before);
  const groups = (JSON.parse(after.text) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
  assert.ok(groups.includes('example.dev'), groups.join());
  assert.equal((await get('/apis', { Accept: v2, 'If-None-Match': after.headers.get('etag') ?? '' })).status, 304);
  assert.equal((await get('/api', { Accept: v2, 'If-None-Match': coreBefore })).status, 304, 'the legacy group is unchanged');
});
