// rbac.authorization.k8s.io/v1 wire types: Role, ClusterRole, RoleBinding, ClusterRoleBinding.
// Upstream: staging/src/k8s.io/api/rbac/v1/types.go.
import type { KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';

export const rbacGroup = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface Role extends KubeObject {
  metadata: ObjectMeta;
  /** No omitempty in Go: a role without rules reads back `rules: null`. */
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule;
}

export interface RoleBinding extends KubeObject {
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;
