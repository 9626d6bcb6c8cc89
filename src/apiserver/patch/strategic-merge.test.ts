import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchMeta } from '../../api/index.ts';
import { applyStrategicMergePatch } from './strategic-merge.ts';

// Struct tags of the fields these cases touch (core/v1 and apps/v1 types.go).
const objectMeta: PatchMeta = {
  fields: { finalizers: { strategy: 'merge' }, ownerReferences: { strategy: 'merge', mergeKey: 'uid' } },
};
const container: PatchMeta = {
  fields: {
    env: { strategy: 'merge', mergeKey: 'name' },
    ports: { strategy: 'merge', mergeKey: 'containerPort' },
    volumeMounts: { strategy: 'merge', mergeKey: 'mountPath' },
  },
};
const podSpec: PatchMeta = {
  fields: {
    containers: { strategy: 'merge', mergeKey: 'name', items: container },
    initContainers: { strategy: 'merge', mergeKey: 'name', items: container },
    volumes: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  },
};
const deploymentMeta: PatchMeta = {
  fields: {
    metadata: objectMeta,
    spec: { fields: { strategy: { strategy: 'retainKeys' }, template: { fields: { metadata: objectMeta, spec: podSpec } } } },
  },
};
const podMeta: PatchMeta = { fields: { metadata: objectMeta, spec: podSpec } };

function deployment(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { template: { spec } } };
}
function podSpecOf(value: unknown): Record<string, unknown> {
  return ((value as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec);
}
function patchOk(original: unknown, patch: unknown, meta: PatchMeta = deploymentMeta): unknown {
  const r = applyStrategicMergePatch(original, patch, meta);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
}

test('kubectl set image: $setElementOrder with a changed container', () => {
  const original = deployment({ containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }] }] });
  const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ image: 'nginx:2', name: 'c' }] } } } };
  assert.deepEqual(podSpecOf(patchOk(original, patch)).containers, [{ name: 'c', image: 'nginx:2', ports: [{ containerPort: 80 }] }]);
});

const listCases: { name: string; containers: string[]; patch: Record<string, unknown>; want: string[] }[] = [
  {
    name: 'client-side apply removing a container keeps the others in order',
    containers: ['a', 'x', 'b'],
    patch: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ $patch: 'delete', name: 'x' }] },
    want: ['a', 'b'],
  },
  {
    name: 'client-side apply adding a sidecar puts it where $setElementOrder says',
    containers: ['app'],
    patch: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'log' }], containers: [{ name: 'log', image: 'fluent-bit' }] },
    want: ['app', 'log'],
  },
  {
    name: '$setElementOrder can move a new item first',
    containers: ['app'],
    patch: { '$setElementOrder/containers': [{ name: 'log' }, { name: 'app' }], containers: [{ name: 'log', image: 'fluent-bit' }] },
    want: ['log', 'app'],
  },
  {
    name: '$setElementOrder alone reorders live items',
    containers: ['a', 'b', 'c'],
    patch: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }] },
    want: ['c', 'a', 'b'],
  },
  {
    name: 'without $setElementOrder a new item goes before the live ones (upstream order)',
    containers: ['app'],
    patch: { containers: [{ name: 'log', image: 'fluent-bit' }] },
    want: ['log', 'app'],
  },
  {
    name: 'without $setElementOrder a changed item keeps its place',
    containers: ['a', 'b', 'c'],
    patch: { containers: [{ name: 'b', image: 'x' }] },
    want: ['a', 'b', 'c'],
  },
  {
    name: '$patch: replace as a list element replaces the whole list',
    containers: ['a', 'b'],
    patch: { containers: [{ name: 'z', image: 'z' }, { $patch: 'replace' }] },
    want: ['z'],
  },
  {
    name: '$patch: delete of an absent item changes nothing',
    containers: ['a'],
    patch: { containers: [{ $patch: 'delete', name: 'nope' }] },
    want: ['a'],
  },
];

for (const c of listCases) {
  test(`containers: ${c.name}`, () => {
    const original = deployment({ containers: c.containers.map((name) => ({ name, image: `${name}:1` })) });
    const got = podSpecOf(patchOk(original, { spec: { template: { spec: c.patch } } })).containers as { name: string }[];
    assert.deepEqual(got.map((x) => x.name), c.want);
  });
}

test('env merges by name: changed value, kept var, appended var in $setElementOrder order', () => {
  const original = deployment({
    containers: [{ name: 'c', image: 'i', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }],
  });
  const patch = {
    spec: {
      template: {
        spec: {
          '$setElementOrder/containers': [{ name: 'c' }],
          containers: [{ '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }, { name: 'C' }], env: [{ name: 'A', value: '9' }, { name: 'C', value: '3' }], name: 'c' }],
        },
      },
    },
  };
  const c = (podSpecOf(patchOk(original, patch)).containers as { env: unknown }[])[0];
  assert.deepEqual(c?.env, [{ name: 'A', value: '9' }, { name: 'B', value: '2' }, { name: 'C', value: '3' }]);
});

test('env var removed with a $patch: delete element (kubectl set env B-)', () => {
  const original = deployment({ containers: [{ name: 'c', image: 'i', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] });
  const patch = {
    spec: { template: { spec: { containers: [{ '$setElementOrder/env': [{ name: 'A' }], env: [{ $patch: 'delete', name: 'B' }], name: 'c' }] } } },
  };
  const c = (podSpecOf(patchOk(original, patch)).containers as { env: unknown }[])[0];
  assert.deepEqual(c?.env, [{ name: 'A', value: '1' }]);
});

test('ports merge by a numeric merge key', () => {
  const original = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } };
  const patch = {
    spec: {
      containers: [{ name: 'c', '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 443 }], ports: [{ containerPort: 443, name: 'https' }] }],
    },
  };
  const got = patchOk(original, patch, podMeta) as { spec: { containers: { ports: unknown }[] } };
  assert.deepEqual(got.spec.containers[0]?.ports, [{ containerPort: 80 }, { containerPort: 443, name: 'https' }]);
});

test('volumes with $retainKeys drop the old volume source', () => {
  const original = deployment({ containers: [], volumes: [{ name: 'data', emptyDir: {} }, { name: 'tmp', emptyDir: {} }] });
  const patch = {
    spec: {
      template: {
        spec: {
          '$setElementOrder/volumes': [{ name: 'data' }, { name: 'tmp' }],
          volumes: [{ $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' }, name: 'data' }],
        },
      },
    },
  };
  assert.deepEqual(podSpecOf(patchOk(original, patch)).volumes, [{ name: 'data', configMap: { name: 'cm' } }, { name: 'tmp', emptyDir: {} }]);
});

test('deployment strategy switch to Recreate with $retainKeys', () => {
  const original = { metadata: { name: 'web' }, spec: { replicas: 2, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } };
  const patch = { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' } } };
  assert.deepEqual(patchOk(original, patch), { metadata: { name: 'web' }, spec: { replicas: 2, strategy: { type: 'Recreate' } } });
});

const finalizerCases: { name: string; live: string[]; patch: Record<string, unknown>; want: string[] | undefined }[] = [
  {
    name: 'kubectl apply replacing one finalizer',
    live: ['a', 'b'],
    patch: { '$deleteFromPrimitiveList/finalizers': ['b'], '$setElementOrder/finalizers': ['a', 'c'], finalizers: ['c'] },
    want: ['a', 'c'],
  },
  { name: 'union without order puts the new value first', live: ['a'], patch: { finalizers: ['x'] }, want: ['x', 'a'] },
  { name: 'union keeps duplicates out', live: ['a', 'b'], patch: { finalizers: ['b'] }, want: ['a', 'b'] },
  { name: '$deleteFromPrimitiveList alone', live: ['a', 'b', 'c'], patch: { '$deleteFromPrimitiveList/finalizers': ['b'] }, want: ['a', 'c'] },
  { name: 'null deletes the list', live: ['a'], patch: { finalizers: null }, want: undefined },
];

for (const c of finalizerCases) {
  test(`finalizers: ${c.name}`, () => {
    const got = patchOk({ metadata: { name: 'p', finalizers: c.live } }, { metadata: c.patch }, podMeta) as { metadata: { finalizers?: string[] } };
    assert.deepEqual(got.metadata.finalizers, c.want);
  });
}

test('$deleteFromPrimitiveList for a list the object lacks creates nothing', () => {
  const got = patchOk({ metadata: { name: 'p' } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } }, podMeta);
  assert.deepEqual(got, { metadata: { name: 'p' } });
});

test('maps merge and null deletes a key (kubectl label app-)', () => {
  const got = patchOk({ metadata: { name: 'p', labels: { app: 'web', tier: 'fe' } } }, { metadata: { labels: { app: null, env: 'prod' } } }, podMeta);
  assert.deepEqual(got, { metadata: { name: 'p', labels: { tier: 'fe', env: 'prod' } } });
});

test('lists without a strategy are replaced (tolerations)', () => {
  const got = patchOk({ spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } }, { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } }, podMeta);
  assert.deepEqual(got, { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } });
});

test('$patch: replace on a map replaces it; $patch: delete empties it', () => {
  const original = { metadata: { name: 'p', labels: { a: '1', b: '2' } }, spec: { affinity: { nodeAffinity: {} } } };
  const got = patchOk(original, { metadata: { labels: { $patch: 'replace', c: '3' } }, spec: { affinity: { $patch: 'delete' } } }, podMeta);
  assert.deepEqual(got, { metadata: { name: 'p', labels: { c: '3' } }, spec: { affinity: {} } });
});

test('a new field taken whole loses its nulls and directives', () => {
  const patch = { spec: { affinity: { nodeAffinity: null, podAntiAffinity: { '$setElementOrder/x': [], required: [{ topologyKey: 'zone' }] } } } };
  assert.deepEqual(patchOk({ spec: {} }, patch, podMeta), { spec: { affinity: { podAntiAffinity: { required: [{ topologyKey: 'zone' }] } } } });
});

test('inputs are not mutated (store reads are frozen)', () => {
  const original = Object.freeze({ metadata: Object.freeze({ name: 'p', labels: Object.freeze({ a: '1' }) }) });
  const patch = Object.freeze({ metadata: Object.freeze({ labels: Object.freeze({ a: null }) }) });
  assert.deepEqual(patchOk(original, patch, podMeta), { metadata: { name: 'p', labels: {} } });
  assert.deepEqual(original.metadata.labels, { a: '1' });
});

const errorCases: { name: string; original?: unknown; patch: unknown; kind: string; message: string }[] = [
  {
    name: 'a merge-list item without its merge key',
    patch: { spec: { containers: [{ image: 'nginx' }] } },
    kind: 'internal',
    message: 'map: map[image:nginx] does not contain declared merge key: name',
  },
  {
    name: '$patch: merge in a list',
    patch: { spec: { containers: [{ $patch: 'merge', name: 'c' }] } },
    kind: 'internal',
    message: 'merging lists cannot yet be specified in the patch',
  },
  {
    name: 'an unknown map directive',
    patch: { spec: { $patch: 'foo' } },
    kind: 'internal',
    message: 'unknown patch type: foo in map: map[$patch:foo]',
  },
  {
    name: 'a null map directive (fmt prints a nil %s as %!s(<nil>))',
    patch: { spec: { $patch: null, x: 1 } },
    kind: 'internal',
    message: 'unknown patch type: %!s(<nil>) in map: map[$patch:<nil> x:1]',
  },
  {
    name: 'patch items missing from $setElementOrder',
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ name: 'z', image: 'z' }] } },
    kind: 'internal',
    message: 'the order in patch list:\n[map[image:z name:z]]\n doesn\'t match $setElementOrder list:\n[map[name:c]]',
  },
  {
    name: 'a patch key outside $retainKeys',
    patch: { spec: { volumes: [{ name: 'data', $retainKeys: ['name'], configMap: { name: 'cm' } }] } },
    kind: 'malformed',
    message: 'invalid patch format of retainKeys',
  },
  {
    name: 'a $deleteFromPrimitiveList key without a field',
    patch: { metadata: { $deleteFromPrimitiveList: ['x'] } },
    kind: 'malformed',
    message: 'invalid patch format of primitive list',
  },
  {
    name: 'a list of lists',
    original: { metadata: { finalizers: [] } },
    patch: { metadata: { finalizers: [['a']] } },
    kind: 'unprocessable',
    message: 'lists of lists are not supported',
  },
  {
    name: 'a patch that is not an object',
    patch: [{ op: 'add' }],
    kind: 'malformed',
    message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
];

for (const c of errorCases) {
  test(`error: ${c.name}`, () => {
    const original = c.original ?? {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'data', emptyDir: {} }] },
    };
    assert.deepEqual(applyStrategicMergePatch(original, c.patch, podMeta), { ok: false, kind: c.kind, message: c.message });
  });
}
