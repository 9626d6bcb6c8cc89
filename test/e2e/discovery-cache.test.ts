// kubectl's cache dir against Drydock as against an upstream API server: run twice with the same
// --cache-dir, the second run revalidates discovery and the OpenAPI root (304 Not Modified, which
// kubectl's HTTP cache turns back into the stored 200 marked X-From-Cache) and takes a hashed OpenAPI
// document from the cache without asking. kubectl logs its requests (-v=8) outside that cache, so
// a response with X-From-Cache and no freshness lifetime (no max-age, no Expires) is one the server
// answered 304.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

interface Exchange {
  url: string;
  status: string;
  headers: Map<string, string>;
}

/** The requests of a -v=8 log, in order, with their responses' status and headers (kubectl sends them one at a time here). */
function exchanges(log: string): Exchange[] {
  const urls = [...log.matchAll(/"Request" verb="GET" url="([^"]+)"/g)].map((m) => m[1] ?? '');
  const responses = [...log.matchAll(/"Response" status="([^"]+)" headers=<\n((?:\t.*\n)*) >/g)];
  assert.equal(responses.length, urls.length, log);
  return responses.map((m, i) => ({
    url: (urls[i] ?? '').replace(/^https:\/\/[^/]+/, '').replace(/[?&]timeout=32s$/, ''),
    status: m[1] ?? '',
    headers: new Map((m[2] ?? '').split('\n').filter(Boolean).map((line) => {
      const at = line.indexOf(': ');
      return [line.slice(1, at).toLowerCase(), line.slice(at + 2)];
    })),
  }));
}

const fromCache = (e: Exchange | undefined): string | undefined => e?.headers.get('x-from-cache');

describe('kubectl run twice with the same cache dir', () => {
  const dd = drydockForSuite({ config: cpuNodesConfig(1) });

  test('api-resources: the second run revalidates /api and /apis and gets 304s, until a CRD changes /apis', async () => {
    const first = await dd.kubectl(['api-resources', '-v=8']);
    assert.equal(first.code, 0, first.stderr);
    const firstRun = exchanges(first.stderr);
    assert.deepEqual(firstRun.map((e) => [e.url, e.status, fromCache(e)]), [['/api', '200 OK', undefined], ['/apis', '200 OK', undefined]]);
    for (const e of firstRun) {
      assert.match(e.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
      assert.deepEqual([e.headers.get('cache-control'), e.headers.get('vary')], ['public', 'Accept']);
    }

    // api-resources drops kubectl's discovery cache, so it asks again, now with If-None-Match.
    const second = await dd.kubectl(['api-resources', '-v=8']);
    assert.equal(second.stdout, first.stdout);
    const secondRun = exchanges(second.stderr);
    assert.deepEqual(secondRun.map((e) => [e.url, e.status, fromCache(e)]), [['/api', '200 OK', '1'], ['/apis', '200 OK', '1']]);
    assert.deepEqual(secondRun.map((e) => e.headers.get('etag')), firstRun.map((e) => e.headers.get('etag')));

    await dd.ok(['apply', '-f', '-'], {
      input: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.dev}
spec:
  group: example.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`,
    });
    await dd.ok(['wait', '--for=condition=Established', 'crd/widgets.example.dev']);
    const third = await dd.kubectl(['api-resources', '-v=8']);
    const thirdRun = exchanges(third.stderr);
    assert.deepEqual(thirdRun.map((e) => [e.url, fromCache(e)]), [['/api', '1'], ['/apis', undefined]], 'the new list is downloaded, the unchanged legacy group is not');
    assert.notEqual(thirdRun[1]?.headers.get('etag'), firstRun[1]?.headers.get('etag'));
    assert.match(third.stdout, /^widgets\s+example\.dev\/v1\s+true\s+Widget$/m);
  });

  test('explain: the second run revalidates the OpenAPI root and reads the hashed document from the cache', async () => {
    const first = exchanges((await dd.kubectl(['explain', 'pods', '-v=8'])).stderr);
    const second = exchanges((await dd.kubectl(['explain', 'pods', '-v=8'])).stderr);
    const openapi = (run: Exchange[]): Exchange[] => run.filter((e) => e.url.startsWith('/openapi/'));
    assert.deepEqual(openapi(first).map((e) => [e.url.replace(/hash=\w+/, 'hash=H'), fromCache(e)]), [['/openapi/v3', undefined], ['/openapi/v3/api/v1?hash=H', undefined]]);
    const [root, doc] = openapi(second);
    assert.equal(fromCache(root), '1');
    assert.equal(root?.headers.get('cache-control'), undefined, 'the root has no lifetime: it was revalidated');
    assert.equal(fromCache(doc), '1');
    assert.equal(doc?.headers.get('cache-control'), 'public, immutable');
    // Served from the cache without a request: the stored answer's Date, not this run's.
    assert.equal(doc?.headers.get('date'), openapi(first)[1]?.headers.get('date'));
  });
});
