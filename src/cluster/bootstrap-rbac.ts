// The shapes of upstream's bootstrap RBAC objects: every role and binding is labelled
// kubernetes.io/bootstrapping=rbac-defaults and annotated for auto-update.
// Upstream: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (addClusterRoleLabel, ...).
import { refs } from '../api/index.ts';
import type { ResourceRef } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';

export type Rule = { apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[]; verbs: string[] };
type Subject = { kind: 'Group' | 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

const rbacDefaults = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoUpdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
export const aggregateTo = (role: string): Record<string, string> => ({ [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true' });

export const read = ['get', 'list', 'watch'];
export const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
export const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const readUpdate = ['get', 'list', 'patch', 'update', 'watch'];
export const eventWrite = ['create', 'patch', 'update'];

export function clusterRole(name: string, rules: Rule[] | undefined, labels: Record<string, string> = {}, aggregateFrom?: string): [ResourceRef, KubeObject] {
  return [refs.clusterRoles, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { ...rbacDefaults, ...labels }, annotations: autoUpdate },
    ...(aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(aggregateFrom) }] } } : {}),
    ...(rules ? { rules } : {}),
  }];
}

const subjectsField = (subjects: Subject[]): { subjects?: unknown[] } =>
  subjects.length > 0 ? { subjects: subjects.map((s) => (s.kind === 'ServiceAccount' ? s : { apiGroup: 'rbac.authorization.k8s.io', ...s })) } : {};

/** A binding of the ClusterRole of the same name; a ServiceAccount subject has no apiGroup. */
export function clusterRoleBinding(name: string, subjects: Subject[]): [ResourceRef, KubeObject] {
  return [refs.clusterRoleBindings, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: rbacDefaults, annotations: autoUpdate },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    ...subjectsField(subjects),
  }];
}

export function role(namespace: string, name: string, rules: Rule[]): [ResourceRef, KubeObject] {
  return [refs.roles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace, labels: rbacDefaults, annotations: autoUpdate }, rules }];
}

export function roleBinding(namespace: string, name: string, roleName: string, subjects: Subject[]): [ResourceRef, KubeObject] {
  return [refs.roleBindings, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace, labels: rbacDefaults, annotations: autoUpdate },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
    ...subjectsField(subjects),
  }];
}

export const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', name }));
export const user = (name: string): Subject[] => [{ kind: 'User', name }];
export const serviceAccount = (namespace: string, name: string): Subject[] => [{ kind: 'ServiceAccount', name, namespace }];
