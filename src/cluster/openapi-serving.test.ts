// /openapi/v2 and /openapi/v3 as clients fetch them over HTTPS: the swagger document in JSON or in the
// protobuf kubectl asks for, under one ETag, and 304 Not Modified for a copy that is current.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { createHash } from 'node:crypto';
import { VirtualClock } from '../core/index.ts';
import { refs } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from './index.ts';
import { widgetCrd } from './widget-crd.test-helpers.ts';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function get(cluster: Cluster, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${cluster.url}${path}`, { ca: cluster.certificateAuthority, headers: { Authorization: `Bearer ${cluster.token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('/openapi/v2 answers protobuf or JSON under the JSON\'s ETag, and 304 to a current If-None-Match', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false, port: 0 });
  const kubectlAccept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
  const pb = await get(cluster, '/openapi/v2', { Accept: kubectlAccept });
  assert.equal(pb.status, 200);
  assert.equal(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  assert.equal(pb.body.subarray(0, 5).toString('latin1'), '\n\u00032.0', 'Document.swagger (field 1) comes first');
  const etag = String(pb.headers.etag);
  assert.match(etag, /^"[0-9A-F]{128}"$/);
  const again = await get(cluster, '/openapi/v2', { Accept: kubectlAccept, 'If-None-Match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);

  assert.equal(pb.headers.vary, 'Accept');
  assert.equal(again.headers.vary, 'Accept');
  assert.equal(typeof pb.headers['last-modified'], 'string');
  assert.equal(again.headers['last-modified'], undefined, 'a 304 with an ETag carries no Last-Modified (ServeContent)');

  // kube-openapi tags the protobuf with the JSON's hash: one tag for both, told apart by Vary: Accept.
  const json = await get(cluster, '/openapi/v2', { Accept: 'application/json' });
  assert.equal(json.status, 200);
  assert.equal((JSON.parse(json.body.toString('utf8')) as { swagger: string }).swagger, '2.0');
  assert.equal(json.headers.etag, `"${createHash('sha512').update(json.body).digest('hex').toUpperCase()}"`);
  assert.equal(json.headers.etag, etag);
  assert.equal((await get(cluster, '/openapi/v2', { Accept: 'application/json', 'If-None-Match': etag })).status, 304);

  const v3 = await get(cluster, '/openapi/v3', {});
  assert.equal(v3.headers.vary, undefined, "handler3's root sets no Vary");
  assert.equal((await get(cluster, '/openapi/v3', { 'If-None-Match': String(v3.headers.etag) })).status, 304);
  assert.equal((await get(cluster, '/openapi/v3', { 'If-Modified-Since': String(v3.headers['last-modified']) })).status, 304);
});

test("a v3 group-version document: cached as immutable at the root's hash, redirected from another hash, as upstream's handler3", async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false, port: 0 });
  const root = JSON.parse((await get(cluster, '/openapi/v3', {})).body.toString('utf8')) as { paths: Record<string, { serverRelativeURL: string }> };
  const url = root.paths['apis/apps/v1']?.serverRelativeURL ?? '';
  assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);

  const current = await get(cluster, url, {});
  assert.equal(current.status, 200);
  assert.equal(current.headers['cache-control'], 'public, immutable');
  assert.equal(current.headers.vary, 'Accept');
  const expires = Date.parse(String(current.headers.expires));
  assert.ok(expires - Date.now() > 364 * 86_400_000 && expires - Date.now() < 367 * 86_400_000, String(current.headers.expires));
  assert.equal(current.headers.etag, `"${url.slice(url.indexOf('=') + 1)}"`);

  const stale = await get(cluster, '/openapi/v3/apis/apps/v1?hash=0123', {});
  assert.equal(stale.status, 301);
  assert.equal(stale.headers.location, url);
  assert.equal(stale.body.length, 0);

  const unhashed = await get(cluster, '/openapi/v3/apis/apps/v1', {});
  assert.equal(unhashed.status, 200);
  assert.equal(unhashed.headers['cache-control'], undefined, 'only a hashed URL is immutable');
  assert.equal(unhashed.headers.vary, 'Accept');
  assert.equal((await get(cluster, '/openapi/v3/apis/apps/v1', { 'If-None-Match': String(current.headers.etag) })).status, 304);
  assert.deepEqual(unhashed.body, current.body);
  const notModified = await get(cluster, url, { 'If-None-Match': String(current.headers.etag) });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.headers['cache-control'], 'public, immutable');
});

test('a CRD in a new group leaves the other group-versions\' v3 documents as they were: same hash, ETag and Last-Modified', async () => {
  const clock = new VirtualClock();
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false, port: 0 });
  const rootPaths = async () => (JSON.parse((await get(cluster, '/openapi/v3', {})).body.toString('utf8')) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  const before = await rootPaths();
  const core = await get(cluster, before['api/v1']!.serverRelativeURL, {});
  // Last-Modified counts whole seconds: after one, a rebuilt document would carry a later one.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await cluster.client.create(refs.customResourceDefinitions, widgetCrd());
  const after = await clock.until(async () => {
    const paths = await rootPaths();
    return paths['apis/example.com/v1'] ? paths : undefined;
  }, 'the CRD group-version in /openapi/v3');
  assert.equal(after['api/v1']!.serverRelativeURL, before['api/v1']!.serverRelativeURL);
  assert.equal(after['apis/apps/v1']!.serverRelativeURL, before['apis/apps/v1']!.serverRelativeURL);
  const coreAgain = await get(cluster, '/openapi/v3/api/v1', {});
  assert.equal(coreAgain.headers.etag, core.headers.etag);
  assert.equal(coreAgain.headers['last-modified'], core.headers['last-modified']);
  assert.equal((await get(cluster, '/openapi/v3/api/v1', { 'If-None-Match': String(core.headers.etag) })).status, 304);
  const widgets = await get(cluster, after['apis/example.com/v1']!.serverRelativeURL, {});
  assert.equal(widgets.status, 200);
  assert.ok(Date.parse(String(widgets.headers['last-modified'])) > Date.parse(String(core.headers['last-modified'])), 'the new group-version was built after');
});
