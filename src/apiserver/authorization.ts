// Authorization: system:masters is allowed outright (upstream's privileged-group authorizer), everyone
// else by RBAC from the stored roles and bindings; plus the request attributes an HTTP request asks for
// and impersonation (`kubectl --as`), which is itself authorized as the `impersonate` verb.
// Upstream: plugin/pkg/auth/authorizer/rbac/rbac.go, apiserver/pkg/endpoints/request/requestinfo.go,
// apiserver/pkg/endpoints/filters/{authorization,impersonation}.go.
import type { IncomingMessage } from 'node:http';
import type { AccessAttributes, ClusterRole, Decision, PolicyRule, ResourceDefinition, RoleBinding, UserInfo } from '../api/index.ts';
import { describeBinding, forbiddenReason, privilegedGroup, ruleAllows, subjectIsUser } from '../api/index.ts';
import { ApiError, badRequest, fieldSelectorRequiresExactMatch, forbidden, parseFieldSelector, queryBool } from '../core/index.ts';
import type { ResourceStorage } from './resource-storage.ts';
import type { RequestTarget } from './request-info.ts';
import { storedObject } from './stored-object.ts';

async function listRbac<T>(storage: ResourceStorage, resource: string, namespace: string): Promise<T[]> {
  const def = storage.findDefinition('rbac.authorization.k8s.io', 'v1', resource) as ResourceDefinition;
  const { items } = await storage.store.list(storage.prefix(def, namespace));
  return items.map((kv) => storedObject(kv) as unknown as T);
}

/** Where a binding's role is found: by resource, namespace ('' for a ClusterRole) and name. */
export type RoleFinder<R> = (resource: 'roles' | 'clusterroles', namespace: string, name: string) => R;

/** GetRoleReferenceRules: the role a binding names, or an error text when its kind is unsupported. */
export function roleReference<R>(binding: RoleBinding, namespace: string, find: RoleFinder<R>): R | string {
  const { kind, name } = binding.roleRef;
  if (kind !== 'Role' && kind !== 'ClusterRole') return `unsupported role reference kind: ${JSON.stringify(kind)}`;
  return find(kind === 'Role' ? 'roles' : 'clusterroles', kind === 'Role' ? namespace : '', name);
}

/** A found role's rules, or the error text of the role the binding names when it is missing. */
export function rulesOfRole(binding: RoleBinding, role: unknown): PolicyRule[] | string {
  return role ? ((role as ClusterRole).rules ?? []) : `${binding.roleRef.kind.toLowerCase()}.rbac.authorization.k8s.io ${JSON.stringify(binding.roleRef.name)} not found`;
}

/** GetRoleReferenceRules from storage. */
export async function roleRules(storage: ResourceStorage, binding: RoleBinding, namespace: string): Promise<PolicyRule[] | string> {
  const role = roleReference(binding, namespace, (resource, ns, name) => storage.lookup('rbac.authorization.k8s.io', 'v1', resource, ns, name));
  return typeof role === 'string' ? role : rulesOfRole(binding, await role);
}

/** The RBAC authorizer's answer: allowed by a binding, else no opinion, with the role errors met. */
export function rbacDecision(allowedBy: string | undefined, errors: readonly string[]): Decision {
  if (allowedBy !== undefined) return { allowed: true, reason: `RBAC: allowed by ${allowedBy}` };
  return { allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}` };
}

/**
 * Each binding that applies to the user, with its role's rules, cluster bindings first and then the
 * namespace's (VisitRulesFor); `visit` returns true to stop. Missing roles are collected as errors.
 */
export async function visitRules(storage: ResourceStorage, user: UserInfo, namespace: string, visit: (rule: PolicyRule, source: string) => boolean): Promise<string[]> {
  const errors: string[] = [];
  const scopes: [string, RoleBinding[]][] = [['', await listRbac<RoleBinding>(storage, 'clusterrolebindings', '')]];
  if (namespace) scopes.push([namespace, await listRbac<RoleBinding>(storage, 'rolebindings', namespace)]);
  for (const [scope, bindings] of scopes) {
    for (const binding of bindings) {
      const subject = (binding.subjects ?? []).find((s) => subjectIsUser(s, user, scope));
      if (!subject) continue;
      const rules = await roleRules(storage, binding, scope);
      if (typeof rules === 'string') {
        errors.push(rules);
        continue;
      }
      const source = describeBinding(binding, subject);
      for (const rule of rules) if (visit(rule, source)) return errors;
    }
  }
  return errors;
}

/** Every rule the user holds in `namespace` (cluster-wide ones included), for SelfSubjectRulesReview. */
export async function rulesFor(storage: ResourceStorage, user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; errors: string[] }> {
  const rules: PolicyRule[] = [];
  const errors = await visitRules(storage, user, namespace, (rule) => {
    rules.push(rule);
    return false;
  });
  return { rules, errors };
}

/** The authorizer chain: the privileged group, then RBAC (which never denies, only has no opinion). */
export async function authorize(storage: ResourceStorage, user: UserInfo, attributes: AccessAttributes): Promise<Decision> {
  if ((user.groups ?? []).includes(privilegedGroup)) return { allowed: true, reason: '' };
  let allowedBy: string | undefined;
  const namespace = attributes.resourceRequest ? attributes.namespace : '';
  const errors = await visitRules(storage, user, namespace, (rule, source) => {
    if (!ruleAllows(attributes, rule)) return false;
    allowedBy = source;
    return true;
  });
  return rbacDecision(allowedBy, errors);
}

/** The 403 a refused request gets, as the authorization filter words it. */
export function forbiddenError(user: UserInfo, attributes: AccessAttributes, reason: string): ApiError {
  const why = forbiddenReason(user, attributes, reason);
  if (!attributes.resourceRequest) return new ApiError('Forbidden', `forbidden: ${why}`, {});
  return forbidden({ group: attributes.apiGroup, resource: attributes.resource }, attributes.name, why);
}

const connectSubresources = new Set(['exec', 'attach', 'portforward']);

/**
 * What a pod connection must also be allowed as (AuthorizePodWebsocketUpgradeCreatePermission, beta
 * and on in 1.35): a WebSocket upgrade is a GET, authorized as `get`, and the pod registry requires
 * `create` too, what SPDY's POST is authorized as. Undefined when no second check applies.
 * Upstream: pkg/registry/core/pod/rest/subresources.go (ensureAuthorizedForVerb).
 */
export function connectCreateAttributes(attributes: AccessAttributes): AccessAttributes | undefined {
  if (!attributes.resourceRequest || attributes.verb === 'create' || attributes.apiGroup !== '' || attributes.resource !== 'pods') return undefined;
  return connectSubresources.has(attributes.subresource ?? '') ? { ...attributes, verb: 'create' } : undefined;
}

/** RequestInfo's attributes for an HTTP request: the verb from the method, `namespaces/x` scoped to x. */
export function requestAttributes(target: RequestTarget, method: string, path: string, query: URLSearchParams): AccessAttributes {
  if (target.kind !== 'resource') return { resourceRequest: false, verb: method.toLowerCase(), path };
  const t = target.target;
  let name = t.name;
  let verb: string;
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (t.legacyWatch) verb = 'watch';
      else if (t.name !== '') verb = 'get';
      else {
        // A list or watch of one object by name (`kubectl get cm x -w`) is for that name: RBAC's
        // resourceNames allow it.
        verb = queryBool(query, 'watch') ? 'watch' : 'list';
        name = nameSelected(query.get('fieldSelector') ?? '');
      }
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = t.name === '' ? 'deletecollection' : 'delete';
      break;
    default:
      verb = method.toLowerCase();
  }
  const namespace = t.group === '' && t.resource === 'namespaces' && t.name !== '' ? t.name : t.namespace;
  return { resourceRequest: true, verb, apiGroup: t.group, resource: t.resource, subresource: t.subresource, namespace, name };
}

/** The name a field selector requires exactly (`metadata.name=x`), when it is a valid path segment. */
function nameSelected(fieldSelector: string): string {
  const parsed = parseFieldSelector(fieldSelector);
  const name = parsed.ok ? fieldSelectorRequiresExactMatch(parsed.selector, 'metadata.name') : undefined;
  return name === undefined || name === '.' || name === '..' || /[/%]/.test(name) ? '' : name;
}

const serviceAccountPrefix = 'system:serviceaccount:';

/** unescapeExtraKey: the %-encoded key of an Impersonate-Extra- header, kept as sent when malformed. */
function extraKeyOf(header: string): string {
  const encoded = header.slice('impersonate-extra-'.length);
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/**
 * buildImpersonationRequests' list as Go's %v prints a []v1.ObjectReference: each reference's seven
 * fields (kind, namespace, name, uid, apiVersion, resourceVersion, fieldPath) space-separated in braces.
 */
function impersonationRequests(headers: NodeJS.Dict<string[]>, groups: readonly string[], extraKeys: readonly string[], uid: string | undefined): string {
  const ref = (kind: string, name: string, apiVersion = '', fieldPath = ''): string => `{${[kind, '', name, '', apiVersion, '', fieldPath].join(' ')}}`;
  const refs = groups.map((g) => ref('Group', g));
  for (const header of extraKeys) {
    const key = extraKeyOf(header);
    for (const value of headers[header] ?? []) refs.push(ref('UserExtra', value, 'authentication.k8s.io/v1', key));
  }
  if (uid !== undefined) refs.push(ref('UID', uid, 'authentication.k8s.io/v1'));
  return `[${refs.join(' ')}]`;
}

/**
 * The user a request acts as: the authenticated one, or the one its Impersonate-* headers name once
 * the authenticated user may impersonate each part (users, groups, serviceaccounts, uids, userextras).
 */
export async function impersonatedUser(storage: ResourceStorage, requester: UserInfo, req: IncomingMessage): Promise<UserInfo> {
  const headers = req.headersDistinct;
  const username = headers['impersonate-user']?.[0] || undefined;
  const groups = headers['impersonate-group'] ?? [];
  const uid = headers['impersonate-uid']?.[0] || undefined;
  const extraKeys = Object.keys(headers).filter((h) => h.startsWith('impersonate-extra-'));
  if (username === undefined) {
    if (groups.length > 0 || uid !== undefined || extraKeys.length > 0) throw badRequest(`requested ${impersonationRequests(headers, groups, extraKeys, uid)} without impersonating a user`);
    return requester;
  }
  const check = async (attributes: AccessAttributes): Promise<void> => {
    const decision = await authorize(storage, requester, attributes);
    if (!decision.allowed) throw forbiddenError(requester, attributes, decision.reason);
  };
  const impersonate = (resource: string, name: string, namespace = '', subresource = ''): AccessAttributes => ({ resourceRequest: true, verb: 'impersonate', apiGroup: resource === 'uids' || resource === 'userextras' ? 'authentication.k8s.io' : '', resource, subresource, namespace, name });
  const user: UserInfo = { username, groups: [...groups] };
  const account = username.startsWith(serviceAccountPrefix) ? username.slice(serviceAccountPrefix.length).split(':') : undefined;
  if (account && account.length === 2 && account[0] && account[1]) {
    await check(impersonate('serviceaccounts', account[1], account[0]));
    if (groups.length === 0) user.groups = ['system:serviceaccounts', `system:serviceaccounts:${account[0]}`];
  } else {
    await check(impersonate('users', username));
  }
  for (const group of groups) await check(impersonate('groups', group));
  if (uid !== undefined) {
    await check(impersonate('uids', uid));
    user.uid = uid;
  }
  for (const header of extraKeys) {
    const key = extraKeyOf(header);
    for (const value of headers[header] ?? []) {
      await check(impersonate('userextras', value, '', key));
      (user.extra ??= {})[key] = [...(user.extra[key] ?? []), value];
    }
  }
  const all = user.groups ?? [];
  if (username === 'system:anonymous') {
    if (!all.includes('system:unauthenticated')) all.push('system:unauthenticated');
  } else if (!all.includes('system:authenticated') && !all.includes('system:unauthenticated')) {
    all.push('system:authenticated');
  }
  user.groups = all;
  return user;
}
