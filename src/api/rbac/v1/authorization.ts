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

/** BreakdownRule: one rule per group, resource, verb (and name), and per URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean => (wanted ?? []).every((w) => (set ?? []).includes(w));

function resourcesCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if ((owner ?? []).includes('*') || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if ((owner ?? []).includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && (owner ?? []).includes(`*/${path.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, path: string): boolean => owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));

/** ruleCovers: whether `owner` grants everything the broken-down `sub` does. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const urls = (sub.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, path)));
  const names = sub.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames) : !owner.resourceNames?.length;
  return verbs && groups && resourcesCovered(owner.resources, sub.resources) && names && urls;
}

/** Covers: the pieces of `wanted` that no rule of `owner` grants. */
export function uncoveredRules(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** CompactRules: single-group, single-resource rules that differ only by verb become one. */
function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = (rule.resourceNames?.length ?? 0) <= 1 && !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? []]);
    const existing = simple.get(key);
    if (existing) for (const verb of rule.verbs) { if (!existing.verbs.includes(verb)) existing.verbs.push(verb); }
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...out, ...simple.values()];
}

const goQuoted = (list: readonly string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`. */
function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoted(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoted(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoted(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoted(rule.resourceNames)}`);
  if (rule.verbs.length) parts.push(`Verbs:${goQuoted(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** ConfirmNoEscalation's refusal: what the user would grant without holding it, sorted. */
export function escalationMessage(user: UserInfo, missing: readonly PolicyRule[], resolutionErrors: readonly string[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  const message = `user ${JSON.stringify(user.username)} (groups=${goQuoted(user.groups ?? [])}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // %v of one aggregate error: `[e]`, or `[[e1, e2]]` when it aggregates several.
  if (resolutionErrors.length === 0) return message;
  const aggregate = resolutionErrors.length === 1 ? resolutionErrors[0] : `[${resolutionErrors.join(', ')}]`;
  return `${message}; resolution errors: [${aggregate}]`;
}
