import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition } from './definitions.ts';
import type { ClusterRole, RoleBinding } from './types.ts';

const ctx = { now: Date.parse('2026-01-01T00:00:00Z') };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

test('policy rules need verbs, and api groups and resources unless they name non-resource URLs (cluster roles only)', () => {
  const role = { metadata: { name: 'r', namespace: 'default' }, rules: [{ verbs: [] }, { verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] } as unknown as ClusterRole;
  assert.deepEqual(msgs(roleDefinition.validateCreate?.(role, ctx)), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
    'rules[1].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    'rules[1].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
  ]);
  const cluster: ClusterRole = { metadata: { name: 'system:health' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], aggregationRule: {} };
  assert.deepEqual(msgs(clusterRoleDefinition.validateCreate?.(cluster, ctx)), ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
});

test('a role without rules reads back rules: null (no omitempty in Go); names only need to be URL path segments', () => {
  const role = { metadata: { name: 'system:node-reader' } } as ClusterRole;
  clusterRoleDefinition.defaults?.(role);
  assert.equal(role.rules, null);
  assert.deepEqual(msgs(clusterRoleDefinition.validateCreate?.(role, ctx)), []);
  assert.deepEqual(msgs(clusterRoleDefinition.validateCreate?.({ metadata: { name: 'a/b' } } as ClusterRole, ctx)), ['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
});

test('bindings default the roleRef and User/Group subjects to the RBAC group; subjects and roleRef kinds are checked', () => {
  const binding = { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder' }, { kind: 'Robot', name: 'r2' }] } as RoleBinding;
  clusterRoleBindingDefinition.defaults?.(binding);
  assert.deepEqual([binding.roleRef.apiGroup, binding.subjects?.[0]?.apiGroup, binding.subjects?.[1]?.apiGroup], ['rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', undefined]);
  assert.deepEqual(msgs(clusterRoleBindingDefinition.validateCreate?.(binding, ctx)), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'subjects[1].namespace: Required value',
    'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
  const namespaced: RoleBinding = { ...binding, metadata: { name: 'b', namespace: 'default' }, subjects: binding.subjects?.slice(0, 2) ?? [] };
  assert.deepEqual(msgs(roleBindingDefinition.validateCreate?.(namespaced, ctx)), []);
});

test("a binding's roleRef cannot change", () => {
  const old: RoleBinding = { metadata: { name: 'b', namespace: 'default', resourceVersion: '1' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' } };
  const next: RoleBinding = { ...old, roleRef: { ...old.roleRef, name: 'view' } };
  assert.deepEqual(msgs(roleBindingDefinition.validateUpdate?.(next, old, ctx)), [
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
  ]);
});
