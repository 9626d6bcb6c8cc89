// RBAC's escalation prevention, which upstream's role and binding storage applies: a user outside
// system:masters may write a Role or ClusterRole only with the rules it holds itself (or the
// `escalate` verb on it), and a RoleBinding or ClusterRoleBinding only to a role whose rules it holds
// (or the `bind` verb on that role); an aggregationRule needs cluster-admin's rights.
// Upstream: pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go,
// pkg/registry/rbac/escalation_check.go, pkg/registry/rbac/validation/rule.go (ConfirmNoEscalation).
import type { ClusterRole, PolicyRule, RoleBinding, UserInfo } from '../api/index.ts';
import { escalationMessage, privilegedGroup, uncoveredRules } from '../api/index.ts';
import { ApiError, forbidden, jsonEqual } from '../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { onlyFor } from './admission.ts';
import { authorize, roleRules, rulesFor } from './authorization.ts';
import type { ResourceStorage } from './resource-storage.ts';

const rbacGroup = 'rbac.authorization.k8s.io';
const fullAuthority: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

async function allowedTo(storage: ResourceStorage, user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> {
  return (await authorize(storage, user, { resourceRequest: true, verb, apiGroup: rbacGroup, resource, subresource: '', namespace, name })).allowed;
}

/** ConfirmNoEscalation: undefined when the user holds every rule in `namespace`, else the refusal. */
async function escalation(storage: ResourceStorage, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): Promise<string | undefined> {
  const held = await rulesFor(storage, user, namespace);
  const missing = uncoveredRules(held.rules, rules);
  return missing.length === 0 ? undefined : escalationMessage(user, missing, held.errors);
}

/** GetRoleReferenceRules for a binding's roleRef; a missing role has no rules (nothing to escalate). */
async function referencedRules(storage: ResourceStorage, binding: RoleBinding, namespace: string): Promise<PolicyRule[]> {
  const rules = await roleRules(storage, binding, namespace);
  return typeof rules === 'string' ? [] : rules;
}

export const rbacEscalation: AdmissionPlugin = {
  name: 'RBACEscalation',
  validate: onlyFor((attrs) => attrs.def.group === rbacGroup && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && !attrs.ctx.subresource, async (attrs: AdmissionAttributes) => {
    const { def, operation, object, old, ctx, storage } = attrs;
    const user = ctx.user;
    // EscalationAllowed: the cluster's own writers and system:masters.
    if (!user || (user.groups ?? []).includes(privilegedGroup)) return;
    const namespace = def.namespaced ? (object.metadata.namespace ?? '') : '';
    const name = object.metadata.name || object.metadata.generateName || '';
    const refuse = (why: string): ApiError => forbidden({ group: def.group, resource: def.resource }, name, why);
    if (def.resource === 'roles' || def.resource === 'clusterroles') {
      if (await allowedTo(storage, user, 'escalate', def.resource, namespace, name)) return;
      const role = object as unknown as ClusterRole;
      if (def.resource === 'clusterroles' && role.aggregationRule) {
        if (await escalation(storage, user, '', fullAuthority)) throw refuse('must have cluster-admin privileges to use the aggregationRule');
        return;
      }
      // An update that leaves the rules as they were escalates nothing.
      if (operation === 'UPDATE' && old && jsonEqual((old as unknown as ClusterRole).rules ?? [], role.rules ?? [])) return;
      const why = await escalation(storage, user, namespace, role.rules ?? []);
      if (why) throw refuse(why);
      return;
    }
    if (def.resource === 'rolebindings' || def.resource === 'clusterrolebindings') {
      const binding = object as unknown as RoleBinding;
      if (operation === 'UPDATE' && old && jsonEqual((old as unknown as RoleBinding).roleRef, binding.roleRef)) return;
      const roleResource = binding.roleRef.kind === 'Role' ? 'roles' : 'clusterroles';
      // BindingAuthorized asks in the binding's namespace (none for a ClusterRoleBinding), whatever the role's kind.
      if (await allowedTo(storage, user, 'bind', roleResource, namespace, binding.roleRef.name)) return;
      const why = await escalation(storage, user, namespace, await referencedRules(storage, binding, namespace));
      if (why) throw refuse(why);
    }
  }),
};
