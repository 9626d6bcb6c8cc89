// serveContent answers conditional GETs as Go's http.ServeContent, which kube-openapi's handlers use.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentHash, serveContent } from './conditional-get.ts';

const body = Buffer.from('{"paths":{}}');
const etag = `"${contentHash(body)}"`;
const lastModified = Date.parse('2026-12-07T10:00:00.250Z');
let http: Server;
let base = '';

before(async () => {
  http = createServer((req, res) => serveContent(req, res, { body, etag, lastModified }, 'application/json', { Vary: 'Accept' }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => http.close(() => resolve())));

test('a GET without conditions is 200 with the body, its tag, Last-Modified in HTTP-date form and the extra headers', async () => {
  const res = await fetch(base);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), '{"paths":{}}');
  assert.equal(res.headers.get('etag'), etag);
  assert.equal(res.headers.get('last-modified'), 'Mon, 07 Dec 2026 10:00:00 GMT');
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(res.headers.get('vary'), 'Accept');
});

test('If-None-Match as ServeContent reads it: any listed tag, weak or strong, or *', async () => {
  const cases: [string, number][] = [
    [etag, 304],
    [`W/${etag}`, 304],
    [`"other", ${etag}`, 304],
    ['*', 304],
    ['"other"', 200],
    [etag.slice(1, -1), 200],
    // A list that stops parsing before our tag does not match.
    [`bad, ${etag}`, 200],
  ];
  for (const [header, status] of cases) assert.equal((await fetch(base, { headers: { 'If-None-Match': header } })).status, status, header);
});

test('a 304 keeps the tag and the caching headers and drops the content headers and Last-Modified', async () => {
  const res = await fetch(base, { headers: { 'If-None-Match': etag } });
  assert.equal(res.status, 304);
  assert.equal(await res.text(), '');
  assert.equal(res.headers.get('etag'), etag);
  assert.equal(res.headers.get('vary'), 'Accept');
  assert.equal(res.headers.get('content-type'), null);
  assert.equal(res.headers.get('content-length'), null);
  assert.equal(res.headers.get('last-modified'), null);
});

test('If-Modified-Since counts only without If-None-Match, to the second', async () => {
  const at = (date: string, extra: Record<string, string> = {}) => fetch(base, { headers: { 'If-Modified-Since': date, ...extra } }).then((r) => r.status);
  assert.equal(await at('Mon, 07 Dec 2026 10:00:00 GMT'), 304);
  assert.equal(await at('Mon, 07 Dec 2026 11:00:00 GMT'), 304);
  assert.equal(await at('Mon, 07 Dec 2026 09:59:59 GMT'), 200);
  assert.equal(await at('yesterday'), 200);
  assert.equal(await at('Mon, 07 Dec 2026 11:00:00 GMT', { 'If-None-Match': '"other"' }), 200);
});
