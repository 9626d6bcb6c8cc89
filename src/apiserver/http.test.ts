// The HTTP edge: authentication, decoding, negotiation and error bodies in upstream form;
// a rejected request changes nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinDefinitions, refs } from '../api/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer, builtinAdmissionPlugins, createHttpHandler, createLocalClient } from './index.ts';

describe('HTTP edge', () => {
  let http: Server;
  let base = '';
  let server: ApiServer;
  const clock = new VirtualClock();
  const token = 'secret-token';
  before(async () => {
    server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(2), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
    await createLocalClient(server).create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    http = createServer(createHttpHandler({ server, tokens: [token] }));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => http.close(() => resolve())));

  const call = async (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers }, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };

  test('requests without the token are 401 Unauthorized; health and version are public', async () => {
    const res = await fetch(`${base}/api/v1/namespaces`);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
    assert.equal((await fetch(`${base}/version`)).status, 200);
  });

  test('impersonating groups, extras or a uid without a user is 400 BadRequest listing what was asked', async () => {
    const res = await call('GET', '/api/v1/namespaces', undefined, { 'Impersonate-Group': 'ml-team', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': 'u-1' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'requested [{Group  ml-team    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  u-1  authentication.k8s.io/v1  }] without impersonating a user',
      reason: 'BadRequest',
      code: 400,
    });
  });

  test('malformed JSON and YAML are 400 BadRequest', async () => {
    const json = await call('POST', '/api/v1/namespaces/default/configmaps', '{"metadata": ');
    assert.equal(json.status, 400);
    assert.equal(json.json().reason, 'BadRequest');
    // Upstream's decoder fails reading the body's kind (Interpret), before it knows the kind.
    assert.equal(json.json().message, 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"metadata": )');
    const yaml = await call('POST', '/api/v1/namespaces/default/configmaps', 'metadata: [unclosed', { 'Content-Type': 'application/yaml' });
    assert.equal(yaml.status, 400);
    // YAMLToJSON fails first; the body does not open an object, so it is summarized in hex.
    assert.match(String(yaml.json().message), /^the object provided is unrecognized \(must be of type ConfigMap\): error converting YAML to JSON: .* \(6d657461646174613a205b756e636c6f736564\)$/);
  });

  test('a body that is no object fails reading its kind; null reads as an empty object', async () => {
    const array = await call('POST', '/api/v1/namespaces/default/configmaps', '[]');
    assert.equal(array.status, 400);
    assert.equal(array.json().message, 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)');
    const nothing = await call('POST', '/api/v1/namespaces/default/configmaps', 'null');
    assert.equal(nothing.status, 422);
    assert.equal(nothing.json().message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  test('a DELETE body that is not DeleteOptions is a 400 in the decoder\'s words, and nothing is deleted', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } }))).status, 201);
    const path = '/api/v1/namespaces/default/configmaps/kept';
    const refusals: [string, string][] = [
      ['{bad', 'couldn\'t get version/kind; json parse error: invalid character \'b\' looking for beginning of object key string'],
      ['[]', 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
      ['{"kind":"Pod","apiVersion":"v1"}', 'no kind "Pod" is registered for version "v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"'],
      ['{"kind":"ListOptions","apiVersion":"meta.k8s.io/v1"}', 'converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion'],
    ];
    for (const [body, message] of refusals) {
      const res = await call('DELETE', path, body);
      assert.equal(res.status, 400, body);
      assert.equal(res.json().reason, 'BadRequest', body);
      assert.equal(res.json().message, message, body);
    }
    assert.equal((await call('GET', path)).status, 200, 'still there');
    // DeleteOptions is unversioned in the meta scheme: any apiVersion decodes; null is no options.
    assert.equal((await call('DELETE', path, '{"kind":"DeleteOptions","apiVersion":"apps/v1"}')).status, 200);
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } }))).status, 201);
    assert.equal((await call('DELETE', path, 'null')).status, 200);
  });

  test('a patch of the wrong shape fails its strict decode as upstream\'s; null is no patch where a map or a list is read', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shapes' }, data: { a: 'b' } }))).status, 201);
    const path = '/api/v1/namespaces/default/configmaps/shapes';
    const cases: [string, string, number, string][] = [
      ['application/merge-patch+json', '5', 400, 'error decoding patch: json: cannot unmarshal number into Go value of type map[string]interface {}'],
      ['application/merge-patch+json', 'null', 400, 'Invalid JSON Patch'],
      ['application/strategic-merge-patch+json', '"x"', 400, 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
      ['application/strategic-merge-patch+json', 'null', 200, ''],
      ['application/json-patch+json', '{}', 400, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
      ['application/json-patch+json', 'null', 200, ''],
    ];
    for (const [type, body, status, message] of cases) {
      const res = await call('PATCH', path, body, { 'Content-Type': type });
      assert.equal(res.status, status, `${type} ${body}`);
      if (message) assert.equal(res.json().message, message, `${type} ${body}`);
      else assert.deepEqual(res.json().data, { a: 'b' }, `${type} ${body} changes nothing`);
    }
    // Without the strict decode, MergePatch makes a list the document, and a JSON patch may replace the
    // root with one; decoding it fails (a 422 on `patch`). Replacing the root with a scalar changes nothing
    // in json-patch v4 (its error wraps a nil one); a scalar merge patch is ErrBadJSONPatch.
    const decodeFailure = (shown: string): string => ` "" is invalid: patch: Invalid value: ${JSON.stringify(shown)}: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
    const lenient: [string, string, number, string][] = [
      ['application/merge-patch+json', '[1,null,{"a":null}]', 422, decodeFailure('[1,null,{}]')],
      ['application/merge-patch+json', '5', 400, 'Invalid JSON Patch'],
      ['application/json-patch+json', '[{"op":"replace","path":"","value":[]}]', 422, decodeFailure('[]')],
      ['application/json-patch+json', '[{"op":"replace","path":"","value":5}]', 200, ''],
    ];
    for (const [type, body, status, message] of lenient) {
      const res = await call('PATCH', `${path}?fieldValidation=Ignore`, body, { 'Content-Type': type });
      assert.equal(res.status, status, `${type} ${body}`);
      if (message) assert.equal(res.json().message, message, `${type} ${body}`);
      else assert.deepEqual(res.json().data, { a: 'b' }, `${type} ${body} changes nothing`);
    }
  });

  test('write and delete options are validated as upstream validates them, before anything is read or written', async () => {
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'opts' } });
    const dry = await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=all', cm);
    assert.deepEqual([dry.status, dry.json().message], [422, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"all"}: supported values: "All"']);
    const validation = await call('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=strict', cm);
    assert.deepEqual([validation.status, validation.json().message], [422, 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"']);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/opts')).status, 404, 'nothing was created');
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', cm)).status, 201);
    const path = '/api/v1/namespaces/default/configmaps/opts';
    const dryDelete = await call('DELETE', `${path}?dryRun=all`);
    assert.deepEqual([dryDelete.status, dryDelete.json().message], [422, 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"all"}: supported values: "All"']);
    const both = await call('DELETE', '/api/v1/namespaces/default/configmaps/absent?propagationPolicy=Orphan&orphanDependents=true');
    assert.deepEqual([both.status, both.json().message], [422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set']);
    assert.equal((await call('GET', path)).status, 200, 'still there');
    // A body's options are the options: the query is not read beside them.
    assert.equal((await call('DELETE', `${path}?dryRun=All`, '{}')).status, 200);
    assert.equal((await call('GET', path)).status, 404);
  });

  test('a YAML body is accepted', async () => {
    const res = await call('POST', '/api/v1/namespaces/default/configmaps', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: b\n', { 'Content-Type': 'application/yaml' });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json().data, { a: 'b' });
  });

  test('a body over 3 MiB is 413 and nothing is stored', async () => {
    const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { blob: 'x'.repeat(3 * 1024 * 1024 + 10) } });
    const res = await call('POST', '/api/v1/namespaces/default/configmaps', big);
    assert.equal(res.status, 413);
    assert.equal(res.json().reason, 'RequestEntityTooLarge');
    const get = await call('GET', '/api/v1/namespaces/default/configmaps/big');
    assert.equal(get.status, 404);
  });

  test('unknown resources and paths are 404; unsupported verbs 405; unknown body types 415', async () => {
    const unknown = await call('GET', '/api/v1/foos');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().message, 'the server could not find the requested resource');
    assert.equal((await call('GET', '/nonsense')).status, 404);
    assert.equal((await call('PUT', '/api/v1/namespaces/default/configmaps', '{}')).status, 405);
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', 'x', { 'Content-Type': 'text/plain' })).status, 415);
  });

  test('a method a path has no route for is the bare 405; DELETE on a subresource deletes nothing', async () => {
    const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kept' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods', pod)).status, 201);
    const bare = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };
    for (const [method, path] of [
      ['DELETE', '/api/v1/namespaces/default/pods/kept/log'],
      ['DELETE', '/api/v1/namespaces/default/pods/kept/status'],
      ['PUT', '/api/v1/namespaces/default/pods/kept/log'],
      ['POST', '/api/v1/namespaces/default/pods/kept/status'],
      ['PATCH', '/api/v1/namespaces/default/pods/kept/binding'],
      ['DELETE', '/api/v1/namespaces'],
      ['DELETE', '/api/v1/pods'],
      ['POST', '/api/v1/configmaps'],
      ['POST', '/api/v1/namespaces/default/pods/kept'],
    ] as const) {
      const res = await call(method, path, '{}');
      assert.deepEqual([res.status, res.json()], [405, bare], `${method} ${path}`);
    }
    assert.equal((await call('GET', '/api/v1/namespaces/default/pods/kept')).status, 200);
    // A subresource the kind lacks is no route at all.
    for (const [method, path] of [['GET', '/api/v1/namespaces/default/configmaps/kept/status'], ['POST', '/api/v1/namespaces/default/pods/kept/bogus']] as const) {
      const res = await call(method, path, method === 'GET' ? undefined : '{}');
      assert.deepEqual([res.status, res.json().message, res.json().details], [404, 'the server could not find the requested resource', {}], `${method} ${path}`);
    }
  });

  test('DELETE on a collection deletes what the selectors pick and answers with the list as it was read', async () => {
    const cm = (name: string, labels: Record<string, string>): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });
    for (const [name, tier] of [['dc-a', 'cache'], ['dc-b', 'cache'], ['dc-c', 'web']] as const) assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', cm(name, { tier }))).status, 201);
    const res = await call('DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=tier%3Dcache');
    assert.equal(res.status, 200);
    const list = res.json() as { kind: string; items: { metadata: { name: string } }[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['dc-a', 'dc-b']);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dc-a')).status, 404);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dc-c')).status, 200);
    // A dry run deletes nothing; a limit deletes one page.
    assert.equal((await call('DELETE', '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Ddc-c&dryRun=All')).status, 200);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dc-c')).status, 200);
    const page = (await call('DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=tier&limit=1')).json() as { items: unknown[] };
    assert.equal(page.items.length, 1);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dc-c')).status, 404);
  });

  test('curl, wget and browsers, or ?pretty=true, get indented JSON with <, > and & escaped as Go escapes them', async () => {
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'html' }, data: { page: '<b>&</b>' } });
    assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', cm)).status, 201);
    const compact = await call('GET', '/api/v1/namespaces/default/configmaps/html');
    assert.match(compact.text, /^\{"apiVersion":"v1","kind":"ConfigMap",/);
    for (const [query, agent] of [['?pretty=true', 'node'], ['', 'curl/8.5.0'], ['', 'Wget/1.21'], ['', 'Mozilla/5.0 (X11)']] as const) {
      const res = await call('GET', `/api/v1/namespaces/default/configmaps/html${query}`, undefined, { 'User-Agent': agent });
      assert.ok(res.text.startsWith('{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n'), `${query} ${agent}: ${res.text.slice(0, 60)}`);
      assert.ok(res.text.includes('"page": "\\u003cb\\u003e\\u0026\\u003c/b\\u003e"'), res.text);
      assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(res.text));
    }
    const asked = await call('GET', '/api/v1/namespaces/default/configmaps/html?pretty=false', undefined, { 'User-Agent': 'curl/8.5.0' });
    assert.match(asked.text, /^\{"apiVersion"/);
    // A list written in pieces, and an error, are indented as well.
    assert.ok((await call('GET', '/api/v1/namespaces/default/configmaps?pretty=1')).text.startsWith('{\n  "kind": "ConfigMapList",'));
    assert.ok((await call('GET', '/api/v1/namespaces/default/configmaps/none?pretty=1')).text.startsWith('{\n  "kind": "Status",'));
    assert.equal((await call('DELETE', '/api/v1/namespaces/default/configmaps/html')).status, 200);
  });

  test('a read at a resourceVersion not reached is 504 after its 3 s wait, with the Retry-After its status names', async () => {
    let answered = false;
    const pending = call('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=99999').finally(() => (answered = true));
    // The server's clock moves only when told: a second at a time until the wait has run out.
    while (!answered) {
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const res = await pending;
    assert.equal(res.status, 504);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal(res.json().reason, 'Timeout');
    assert.match(String(res.json().message), /^Timeout: Too large resource version: 99999, current: \d+$/);
  });

  test('an invalid object is 422 with one cause per field error', async () => {
    const res = await call('POST', '/api/v1/namespaces/default/pods', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [{ name: 'c' }] } }));
    assert.equal(res.status, 422);
    const status = res.json() as { message: string; details: { kind: string; name: string; causes: { reason: string; field: string }[] } };
    assert.equal(status.message, 'Pod "bad" is invalid: spec.containers[0].image: Required value');
    assert.equal(status.details.kind, 'Pod');
    assert.deepEqual(status.details.causes.map((c) => [c.reason, c.field]), [['FieldValueRequired', 'spec.containers[0].image']]);
  });

  test('Table output carries the kind columns and row metadata', async () => {
    const res = await call('GET', '/api/v1/namespaces', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = res.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: { kind: string } }[] };
    assert.deepEqual(table.columnDefinitions.map((c) => c.name), ['Name', 'Status', 'Age']);
    assert.equal(table.rows[0]?.object.kind, 'PartialObjectMetadata');
    const odd = await call('GET', '/api/v1/namespaces?includeObject=Foo', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    assert.deepEqual([odd.status, odd.json().message], [400, 'Unable to convert to Table as requested: includeObject: Invalid value: "Foo": must be \'Metadata\', \'Object\', \'None\', or empty']);
  });

  test('aggregated discovery answers with its media type', async () => {
    const res = await call('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    assert.equal(res.headers.get('content-type'), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const list = res.json() as { items: { metadata: { name: string } }[] };
    assert.ok(list.items.some((g) => g.metadata.name === 'apps'));
    assert.ok(list.items.some((g) => g.metadata.name === 'resource.k8s.io'));
  });

  test('an APIService sending a group-version to a Service: listed (stale in aggregated discovery), every request under it a 503', async () => {
    const apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' }, spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, insecureSkipTLSVerify: true, service: { namespace: 'wardle', name: 'api' } } };
    assert.equal((await call('POST', '/apis/apiregistration.k8s.io/v1/apiservices', JSON.stringify(apiService))).status, 201);
    try {
      const aggregated = (await call('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json() as { items: { metadata: { name: string }; versions: unknown[] }[] };
      assert.deepEqual(aggregated.items.find((g) => g.metadata.name === 'wardle.example.com')?.versions, [{ version: 'v1alpha1', freshness: 'Stale' }]);
      const legacy = (await call('GET', '/apis')).json() as { groups: { name: string; versions: { groupVersion: string }[] }[] };
      assert.deepEqual(legacy.groups.find((g) => g.name === 'wardle.example.com')?.versions.map((v) => v.groupVersion), ['wardle.example.com/v1alpha1']);
      assert.equal((await call('GET', '/apis/wardle.example.com')).status, 200);
      for (const path of ['/apis/wardle.example.com/v1alpha1', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders']) {
        const res = await call('GET', path);
        assert.deepEqual([res.status, res.headers.get('content-type'), res.text], [503, 'text/plain; charset=utf-8', 'service unavailable\n'], path);
      }
      assert.equal((await call('GET', '/apis/wardle.example.com/v1beta1')).status, 404, 'a version no APIService names stays unknown');
    } finally {
      await call('DELETE', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com');
    }
    assert.equal((await call('GET', '/apis/wardle.example.com/v1alpha1')).status, 404);
  });

  test('a watch streams one JSON event per line, starting with the current objects', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/v1/namespaces/default/configmaps?watch=true`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    const line = Buffer.from(first?.value ?? new Uint8Array()).toString().split('\n')[0] ?? '';
    const event = JSON.parse(line) as { type: string; object: { metadata: { name: string } } };
    assert.equal(event.type, 'ADDED');
    assert.equal(event.object.metadata.name, 'from-yaml');
    controller.abort();
  });

  test('the deprecated /watch/ paths watch a collection, or one object by name, and take nothing but GET', async () => {
    // The first written piece holds the initial events (the server's clock is virtual: no timeout ends it).
    const events = async (path: string): Promise<string[]> => {
      const controller = new AbortController();
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
      assert.equal(res.status, 200, path);
      const first = await res.body?.getReader().read();
      controller.abort();
      const lines = Buffer.from(first?.value ?? new Uint8Array()).toString().trim().split('\n');
      return lines.map((l) => { const e = JSON.parse(l) as { type: string; object: { metadata: { name: string } } }; return `${e.type} ${e.object.metadata.name}`; });
    };
    assert.deepEqual(await events('/api/v1/watch/namespaces/default/configmaps/from-yaml'), ['ADDED from-yaml']);
    assert.ok((await events('/api/v1/watch/namespaces/default/configmaps')).includes('ADDED from-yaml'));
    assert.equal((await call('DELETE', '/api/v1/watch/namespaces/default/configmaps/from-yaml')).status, 405);
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/from-yaml')).status, 200);
  });

  test('a list larger than one written piece arrives whole and in order, chunked; a small one with its Content-Length in bytes', async () => {
    const client = createLocalClient(server);
    await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'listing' } });
    // ~200 KB of items, some of them multi-byte in UTF-8, so the body spans several pieces.
    const names = Array.from({ length: 80 }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
    for (const [i, name] of names.entries()) {
      await client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'listing' }, data: { text: (i % 2 ? 'é€' : 'ab').repeat(1200) } });
    }
    const small = await call('GET', '/api/v1/namespaces/listing/configmaps?limit=2');
    assert.equal(Number(small.headers.get('content-length')), Buffer.byteLength(small.text));
    assert.equal((small.json() as { items: unknown[] }).items.length, 2);
    const res = await call('GET', '/api/v1/namespaces/listing/configmaps');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    const list = res.json() as { kind: string; items: { metadata: { name: string }; data: { text: string } }[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.deepEqual(list.items.map((item) => item.metadata.name), names);
    assert.equal(list.items[1]?.data.text, 'é€'.repeat(1200));
    const yaml = await call('GET', '/api/v1/namespaces/listing/configmaps', undefined, { Accept: 'application/yaml' });
    assert.deepEqual(parseYaml(yaml.text), list);
  });
});

test('a stored value that cannot be encoded midway through a long list ends that response short, and the server goes on', async () => {
  const store = new MemoryStore();
  const server = new ApiServer({ store, clock: new VirtualClock(), random: new SeededRandom(3), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  for (let i = 0; i < 40; i++) await client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `a-${String(i).padStart(2, '0')}`, namespace: 'default' }, data: { text: 'x'.repeat(4000) } });
  // Sorted after every good one, so the body's first pieces are out before it is reached.
  await store.create('/registry/core/configmaps/default/z-broken', '{"apiVersion":"v1","kind":"ConfigMap"}');
  const http = createServer(createHttpHandler({ server, tokens: ['t'] }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    const headers = { Authorization: 'Bearer t' };
    await assert.rejects(async () => (await fetch(`${base}/api/v1/namespaces/default/configmaps`, { headers })).text());
    const one = await fetch(`${base}/api/v1/namespaces/default/configmaps/a-00`, { headers });
    assert.equal(one.status, 200);
  } finally {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});
