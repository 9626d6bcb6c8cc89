// The `authorizer` variable of admission policies (Kubernetes' CEL authz library): checks of a path or of
// a resource (group, resource, subresource, namespace, name) for a verb, as the requesting user or as a
// service account, each answered by the API server's authorizer with a Decision. The checks are answered
// synchronously: the caller's `decide` reads an authorization state it has at hand.
// Upstream: staging/src/k8s.io/apiserver/pkg/cel/library/authz.go, admission/plugin/cel/filter.go
// (the requestResource check).
import type { Environment } from '@marcbachmann/cel-js';
import type { UserInfo } from '../../authentication/v1/self-subject-review.ts';
import type { AccessAttributes, Decision } from '../../rbac/v1/authorization.ts';

export type Decide = (user: UserInfo, attributes: AccessAttributes) => Decision;

/** kubernetes.authorization.Authorizer: whose access is checked, and how. */
export class CelAuthorizer {
  readonly user: UserInfo;
  readonly decide: Decide;
  /** The request's own resource, as a check (authorizer.requestResource). */
  readonly requestResource: CelResourceCheck;
  constructor(user: UserInfo, decide: Decide, request: { group: string; resource: string; subresource: string; namespace: string; name: string }) {
    this.user = user;
    this.decide = decide;
    this.requestResource = new CelResourceCheck(this, request);
  }
}

export class CelPathCheck {
  readonly authorizer: CelAuthorizer;
  readonly path: string;
  constructor(authorizer: CelAuthorizer, path: string) {
    this.authorizer = authorizer;
    this.path = path;
  }
}

export class CelGroupCheck {
  readonly authorizer: CelAuthorizer;
  readonly group: string;
  constructor(authorizer: CelAuthorizer, group: string) {
    this.authorizer = authorizer;
    this.group = group;
  }
}

interface ResourceFields {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export class CelResourceCheck {
  readonly authorizer: CelAuthorizer;
  readonly fields: ResourceFields;
  constructor(authorizer: CelAuthorizer, fields: ResourceFields) {
    this.authorizer = authorizer;
    this.fields = fields;
  }
  with(change: Partial<ResourceFields>): CelResourceCheck {
    return new CelResourceCheck(this.authorizer, { ...this.fields, ...change });
  }
}

export class CelDecision {
  readonly decision: Decision;
  readonly error: string;
  constructor(decision: Decision, error: string) {
    this.decision = decision;
    this.error = error;
  }
}

const prefix = 'kubernetes.authorization.';

/** serviceaccount.UserInfo: the service account's user and its two groups. */
function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

function check(a: CelAuthorizer, attributes: AccessAttributes): CelDecision {
  try {
    return new CelDecision(a.decide(a.user, attributes), '');
  } catch (error) {
    return new CelDecision({ allowed: false, reason: '' }, error instanceof Error ? error.message : String(error));
  }
}

/** Registers the authz library's types and functions, and the `authorizer` variable, on `env`. */
export function withAuthorizerLibrary(env: Environment): Environment {
  return env
    .registerType(`${prefix}Authorizer`, { ctor: CelAuthorizer, fields: { requestResource: `${prefix}ResourceCheck` } })
    .registerType(`${prefix}PathCheck`, CelPathCheck)
    .registerType(`${prefix}GroupCheck`, CelGroupCheck)
    .registerType(`${prefix}ResourceCheck`, CelResourceCheck)
    .registerType(`${prefix}Decision`, CelDecision)
    .registerVariable('authorizer', `${prefix}Authorizer`)
    .registerFunction(`${prefix}Authorizer.path(string): ${prefix}PathCheck`, (a: CelAuthorizer, path: string) => new CelPathCheck(a, path))
    .registerFunction(`${prefix}Authorizer.group(string): ${prefix}GroupCheck`, (a: CelAuthorizer, group: string) => new CelGroupCheck(a, group))
    .registerFunction(`${prefix}Authorizer.serviceAccount(string, string): ${prefix}Authorizer`, (a: CelAuthorizer, namespace: string, name: string) => new CelAuthorizer(serviceAccountUser(namespace, name), a.decide, a.requestResource.fields))
    .registerFunction(`${prefix}PathCheck.check(string): ${prefix}Decision`, (p: CelPathCheck, verb: string) => check(p.authorizer, { resourceRequest: false, verb, path: p.path }))
    .registerFunction(`${prefix}GroupCheck.resource(string): ${prefix}ResourceCheck`, (g: CelGroupCheck, resource: string) => new CelResourceCheck(g.authorizer, { group: g.group, resource, subresource: '', namespace: '', name: '' }))
    .registerFunction(`${prefix}ResourceCheck.subresource(string): ${prefix}ResourceCheck`, (r: CelResourceCheck, subresource: string) => r.with({ subresource }))
    .registerFunction(`${prefix}ResourceCheck.namespace(string): ${prefix}ResourceCheck`, (r: CelResourceCheck, namespace: string) => r.with({ namespace }))
    .registerFunction(`${prefix}ResourceCheck.name(string): ${prefix}ResourceCheck`, (r: CelResourceCheck, name: string) => r.with({ name }))
    // AuthorizeWithSelectors (beta, on): the selectors ride on the check's attributes, which RBAC does not read.
    .registerFunction(`${prefix}ResourceCheck.fieldSelector(string): ${prefix}ResourceCheck`, (r: CelResourceCheck) => r)
    .registerFunction(`${prefix}ResourceCheck.labelSelector(string): ${prefix}ResourceCheck`, (r: CelResourceCheck) => r)
    .registerFunction(`${prefix}ResourceCheck.check(string): ${prefix}Decision`, (r: CelResourceCheck, verb: string) => {
      const f = r.fields;
      return check(r.authorizer, { resourceRequest: true, verb, apiGroup: f.group, resource: f.resource, subresource: f.subresource, namespace: f.namespace, name: f.name });
    })
    .registerFunction(`${prefix}Decision.allowed(): bool`, (d: CelDecision) => d.decision.allowed)
    .registerFunction(`${prefix}Decision.reason(): string`, (d: CelDecision) => d.decision.reason)
    .registerFunction(`${prefix}Decision.errored(): bool`, (d: CelDecision) => d.error !== '')
    .registerFunction(`${prefix}Decision.error(): string`, (d: CelDecision) => d.error);
}
