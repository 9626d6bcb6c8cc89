// What admission policies' `authorizer` checks ask: the API server's authorizer chain (system:masters,
// then RBAC), answered from the RBAC objects a store watch keeps, so that a check made in the middle of a
// CEL expression needs no read. The watch starts with the first policy that uses `authorizer`.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go (the
// authorizer handed to the evaluation), plugin/pkg/auth/authorizer/rbac/rbac.go.
import type { AccessAttributes, Decide, Decision, RoleBinding, UserInfo } from '../api/index.ts';
import { describeBinding, privilegedGroup, ruleAllows, subjectIsUser } from '../api/index.ts';
import type { Store } from '../storage/index.ts';
import { watchedPerStore } from './admission-request.ts';
import type { WatchedObjects } from './admission-request.ts';
import { rbacDecision, roleReference, rulesOfRole } from './authorization.ts';
import { storagePrefix } from './stored-object.ts';

const rbacPrefix = (resource: string): string => storagePrefix('rbac.authorization.k8s.io', resource, '');
const prefixes = { clusterrolebindings: rbacPrefix('clusterrolebindings'), rolebindings: rbacPrefix('rolebindings'), clusterroles: rbacPrefix('clusterroles'), roles: rbacPrefix('roles') };
type RbacObjects = WatchedObjects<keyof typeof prefixes>;

/** The RBAC objects of a store, kept current by a watch. */
export const watchedRbac = watchedPerStore(prefixes);

/** Whether any of a policy's expressions reads `authorizer` (only those wait for the RBAC watch). */
export function usesAuthorizer(expressions: readonly (string | undefined)[]): boolean {
  return expressions.some((e) => e !== undefined && /\bauthorizer\b/.test(e));
}

/** The authorizer chain over the watched objects, cluster role bindings first, then the namespace's. */
function decideFrom(rbac: RbacObjects, user: UserInfo, attributes: AccessAttributes): Decision {
  if ((user.groups ?? []).includes(privilegedGroup)) return { allowed: true, reason: '' };
  const namespace = attributes.resourceRequest ? attributes.namespace : '';
  const errors: string[] = [];
  const scopes: [string, RoleBinding[]][] = [['', [...rbac.maps.clusterrolebindings.values()] as unknown as RoleBinding[]]];
  if (namespace) scopes.push([namespace, [...rbac.maps.rolebindings.values()].filter((b) => b.metadata.namespace === namespace) as unknown as RoleBinding[]]);
  for (const [scope, bindings] of scopes) {
    for (const binding of bindings) {
      const subject = (binding.subjects ?? []).find((s) => subjectIsUser(s, user, scope));
      if (!subject) continue;
      const role = roleReference(binding, scope, (resource, ns, name) => rbac.maps[resource].get(`${rbacPrefix(resource)}${ns ? `${ns}/` : ''}${name}`));
      const rules = typeof role === 'string' ? role : rulesOfRole(binding, role);
      if (typeof rules === 'string') {
        errors.push(rules);
        continue;
      }
      if (rules.some((rule) => ruleAllows(attributes, rule))) return rbacDecision(describeBinding(binding, subject), errors);
    }
  }
  return rbacDecision(undefined, errors);
}

/** A check's answer for policies evaluated against `store`; call once `watchedRbac(store).ready` has settled. */
export function policyDecide(store: Store): Decide {
  // An in-process writer (the cluster's own components) acts with the cluster's authority.
  return (user, attributes) => (user.username === '' && (user.groups ?? []).length === 0 ? { allowed: true, reason: '' } : decideFrom(watchedRbac(store), user, attributes));
}
