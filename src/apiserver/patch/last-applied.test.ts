import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchMeta } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { applyServerSide } from './apply.ts';
import type { ApplyOptions } from './apply.ts';
import { lastAppliedAnnotation } from './last-applied.ts';
import { updateManagedFields } from './managed-fields.ts';

const meta: PatchMeta = { fields: { metadata: { fields: { labels: { values: {} }, annotations: { values: {} } } }, data: { values: {} } } };
const T0 = '2026-12-06T10:00:00Z';
const T1 = '2026-12-06T11:00:00Z';

function configMap(data: Record<string, string>, annotations?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default', ...(annotations ? { annotations } : {}) }, data } as KubeObject;
}

/** What `kubectl apply` (client-side) leaves: the object with its configuration in the annotation, owned by an Update. */
function clientSideApplied(data: Record<string, string>): KubeObject {
  const annotation = `${JSON.stringify({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { annotations: {}, name: 'settings', namespace: 'default' } })}\n`;
  return updateManagedFields(undefined, configMap(data, { [lastAppliedAnnotation]: annotation }), { manager: 'kubectl-client-side-apply', apiVersion: 'v1', now: T0, meta });
}

const apply = (live: KubeObject, applied: KubeObject, o: Partial<ApplyOptions> = {}) => applyServerSide(live, applied, { manager: 'kubectl', apiVersion: 'v1', now: T1, meta, force: false, ...o });

test('kubectl apply --server-side takes over what client-side apply last set, and rewrites the annotation to what it applied', () => {
  const live = clientSideApplied({ a: '1', b: '2' });
  const r = apply(live, configMap({ a: '1', b: '3' }));
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.deepEqual(r.object.data, { a: '1', b: '3' });
  assert.equal(r.object.metadata.annotations?.[lastAppliedAnnotation], '{"apiVersion":"v1","data":{"a":"1","b":"3"},"kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"}}\n');
  const owners = r.object.metadata.managedFields?.map((m) => [m.manager, m.operation, Object.keys((m.fieldsV1 as { 'f:data'?: object })['f:data'] ?? {})]);
  // b changes hands; a, applied with the value it has, is shared.
  assert.deepEqual(owners, [
    ['kubectl', 'Apply', ['f:a', 'f:b']],
    ['kubectl-client-side-apply', 'Update', ['.', 'f:a']],
  ]);
});

test('another field manager, or a field changed since the last client-side apply, still conflicts', () => {
  const live = clientSideApplied({ a: '1', b: '2' });
  const other = apply(live, configMap({ a: '1', b: '3' }), { manager: 'deployer' });
  assert.equal(other.ok ? 'applied' : other.conflicts.map((c) => c.field).join(), '.data.b');
  // Someone edited b with client-side apply's manager since: the annotation no longer matches, so b stays theirs.
  const edited = updateManagedFields(live, { ...live, data: { a: '1', b: '9' } } as KubeObject, { manager: 'kubectl-client-side-apply', apiVersion: 'v1', now: T0, meta });
  const r = apply(edited, configMap({ a: '2', b: '3' }));
  assert.equal(r.ok ? 'applied' : r.conflicts.map((c) => c.field).join(), '.data.b');
  // An object without the annotation is not upgraded.
  const plain = updateManagedFields(undefined, configMap({ a: '1' }), { manager: 'kubectl-client-side-apply', apiVersion: 'v1', now: T0, meta });
  assert.equal(apply(plain, configMap({ a: '2' })).ok, false);
});
