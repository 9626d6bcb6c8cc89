// rbac.authorization.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition } from './definitions.ts';

export type * from './types.ts';
export { rbacGroup } from './types.ts';
export { subjectsStrings } from './definitions.ts';
export { describeBinding, escalationMessage, forbiddenReason, privilegedGroup, ruleAllows, subjectIsUser, uncoveredRules } from './authorization.ts';
export type { AccessAttributes, Decision } from './authorization.ts';

export const rbacV1Definitions: ResourceDefinition[] = [
  clusterRoleBindingDefinition as unknown as ResourceDefinition,
  clusterRoleDefinition as unknown as ResourceDefinition,
  roleBindingDefinition as unknown as ResourceDefinition,
  roleDefinition as unknown as ResourceDefinition,
];
