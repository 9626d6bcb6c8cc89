import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from './json-patch.ts';

const pod = () => ({
  metadata: { name: 'p', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
});

const okCases: { name: string; ops: unknown; want: (p: ReturnType<typeof pod>) => unknown }[] = [
  {
    name: 'client-node replace of a container image',
    ops: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' }],
    want: (p) => ({ ...p, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }),
  },
  {
    name: 'add a label with an escaped key',
    ops: [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' }],
    want: (p) => ({ ...p, metadata: { ...p.metadata, labels: { app: 'web', 'app.kubernetes.io/name': 'web' } } }),
  },
  {
    name: 'append to a list with -',
    ops: [{ op: 'add', path: '/metadata/finalizers/-', value: 'c' }],
    want: (p) => ({ ...p, metadata: { ...p.metadata, finalizers: ['a', 'b', 'c'] } }),
  },
  {
    name: 'remove a list item by negative index',
    ops: [{ op: 'remove', path: '/metadata/finalizers/-1' }],
    want: (p) => ({ ...p, metadata: { ...p.metadata, finalizers: ['a'] } }),
  },
  {
    name: 'replace of a missing object key adds it (json-patch v4)',
    ops: [{ op: 'replace', path: '/metadata/labels/tier', value: 'fe' }],
    want: (p) => ({ ...p, metadata: { ...p.metadata, labels: { app: 'web', tier: 'fe' } } }),
  },
  {
    name: 'test then move and copy',
    ops: [
      { op: 'test', path: '/metadata/labels/app', value: 'web' },
      { op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/name' },
      { op: 'copy', from: '/metadata/labels/name', path: '/metadata/labels/copy' },
    ],
    want: (p) => ({ ...p, metadata: { ...p.metadata, labels: { name: 'web', copy: 'web' } } }),
  },
  {
    name: 'test of a missing key against null passes',
    ops: [{ op: 'test', path: '/metadata/annotations', value: null }],
    want: (p) => p,
  },
  { name: 'a null document is an empty patch', ops: null, want: (p) => p },
];

for (const c of okCases) {
  test(`json patch: ${c.name}`, () => {
    assert.deepEqual(applyJsonPatch(pod(), c.ops), { ok: true, value: c.want(pod()) });
  });
}

const failCases: { name: string; ops: unknown; kind: string; message: string }[] = [
  {
    name: 'a failed test (optimistic concurrency guard)',
    ops: [{ op: 'test', path: '/metadata/labels/app', value: 'api' }],
    kind: 'failed',
    message: 'testing value /metadata/labels/app failed: test failed',
  },
  {
    name: 'add below a missing parent',
    ops: [{ op: 'add', path: '/metadata/annotations/a', value: 'x' }],
    kind: 'failed',
    message: 'add operation does not apply: doc is missing path: "/metadata/annotations/a": missing value',
  },
  {
    name: 'remove of a missing key',
    ops: [{ op: 'remove', path: '/metadata/labels/tier' }],
    kind: 'failed',
    message: "error in remove for path: '/metadata/labels/tier': Unable to remove nonexistent key: tier: missing value",
  },
  {
    name: 'replace past the end of a list',
    ops: [{ op: 'replace', path: '/spec/containers/3/image', value: 'x' }],
    kind: 'failed',
    message: 'replace operation does not apply: doc is missing path: /spec/containers/3/image: missing value',
  },
  {
    name: 'replace of a missing list index',
    ops: [{ op: 'replace', path: '/metadata/finalizers/5', value: 'x' }],
    kind: 'failed',
    message: 'replace operation does not apply: doc is missing key: /metadata/finalizers/5: missing value',
  },
  {
    name: 'add at an index past the end',
    ops: [{ op: 'add', path: '/metadata/finalizers/7', value: 'x' }],
    kind: 'failed',
    message: "error in add for path: '/metadata/finalizers/7': Unable to access invalid index: 7: invalid index referenced",
  },
  {
    name: 'a non-numeric list index',
    ops: [{ op: 'add', path: '/metadata/finalizers/x', value: 'x' }],
    kind: 'failed',
    message: "error in add for path: '/metadata/finalizers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
  },
  { name: 'an unknown op', ops: [{ op: 'upsert', path: '/a' }], kind: 'failed', message: 'Unexpected kind: upsert' },
  {
    name: 'an op without a path',
    ops: [{ op: 'add', value: 1 }],
    kind: 'failed',
    message: 'add operation failed to decode path: missing value',
  },
  {
    name: 'a body that is not a list',
    ops: { op: 'add', path: '/a', value: 1 },
    kind: 'malformed',
    message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
  },
  {
    name: 'an operation that is not an object',
    ops: ['add'],
    kind: 'malformed',
    message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
  },
];

for (const c of failCases) {
  test(`json patch error: ${c.name}`, () => {
    assert.deepEqual(applyJsonPatch(pod(), c.ops), { ok: false, kind: c.kind, message: c.message });
  });
}

test('json patch is atomic and does not mutate the original', () => {
  const original = pod();
  const r = applyJsonPatch(original, [
    { op: 'replace', path: '/metadata/labels/app', value: 'x' },
    { op: 'test', path: '/metadata/labels/app', value: 'y' },
  ]);
  assert.equal(r.ok, false);
  assert.deepEqual(original, pod());
});

test('json patch over the operation limit is too large', () => {
  const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/metadata/name', value: 'p' }));
  assert.deepEqual(applyJsonPatch(pod(), ops), {
    ok: false,
    kind: 'tooLarge',
    message: 'The allowed maximum operations in a JSON patch is 10000, got 10001',
  });
});

test('a test operation whose value nests past the limit is refused before it is compared', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const result = applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: deep }]);
  assert.deepEqual(result.ok ? 'applied' : [result.kind, result.message], ['tooDeep', "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"]);
});
