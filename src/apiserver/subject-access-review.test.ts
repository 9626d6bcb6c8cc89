// SubjectAccessReview and LocalSubjectAccessReview: the authorizer's answer for the user the spec
// names, RBAC's reason included; upstream's validation of both kinds. In-process cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { ResourceRef } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';

const sar: ResourceRef = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };
const lsar: ResourceRef = { group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews' };
type Review = { status?: { allowed: boolean; reason?: string } };

test('SubjectAccessReview answers for the named user; the local kind within its namespace', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.roles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pod-reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] });
  await client.create(refs.roleBindings, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-reads', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] });
  const ask = async (ref: ResourceRef, spec: Record<string, unknown>, namespace?: string): Promise<Review['status']> =>
    (await client.create<Review & { metadata: object; apiVersion: string; kind: string }>(ref, { apiVersion: 'authorization.k8s.io/v1', kind: ref === sar ? 'SubjectAccessReview' : 'LocalSubjectAccessReview', metadata: namespace ? { namespace } : {}, spec }, namespace ? { namespace } : {})).status;
  assert.deepEqual(await ask(sar, { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } }), { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/default" of Role "pod-reader" to User "alice"' });
  assert.deepEqual(await ask(sar, { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' } }), { allowed: false });
  assert.deepEqual(await ask(sar, { user: 'root', groups: ['system:masters'], nonResourceAttributes: { path: '/metrics', verb: 'get' } }), { allowed: true });
  assert.deepEqual(await ask(lsar, { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } }, 'default'), { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/default" of Role "pod-reader" to User "alice"' });

  const invalid = async (ref: ResourceRef, spec: Record<string, unknown>, namespace?: string): Promise<string[]> => {
    const error = await ask(ref, spec, namespace).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.reason === 'Invalid', String(error));
    return (error.toStatus().details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  };
  assert.deepEqual(await invalid(sar, { resourceAttributes: { verb: 'get', resource: 'pods' } }), ['spec.user: Invalid value: "": at least one of user or group must be specified']);
  assert.deepEqual(await invalid(lsar, { user: 'alice', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } }, 'default'), ['spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace']);
});
