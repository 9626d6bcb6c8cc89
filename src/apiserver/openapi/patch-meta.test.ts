import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchMetaFor } from './patch-meta.ts';

const pod = patchMetaFor('', 'v1', 'Pod');
const spec = pod?.fields?.['spec']?.fields;
const container = spec?.['containers']?.items?.fields;

const cases: [string, unknown, unknown][] = [
  ['containers', [spec?.['containers']?.mergeKey, spec?.['containers']?.strategy], ['name', 'merge']],
  ['volumes', [spec?.['volumes']?.mergeKey, spec?.['volumes']?.strategy], ['name', 'merge,retainKeys']],
  ['env', [container?.['env']?.mergeKey, container?.['env']?.strategy], ['name', 'merge']],
  ['ports', [container?.['ports']?.mergeKey, container?.['ports']?.listMapKeys], ['containerPort', ['containerPort', 'protocol']]],
  ['tolerations', [spec?.['tolerations']?.strategy, spec?.['tolerations']?.listType], [undefined, 'atomic']],
  ['status.conditions', [pod?.fields?.['status']?.fields?.['conditions']?.mergeKey], ['type']],
  ['finalizers', [pod?.fields?.['metadata']?.fields?.['finalizers']?.strategy, pod?.fields?.['metadata']?.fields?.['finalizers']?.listType], ['merge', 'set']],
  ['ownerReferences', [pod?.fields?.['metadata']?.fields?.['ownerReferences']?.mergeKey], ['uid']],
  ['nodeSelector', [spec?.['nodeSelector']?.mapType], ['atomic']],
];
for (const [name, actual, expected] of cases) {
  test(`pod patch meta: ${name}`, () => assert.deepEqual(actual, expected));
}

test('deployment strategy retains keys and the pod template reuses the PodSpec node', () => {
  const deploy = patchMetaFor('apps', 'v1', 'Deployment')?.fields?.['spec']?.fields;
  assert.equal(deploy?.['strategy']?.strategy, 'retainKeys');
  assert.equal(deploy?.['template']?.fields?.['spec'], spec && pod?.fields?.['spec']);
});

test("a field named as one of Object.prototype's members has no patch meta", () => {
  assert.equal(spec?.['constructor'], undefined);
  assert.equal(container?.['valueOf'], undefined);
});

test('unknown kinds have no patch meta, and lookups are cached', () => {
  assert.equal(patchMetaFor('example.com', 'v1', 'Widget'), undefined);
  assert.equal(patchMetaFor('', 'v1', 'Pod'), pod);
});
