// Bad input never breaks the server: seeded mutations of real manifests and of the cluster's own
// objects (wrong types, nulls, removed and unknown fields, odd kinds) sent as creates, updates,
// patches of every type and server-side applies. Each must be answered in Kubernetes' own form,
// never with an internal error, and afterwards the server still serves and every list decodes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readKubeconfigToken, startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Resource { base: string; apiVersion: string; name: string; kind: string; namespaced: boolean; verbs: string[] }
interface Answer { status: number; body: Record<string, unknown> | undefined; text: string }

const fixtures = join(import.meta.dirname, '../../../test/fixtures');

/** A small LCG: the same requests every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Seeded choices, odd JSON values, and copies of an object with one to three values made odd or removed. */
function oddValues(random: () => number): { pick: <T>(values: readonly T[]) => T; odd: () => Json; mutate: (object: Json) => Json } {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const odd = (): Json => pick<Json>([null, 0, -1, 1.5, 1e308, '', 'x'.repeat(300), '💥', 'true', true, false, [], [null], [{}], {}, { a: { b: [] } }, '100m', '-5Mi', 'pod', 'a/b', '2026-13-45T99:99:99Z']);
  const paths = (value: Json, at: string[] = [], out: string[][] = []): string[][] => {
    if (at.length > 0) out.push(at);
    if (value && typeof value === 'object') for (const k of Object.keys(value)) paths((value as Record<string, Json>)[k] as Json, [...at, k], out);
    return out;
  };
  const mutate = (object: Json): Json => {
    const copy = JSON.parse(JSON.stringify(object)) as Json;
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
      const all = paths(copy);
      if (all.length === 0) break;
      const at = pick(all);
      const parent = at.slice(0, -1).reduce<Json>((v, k) => (v as Record<string, Json>)[k] as Json, copy) as Record<string, Json>;
      const key = at[at.length - 1] as string;
      if (random() < 0.25) delete parent[key];
      else parent[key] = odd();
    }
    return copy;
  };
  return { pick, odd, mutate };
}

describe('odd requests', () => {
  let dd: Drydock;
  let send: (method: string, path: string, body?: string, contentType?: string) => Promise<Answer>;
  before(async () => {
    dd = await startDrydock();
    const token = readKubeconfigToken(dd.kubeconfig);
    const ca = Buffer.from(await dd.ok(['config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority-data}']), 'base64');
    send = (method, path, body, contentType = 'application/json') =>
      new Promise((resolve, reject) => {
        // A body's length is sent: node frames a DELETE's body neither chunked nor by length otherwise.
        const length: Record<string, number> = body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) };
        // The path goes out as written: a URL would resolve its dot segments before sending.
        const api = new URL(dd.url);
        const req = request({ host: api.hostname, port: api.port, path, method, ca, headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType, Accept: 'application/json', ...length } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: Record<string, unknown> | undefined;
            try {
              parsed = JSON.parse(text) as Record<string, unknown>;
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, text });
          });
        });
        req.on('error', reject);
        req.end(body);
      });
  });
  after(async () => {
    await dd?.stop();
  });

  test('1,500 mutated writes are each answered with a Status or an object, none with an internal error, and every list still decodes', async () => {
    const resources: Resource[] = [];
    const discover = async (base: string, apiVersion: string): Promise<void> => {
      const list = (await send('GET', base)).body as { resources: Resource[] };
      for (const r of list.resources) if (!r.name.includes('/')) resources.push({ ...r, base, apiVersion });
    };
    await discover('/api/v1', 'v1');
    const groups = (await send('GET', '/apis')).body as { groups: { versions: { groupVersion: string }[] }[] };
    for (const g of groups.groups) for (const v of g.versions) await discover(`/apis/${v.groupVersion}`, v.groupVersion);

    const templates: { resource: Resource; object: Record<string, Json> }[] = [];
    for (const r of resources.filter((x) => x.verbs.includes('list'))) {
      const items = ((await send('GET', `${r.base}/${r.name}`)).body?.items ?? []) as Record<string, Json>[];
      for (const item of items.slice(0, 2)) templates.push({ resource: r, object: { ...item, apiVersion: r.apiVersion, kind: r.kind } });
    }
    const files = readdirSync(fixtures).filter((f) => f.endsWith('.yaml')).map((f) => join(fixtures, f));
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
        const object = doc.toJS() as Record<string, Json> | null;
        const resource = resources.find((r) => r.kind === object?.kind && r.apiVersion === object?.apiVersion);
        if (object && resource) templates.push({ resource, object });
      }
    }
    assert.ok(templates.length > 40, `templates: ${templates.length}`);

    const { pick, odd, mutate } = oddValues(seeded(20261206));

    const counts = new Map<number, number>();
    const internal: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const { resource: r, object } = pick(templates);
      const meta = (object.metadata ?? {}) as Record<string, Json>;
      const namespace = r.namespaced ? String(meta.namespace ?? 'default') : '';
      const collection = `${r.base}${namespace ? `/namespaces/${namespace}` : ''}/${r.name}`;
      const item = `${collection}/${String(meta.name ?? meta.generateName ?? 'x')}`;
      const fresh = { ...object, metadata: { ...meta, name: `odd-${i}`, resourceVersion: null, uid: null } };
      const verb = pick(['create', 'dry-run', 'update', 'merge', 'strategic', 'json', 'apply']);
      let answer: Answer;
      if (verb === 'create') answer = await send('POST', collection, JSON.stringify(mutate(fresh)));
      else if (verb === 'dry-run') answer = await send('POST', `${collection}?dryRun=All&fieldValidation=Strict`, JSON.stringify(mutate(fresh)));
      else if (verb === 'update') answer = await send('PUT', item, JSON.stringify(mutate(object)));
      else if (verb === 'merge') answer = await send('PATCH', item, JSON.stringify(mutate({ metadata: { labels: { a: 'b' } }, spec: object.spec ?? {} })), 'application/merge-patch+json');
      else if (verb === 'strategic') answer = await send('PATCH', item, JSON.stringify(mutate({ metadata: { labels: { a: 'b' } }, spec: object.spec ?? {} })), 'application/strategic-merge-patch+json');
      else if (verb === 'json') answer = await send('PATCH', item, JSON.stringify([{ op: pick(['add', 'replace', 'remove']), path: pick(['/metadata/labels', '/kind', '/apiVersion', '/spec', '/metadata/finalizers']), value: odd() }]), 'application/json-patch+json');
      else answer = await send('PATCH', `${item}?fieldManager=odd&force=true`, JSON.stringify(mutate({ apiVersion: r.apiVersion, kind: r.kind, metadata: { name: meta.name ?? 'x', ...(namespace ? { namespace } : {}) }, spec: object.spec ?? {} })), 'application/apply-patch+yaml');
      counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      if (answer.status >= 400) assert.equal(answer.body?.kind, 'Status', `${verb} ${item}: ${answer.status} is a metav1.Status`);
      if (answer.body?.reason === 'InternalError') internal.push(`${verb} ${collection}: ${String(answer.body.message)}`);
    }
    assert.deepEqual(internal, [], 'no internal errors');
    assert.ok((counts.get(201) ?? 0) + (counts.get(200) ?? 0) > 100, `some writes succeed: ${JSON.stringify([...counts])}`);
    assert.ok([...counts.keys()].some((code) => code >= 400 && code < 500), 'and many are refused');

    // Whatever was stored, every list decodes for kubectl, and the cluster answers.
    for (const r of ['pods', 'configmaps', 'namespaces', 'deployments', 'services', 'nodes', 'events', 'resourceclaims', 'customresourcedefinitions']) {
      const result = await dd.kubectl(['get', r, '-A', '-o', 'json']);
      assert.equal(result.code, 0, `kubectl get ${r}: ${result.stderr}`);
    }
    assert.equal((await send('GET', '/readyz')).status, 200);
  });

  test('400 mutated subresource bodies (scale, eviction, binding, token, resize, status, delete options) get no internal error, and no replica count past an int32', async () => {
    const { pick, mutate } = oddValues(seeded(20261207));
    await dd.ok(['create', 'deployment', 'odd-scale', '--image=registry.k8s.io/pause:3.10', '--replicas=1']);
    const pods = '/api/v1/namespaces/default/pods';
    const pod = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m' } } }] } });
    const internal: string[] = [];
    for (let i = 0; i < 400; i++) {
      const name = `odd-sub-${i % 20}`;
      await send('POST', pods, pod(name));
      const what = pick(['scale', 'scale-patch', 'eviction', 'binding', 'token', 'resize', 'status', 'delete']);
      let answer: Answer;
      const scale = '/apis/apps/v1/namespaces/default/deployments/odd-scale/scale';
      if (what === 'scale') answer = await send('PUT', scale, JSON.stringify(mutate({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'odd-scale', namespace: 'default' }, spec: { replicas: 1 } })));
      else if (what === 'scale-patch') answer = await send('PATCH', scale, JSON.stringify(mutate({ spec: { replicas: 2 } })), 'application/merge-patch+json');
      else if (what === 'eviction') answer = await send('POST', `${pods}/${name}/eviction`, JSON.stringify(mutate({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, deleteOptions: { gracePeriodSeconds: 0 } })));
      else if (what === 'binding') answer = await send('POST', `${pods}/${name}/binding`, JSON.stringify(mutate({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: 'cpu-0' } })));
      else if (what === 'token') answer = await send('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', JSON.stringify(mutate({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name } } })));
      else if (what === 'resize') answer = await send('PATCH', `${pods}/${name}/resize`, JSON.stringify(mutate({ spec: { containers: [{ name: 'c', resources: { requests: { cpu: '200m' } } }] } })), 'application/strategic-merge-patch+json');
      else if (what === 'status') answer = await send('PATCH', `${pods}/${name}/status`, JSON.stringify(mutate({ status: { conditions: [{ type: 'example.com/ready', status: 'True' }] } })), 'application/merge-patch+json');
      else answer = await send('DELETE', `${pods}/${name}`, JSON.stringify(mutate({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 })));
      if (answer.status >= 400) assert.equal(answer.body?.kind, 'Status', `${what} ${name}: ${answer.status} is a metav1.Status: ${answer.text.slice(0, 300)}`);
      // Upstream answers some strategic merge patch errors as a 500 without a reason; a delete's options never.
      if (answer.body?.reason === 'InternalError' || (what === 'delete' && answer.status >= 500)) internal.push(`${what}: ${answer.status} ${String(answer.body?.message)}`);
    }
    assert.deepEqual(internal, [], 'no internal errors');
    // Since 1.35 a DeleteOptions body that does not decode is a 400 with the decoder's words (kubernetes#133358).
    const typed = await send('DELETE', `${pods}/odd-sub-0`, JSON.stringify({ gracePeriodSeconds: 'soon' }));
    assert.deepEqual([typed.status, typed.body?.reason, typed.body?.message], [400, 'BadRequest', 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64']);
    const replicas = Number(await dd.ok(['get', 'deployment', 'odd-scale', '-o', 'jsonpath={.spec.replicas}']));
    assert.ok(Number.isInteger(replicas) && replicas >= 0 && replicas <= 2147483647, `replicas ${replicas}`);
    assert.equal((await send('GET', '/readyz')).status, 200);
  });

  test('a path whose escapes do not decode is a plain 400 as Go\'s server answers it, on every route, and the server goes on', async () => {
    for (const path of ['/api/v1/namespaces/%ZZ/pods', '/api/v1/nodes/%E0%A4%A/proxy/healthz', '/apis/apps/v1/namespaces/default/deployments/x%', '/api/v1/namespaces/default/pods/web/log%zz']) {
      const answer = await send('GET', path);
      assert.deepEqual([answer.status, answer.text], [400, '400 Bad Request'], path);
    }
    assert.equal((await send('GET', '/readyz')).status, 200);
  });

  test('a name that cannot be a key is refused in upstream\'s words, and an encoded .. names no other object', async () => {
    const refused = async (method: string, path: string, message: string): Promise<void> => {
      const answer = await send(method, path);
      assert.deepEqual([answer.status, answer.body?.reason, answer.body?.message], [400, 'BadRequest', message], `${method} ${path}`);
    };
    // The URL parser would make pods/%2e%2e the namespace itself, and a DELETE of it delete the namespace.
    await refused('DELETE', '/api/v1/namespaces/default/pods/%2e%2e', 'Name parameter invalid: "..": may not be \'..\'');
    await refused('GET', '/api/v1/namespaces/default/configmaps/.', 'Name parameter invalid: ".": may not be \'.\'');
    await refused('GET', '/api/v1/namespaces/default/configmaps/a%2Fb', 'Name parameter invalid: "a/b": may not contain \'/\'');
    await refused('PUT', '/api/v1/namespaces/default/configmaps/100%25', 'Name parameter invalid: "100%": may not contain \'%\'');
    assert.equal((await send('GET', '/api/v1/namespaces/default')).status, 200);
  });

  test('a body nested past the limit is refused in every format and patch before anything walks it; at the limit every path serves it', async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'blobs.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'blobs', singular: 'blob', kind: 'Blob' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    assert.equal((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd))).status, 201);
    const blobs = '/apis/example.com/v1/namespaces/default/blobs';
    for (let i = 0; (await send('GET', blobs)).status !== 200; i++) {
      assert.ok(i < 100, 'the Blob resource is served');
      await new Promise((r) => setTimeout(r, 50));
    }
    // `levels` objects and arrays under spec: the whole body nests one deeper.
    const nested = (levels: number): string => '{"a":'.repeat(levels - 1) + '[1]' + '}'.repeat(levels - 1);
    const blob = (name: string, levels: number): string => `{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"${name}"},"spec":${nested(levels)}}`;
    const expect = async (answer: Promise<Answer>, status: number, message?: string): Promise<void> => {
      const a = await answer;
      assert.equal(a.status, status, a.text.slice(0, 300));
      if (message !== undefined) assert.equal(a.body?.message, message);
    };

    // 256 levels in all: created as JSON and as YAML, read as YAML and as a table, applied, patched, replaced.
    await expect(send('POST', blobs, blob('deep', 255)), 201);
    await expect(send('POST', blobs, blob('deep-yaml', 255), 'application/yaml'), 201);
    const yaml = await new Promise<string>((resolve, reject) => {
      const api = new URL(dd.url);
      const token = readKubeconfigToken(dd.kubeconfig);
      request({ host: api.hostname, port: api.port, path: `${blobs}/deep`, ca: undefined, rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}`, Accept: 'application/yaml' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString('utf8')}`));
      }).on('error', reject).end();
    });
    assert.ok(yaml.startsWith('200 apiVersion: example.com/v1\n'), yaml.slice(0, 200));
    await expect(send('PATCH', `${blobs}/deep?fieldManager=applier`, blob('deep', 255), 'application/apply-patch+yaml'), 200);
    await expect(send('PATCH', `${blobs}/deep`, `{"spec":{"b":${nested(254)}}}`, 'application/merge-patch+json'), 200);
    await expect(send('PATCH', `${blobs}/deep`, `[{"op":"add","path":"/spec/c","value":${nested(254)}}]`, 'application/json-patch+json'), 200);
    await expect(send('PUT', `${blobs}/deep-yaml`, blob('deep-yaml', 250)), 200);

    // One level more.
    // Upstream's decoder fails reading the body's kind: transformDecodeError's words for a body of no kind.
    const opening = blob('deeper', 256).slice(0, 30);
    await expect(send('POST', blobs, blob('deeper', 256)), 400, `the object provided is unrecognized (must be of type Blob): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (${opening} ...)`);
    await expect(send('POST', blobs, blob('deeper', 256), 'application/yaml'), 400, `the object provided is unrecognized (must be of type Blob): error converting YAML to JSON: yaml: line 1: exceeded max depth of 256 (${opening} ...)`);
    await expect(send('PATCH', `${blobs}/deep?fieldManager=applier`, blob('deep', 256), 'application/apply-patch+yaml'), 400);
    await expect(send('PATCH', `${blobs}/deep`, `{"spec":{"b":${nested(256)}}}`, 'application/merge-patch+json'), 400);
    await expect(send('PUT', `${blobs}/deep`, blob('deep', 256)), 400);
    // A JSON patch whose body is shallow enough can still place a deep value under a deep path.
    const under = (levels: number): string => '/a'.repeat(levels);
    await expect(send('PATCH', `${blobs}/deep`, `[{"op":"add","path":"/spec${under(253)}/x","value":{"y":1}}]`, 'application/json-patch+json'), 200);
    const patched = await send('PATCH', `${blobs}/deep`, `[{"op":"add","path":"/spec${under(253)}/x","value":{"y":{"z":1}}}]`, 'application/json-patch+json');
    assert.equal(patched.status, 422, patched.text.slice(0, 300));
    assert.match(String(patched.body?.message), /^ "" is invalid: patch: Invalid value: "\{.*": couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth$/s);
    // Copies may add 3 MiB in all (jsonpatch.AccumulatedCopySizeLimit): a subtree copied onto itself stops doubling.
    const copies = Array.from({ length: 40 }, (_, i) => `{"op":"copy","from":"/spec","path":"/spec/copy${i}"}`);
    await expect(send('PATCH', `${blobs}/deep-yaml`, `[${copies.join(',')}]`, 'application/json-patch+json'), 422);

    // Far deeper: the YAML that killed the process, and JSON the parser takes but nothing may walk.
    await expect(send('POST', blobs, '['.repeat(100_000), 'application/yaml'), 400);
    await expect(send('POST', blobs, `{"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`), 400);
    await expect(send('PATCH', `${blobs}/deep?fieldManager=applier`, `{"spec":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`, 'application/apply-patch+yaml'), 400);
    assert.equal((await send('GET', '/readyz')).status, 200);
    const list = await send('GET', blobs);
    assert.deepEqual((list.body?.items as { metadata: { name: string } }[]).map((b) => b.metadata.name).sort(), ['deep', 'deep-yaml']);
  });

  test('a body that is not JSON is refused in the words of Go\'s encoding/json and of the handler that decodes it', async () => {
    const refused = async (method: string, path: string, body: string, contentType: string, message: string): Promise<void> => {
      const answer = await send(method, path, body, contentType);
      assert.deepEqual([answer.status, answer.body?.reason, answer.body?.message], [400, 'BadRequest', message], `${method} ${path} ${body}`);
    };
    const cms = '/api/v1/namespaces/default/configmaps';
    // A create reads the body's kind first (the serializer's Interpret), and fails there.
    await refused('POST', cms, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},', 'application/json', 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)');
    await refused('POST', cms, 'xx', 'application/json', "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (7878)");
    const trailingComma = '{"data":{"a":1,}}';
    await refused('PUT', `${cms}/kube-root-ca.crt`, trailingComma, 'application/json', `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string (${trailingComma})`);
    // Patches: the strict decode fieldValidation Warn (the default) runs first, or json-patch's own.
    const cm = `${cms}/kube-root-ca.crt`;
    await refused('PATCH', cm, '{"data":}', 'application/merge-patch+json', "error decoding patch: invalid character '}' looking for beginning of value");
    await refused('PATCH', `${cm}?fieldValidation=Ignore`, '{"data":}', 'application/merge-patch+json', 'Invalid JSON Patch');
    await refused('PATCH', cm, '[{', 'application/json-patch+json', 'error decoding patch: unexpected end of JSON input');
    await refused('PATCH', `${cm}?fieldValidation=Ignore`, '[{', 'application/json-patch+json', 'unexpected end of JSON input');
    await refused('PATCH', cm, '{"data":}', 'application/strategic-merge-patch+json', "invalid character '}' looking for beginning of value");
  });

  test('a schema pattern and a CEL rule that would backtrack exponentially on a long value answer at once, as RE2 does', async () => {
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { name: { type: 'string', pattern: '^([a-z0-9]+-?)+$' }, rule: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^(a+)+$')" }] } } } } };
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'names.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'names', singular: 'name', kind: 'Name' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] } };
    assert.equal((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd))).status, 201);
    const names = '/apis/example.com/v1/namespaces/default/names';
    for (let i = 0; (await send('GET', names)).status !== 200; i++) {
      assert.ok(i < 100, 'the Name resource is served');
      await new Promise((r) => setTimeout(r, 50));
    }
    const named = (spec: Record<string, string>): string => JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Name', metadata: { name: 'n' }, spec });
    const long = 'a'.repeat(5000);
    let answer = await send('POST', names, named({ name: `${long}!` }));
    assert.equal(answer.status, 422, answer.text.slice(0, 300));
    assert.match(String(answer.body?.message), /spec\.name in body should match '\^\(\[a-z0-9\]\+-\?\)\+\$'/);
    answer = await send('POST', names, named({ rule: `${long}!` }));
    assert.equal(answer.status, 422, answer.text.slice(0, 300));
    // Both answered: backtracking alone takes 2^5000 steps on either (src/core/user-regexp.test.ts
    // checks that the linear engine gets them).
    assert.equal((await send('POST', names, named({ name: 'gpu-a100-80gb', rule: 'aaa' }))).status, 201);
  });
});
