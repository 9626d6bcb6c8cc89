// The RBAC kinds as the API server serves them: stored, defaulted, validated and printed as
// upstream's. Drydock's one user holds system:masters, so nothing here restricts a request.
// Upstream: pkg/registry/rbac/*/strategy.go, pkg/printers/internalversion/printers.go
// (printRoleBinding, printClusterRoleBinding; roles use the default Name / Created At table).
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultBinding, validateBindingUpdate, validateClusterRole, validateClusterRoleBinding, validateRBACName, validateRole, validateRoleBinding } from './validation.ts';
import { validateObjectMetaUpdate } from '../../validation/index.ts';
import { rbacGroup } from './types.ts';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from './types.ts';

/** rbac.SubjectsStrings: users, groups and service accounts (`namespace/name`) of a binding. */
export function subjectsStrings(subjects: readonly Subject[]): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  for (const s of subjects) {
    if (s.kind === 'ServiceAccount') out.serviceAccounts.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') out.users.push(s.name);
    else if (s.kind === 'Group') out.groups.push(s.name);
  }
  return out;
}

function bindingTable(kind: 'roleBinding' | 'clusterRoleBinding', roleRefDescription: string): TablePrinter<RoleBinding> {
  return {
    columns: [
      nameColumn,
      column('Role', 'string', roleRefDescription),
      ageColumn,
      column('Users', 'string', `Users in the ${kind}`, 1),
      column('Groups', 'string', `Groups in the ${kind}`, 1),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${kind}`, 1),
    ],
    cells: (b, now) => {
      const { users, groups, serviceAccounts } = subjectsStrings(b.subjects ?? []);
      return [b.metadata.name ?? '', `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`, translateTimestampSince(b.metadata.creationTimestamp, now), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
    },
  };
}

/** `rules` has no omitempty: absent decodes to a nil slice, which encodes as null. */
function defaultRole(role: Role): void {
  role.rules ??= null;
}

const common = { group: rbacGroup, version: 'v1', hasStatus: false, validateName: validateRBACName } as const;

export const roleDefinition: ResourceDefinition<Role> = {
  ...common,
  kind: 'Role',
  resource: 'roles',
  singular: 'role',
  namespaced: true,
  defaults: defaultRole,
  validateCreate: validateRole,
  validateUpdate: (role, old) => [...validateRole(role), ...validateObjectMetaUpdate(role.metadata, old.metadata)],
};

export const clusterRoleDefinition: ResourceDefinition<ClusterRole> = {
  ...common,
  kind: 'ClusterRole',
  resource: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  defaults: defaultRole,
  validateCreate: validateClusterRole,
  validateUpdate: (role, old) => [...validateClusterRole(role), ...validateObjectMetaUpdate(role.metadata, old.metadata)],
};

export const roleBindingDefinition: ResourceDefinition<RoleBinding> = {
  ...common,
  kind: 'RoleBinding',
  resource: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  defaults: defaultBinding,
  validateCreate: validateRoleBinding,
  validateUpdate: (binding, old) => validateBindingUpdate(binding, old, true),
  table: bindingTable('roleBinding', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.'),
};

export const clusterRoleBindingDefinition: ResourceDefinition<ClusterRoleBinding> = {
  ...common,
  kind: 'ClusterRoleBinding',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  defaults: defaultBinding,
  validateCreate: validateClusterRoleBinding,
  validateUpdate: (binding, old) => validateBindingUpdate(binding, old, false),
  table: bindingTable('clusterRoleBinding', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.'),
};
