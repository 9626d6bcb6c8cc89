// RBAC's rule and subject matching and its refusal messages, against upstream's evaluation helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessAttributes } from './authorization.ts';
import { describeBinding, escalationMessage, forbiddenReason, ruleAllows, subjectIsUser, uncoveredRules } from './authorization.ts';

const request = (verb: string, resource: string, extra: Partial<Extract<AccessAttributes, { resourceRequest: true }>> = {}): AccessAttributes => ({ resourceRequest: true, verb, apiGroup: '', resource, subresource: '', namespace: 'ml', name: '', ...extra });
const trainer = { username: 'system:serviceaccount:ml:trainer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ml', 'system:authenticated'] };

test('rules match verbs, groups, resources, subresources, names and URLs as upstream', () => {
  const podReader = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };
  assert.equal(ruleAllows(request('list', 'pods'), podReader), true);
  assert.equal(ruleAllows(request('delete', 'pods'), podReader), false);
  assert.equal(ruleAllows(request('list', 'pods', { apiGroup: 'apps' }), podReader), false);
  assert.equal(ruleAllows(request('get', 'pods', { subresource: 'log' }), podReader), false, 'pods does not cover pods/log');
  assert.equal(ruleAllows(request('get', 'pods', { subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), true);
  assert.equal(ruleAllows(request('update', 'deployments', { apiGroup: 'apps', subresource: 'scale' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] }), true);
  assert.equal(ruleAllows(request('update', 'deployments', { apiGroup: 'apps' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] }), false);
  const named = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] };
  assert.equal(ruleAllows(request('get', 'configmaps', { name: 'settings' }), named), true);
  assert.equal(ruleAllows(request('get', 'configmaps', { name: 'other' }), named), false);
  assert.equal(ruleAllows(request('list', 'configmaps'), named), false, 'a list names no object');
  const discovery = { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/healthz'] };
  assert.equal(ruleAllows({ resourceRequest: false, verb: 'get', path: '/api/v1' }, discovery), true);
  assert.equal(ruleAllows({ resourceRequest: false, verb: 'get', path: '/apis' }, discovery), false);
  assert.equal(ruleAllows({ resourceRequest: false, verb: 'post', path: '/healthz' }, discovery), false);
  assert.equal(ruleAllows(request('get', 'pods'), discovery), false, 'URL rules grant no resources');
});

test('subjects: users by name, groups by membership, service accounts by namespace (the binding\'s by default)', () => {
  assert.equal(subjectIsUser({ kind: 'ServiceAccount', name: 'trainer' }, trainer, 'ml'), true);
  assert.equal(subjectIsUser({ kind: 'ServiceAccount', name: 'trainer' }, trainer, ''), false, 'a cluster binding must name the namespace');
  assert.equal(subjectIsUser({ kind: 'ServiceAccount', name: 'trainer', namespace: 'ml' }, trainer, ''), true);
  assert.equal(subjectIsUser({ kind: 'Group', name: 'system:serviceaccounts:ml' }, trainer, ''), true);
  assert.equal(subjectIsUser({ kind: 'User', name: 'system:serviceaccount:ml:trainer' }, trainer, ''), true);
  assert.equal(subjectIsUser({ kind: 'User', name: 'alice' }, trainer, ''), false);
});

test('descriptions and refusals in upstream words', () => {
  const binding = { metadata: { name: 'read-pods', namespace: 'ml' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'trainer' }] };
  assert.equal(describeBinding(binding, { kind: 'ServiceAccount', name: 'trainer' }), 'RoleBinding "read-pods/ml" of Role "pod-reader" to ServiceAccount "trainer/ml"');
  assert.equal(describeBinding({ ...binding, metadata: { name: 'admins' }, roleRef: { ...binding.roleRef, kind: 'ClusterRole', name: 'cluster-admin' } }, { kind: 'Group', name: 'ops' }), 'ClusterRoleBinding "admins" of ClusterRole "cluster-admin" to Group "ops"');
  assert.equal(forbiddenReason(trainer, request('create', 'pods', { subresource: 'eviction', name: 'web' }), ''), 'User "system:serviceaccount:ml:trainer" cannot create resource "pods/eviction" in API group "" in the namespace "ml"');
  assert.equal(forbiddenReason(trainer, request('list', 'nodes', { namespace: '' }), 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found'), 'User "system:serviceaccount:ml:trainer" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found');
  assert.equal(forbiddenReason(trainer, { resourceRequest: false, verb: 'get', path: '/metrics' }, ''), 'User "system:serviceaccount:ml:trainer" cannot get path "/metrics"');
});

test('escalation: the rules a user does not hold, compacted and worded as ConfirmNoEscalation words them', () => {
  const held = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] }, { verbs: ['*'], apiGroups: ['batch'], resources: ['*'] }, { verbs: ['get'], nonResourceURLs: ['/api/*'] }];
  assert.deepEqual(uncoveredRules(held, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['create', 'delete'], apiGroups: ['batch'], resources: ['jobs'] }, { verbs: ['get'], nonResourceURLs: ['/api/v1'] }]), []);
  const missing = uncoveredRules(held, [{ verbs: ['get', 'delete', 'watch'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] }, { verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
  assert.deepEqual(missing, [
    { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['watch'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['token'] },
    { nonResourceURLs: ['/metrics'], verbs: ['get'] },
  ]);
  assert.equal(escalationMessage(trainer, missing, []), [
    'user "system:serviceaccount:ml:trainer" (groups=["system:serviceaccounts" "system:serviceaccounts:ml" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
    '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "watch"]}',
    '{APIGroups:[""], Resources:["secrets"], ResourceNames:["token"], Verbs:["get"]}',
    '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  ].join('\n'));
  assert.deepEqual(uncoveredRules([{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]), [], 'a */subresource rule covers it');
});
