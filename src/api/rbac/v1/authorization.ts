// RBAC's policy as pure functions: what a request asks (its attributes), whether a rule allows it,
// whether a binding's subject is the requesting user, how an allowing binding is described, and the
// message a refused request gets.
// Upstream: pkg/apis/rbac/v1/evaluation_helpers.go, plugin/pkg/auth/authorizer/rbac/rbac.go,
// pkg/registry/rbac/validation/rule.go (appliesToUser), apiserver/pkg/endpoints/handlers/responsewriters/errors.go.
import type { UserInfo } from '../../authentication/v1/self-subject-review.ts';
import type { PolicyRule, RoleBinding, Subject } from './types.ts';

/** What a request asks to do: a verb on a resource (or subresource, or named object), or on a path. */
export type AccessAttributes =
  | { resourceRequest: true; verb: string; apiGroup: string; resource: string; subresource: string; namespace: string; name: string }
  | { resourceRequest: false; verb: string; path: string };

export interface Decision {
  allowed: boolean;
  /** Why (the allowing binding), or what went wrong resolving roles; empty when nothing to say. */
  reason: string;
}

/** The group upstream's first authorizer allows outright (the kubeconfig's admin is in it). */
export const privilegedGroup = 'system:masters';

const has = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

/** RuleAllows. */
export function ruleAllows(attributes: AccessAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, attributes.verb)) return false;
  if (!attributes.resourceRequest) return nonResourceURLMatches(rule, attributes.path);
  const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const names = rule.resourceNames ?? [];
  return has(rule.apiGroups, attributes.apiGroup) && resourceMatches(rule, combined, attributes.subresource) && (names.length === 0 || names.includes(attributes.name));
}

/** appliesToUser: a ServiceAccount subject without a namespace means the binding's own. */
export function subjectIsUser(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.username;
    case 'Group':
      return (user.groups ?? []).includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === `system:serviceaccount:${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} ${JSON.stringify(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}

/** `ClusterRoleBinding "x" of ClusterRole "y" to Group "z"` / `RoleBinding "x/ns" of Role "y" to ...`, for an allowing reason. */
export function describeBinding(binding: RoleBinding, subject: Subject): string {
  const namespace = binding.metadata.namespace ?? '';
  const role = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
  if (namespace === '') return `ClusterRoleBinding ${JSON.stringify(binding.metadata.name ?? '')} of ${role} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${JSON.stringify(`${binding.metadata.name ?? ''}/${namespace}`)} of ${role} to ${describeSubject(subject, namespace)}`;
}

/** The authorization filter's words for a refused request (without the `<resource> is forbidden: ` prefix). */
export function forbiddenReason(user: UserInfo, attributes: AccessAttributes, reason: string): string {
  let message: string;
  if (!attributes.resourceRequest) {
    message = `User ${JSON.stringify(user.username)} cannot ${attributes.verb} path ${JSON.stringify(attributes.path)}`;
  } else {
    const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
    const scope = attributes.namespace ? `in the namespace ${JSON.stringify(attributes.namespace)}` : 'at the cluster scope';
    message = `User ${JSON.stringify(user.username)} cannot ${attributes.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attributes.apiGroup)} ${scope}`;
  }
  return reason ? `${message}: ${reason}` : message;
}
