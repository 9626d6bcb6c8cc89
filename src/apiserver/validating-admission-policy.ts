// The ValidatingAdmissionPolicy admission plugin: every binding whose policy and match resources
// select the request has the policy's CEL validations run against it, with the binding's params;
// a failure denies (Deny), warns (Warn) or is only counted (Audit), an expression error follows the
// policy's failurePolicy. Policies and bindings are kept from a store watch, so a write with no
// policy in the cluster costs one map lookup. A DELETE is judged with no object and the deleted one
// as oldObject; a CONNECT with the connecter's options (a PodExecOptions) as object.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating (dispatcher.go,
// validator.go), policy/matching/matching.go, webhook/predicates/{namespace,object,rules}.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../api/index.ts';
import { CelAuthorizer, refs, toCelValue } from '../api/index.ts';
import { ApiError, forbidden } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { AdmissionPlugin } from './admission.ts';
import { admissionName } from './admission.ts';
import { admissionRequestOf, deleteRequestOf, evaluateMatchConditions, matches, namespaceLookup, requestOf, runExpression, selectorMatches, watchedPerStore } from './admission-request.ts';
import type { Request } from './admission-request.ts';
import type { ResourceStorage } from './resource-storage.ts';
import { storedObject, storagePrefix } from './stored-object.ts';
import { policyDecide, usesAuthorizer, watchedRbac } from './policy-authorizer.ts';

const policyPrefix = storagePrefix(refs.validatingAdmissionPolicies.group, refs.validatingAdmissionPolicies.resource, '');
const watched = watchedPerStore({ policies: policyPrefix, bindings: storagePrefix(refs.validatingAdmissionPolicyBindings.group, refs.validatingAdmissionPolicyBindings.resource, '') });
type PolicySource = ReturnType<typeof watched>;

const bindingsOf = (source: PolicySource): Iterable<ValidatingAdmissionPolicyBinding> => source.maps.bindings.values() as Iterable<ValidatingAdmissionPolicyBinding>;
const policyOf = (source: PolicySource, name: string | undefined): ValidatingAdmissionPolicy | undefined =>
  name ? (source.maps.policies.get(`${policyPrefix}${name}`) as ValidatingAdmissionPolicy | undefined) : undefined;

/** A decision that is not an admit: the first denial fails the request, warnings ride on the response. */
interface Denial {
  policy: string;
  binding: string;
  message: string;
  reason: string;
}

/** The params a binding hands its policy, or a configuration error; [undefined] when the policy takes none. */
async function paramsFor(storage: ResourceStorage, policy: ValidatingAdmissionPolicy, binding: ValidatingAdmissionPolicyBinding, r: Request): Promise<(KubeObject | undefined)[] | string> {
  const kind = policy.spec?.paramKind;
  if (!kind) return [undefined];
  const ref = binding.spec?.paramRef;
  if (!ref) return `failed to configure binding: paramKind kind \`${kind.kind ?? ''}\` is defined but paramRef is not provided`;
  const [group, version] = (kind.apiVersion ?? '').includes('/') ? (kind.apiVersion ?? '').split('/') : ['', kind.apiVersion ?? ''];
  const def = storage.findKind(group ?? '', version ?? '', kind.kind ?? '');
  if (!def) return `failed to configure binding: failed to find resource referenced by paramKind: '${group ? `${group}/` : ''}${version}, Kind=${kind.kind ?? ''}'`;
  const namespace = def.namespaced ? ref.namespace || r.namespace : '';
  let params: KubeObject[];
  if (ref.name) {
    const found = await storage.lookup(def.group, def.version, def.resource, namespace, ref.name);
    params = found ? [found] : [];
  } else {
    const list = await storage.store.list(storage.prefix(def, namespace));
    params = list.items.map((kv) => storedObject(kv)).filter((p) => selectorMatches(ref.selector, p.metadata.labels));
  }
  if (params.length === 0 && ref.parameterNotFoundAction === 'Deny') return 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction';
  return params;
}

/** What every policy's activation shares for one request: its objects, request and namespace as CEL values. */
interface RequestValues {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  namespaceObject: unknown;
  /** Checks of what the requesting user (or a service account) may do, answered by the API server's authorizer. */
  authorizer: CelAuthorizer;
}

/** The CEL activation: the request's values, the param, and the policy's variables evaluated on first use. */
function activationFor(policy: ValidatingAdmissionPolicy, values: RequestValues, param: KubeObject | undefined): Record<string, unknown> {
  const activation: Record<string, unknown> = { ...values, params: param ? toCelValue(param) : null };
  const variables: Record<string, unknown> = {};
  for (const v of policy.spec?.variables ?? []) {
    let cached: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(variables, v.name, {
      enumerable: true,
      get: () => {
        cached ??= runExpression(v.expression, 'any', activation);
        if ('error' in cached) throw new Error(cached.error);
        return cached.value;
      },
    });
  }
  activation.variables = variables;
  return activation;
}

/** One policy against one param: match conditions, then validations. Denials and warnings are collected. */
function validate(policy: ValidatingAdmissionPolicy, binding: ValidatingAdmissionPolicyBinding, activation: Record<string, unknown>, denials: Denial[], warnings: string[]): void {
  const failClosed = failsClosed(policy);
  const ids = { policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '' };
  const match = evaluateMatchConditions(policy.spec?.matchConditions ?? [], activation);
  if (match.error !== undefined && failClosed) denials.push({ ...ids, message: match.error, reason: '' });
  if (!match.matches) return;
  const actions = binding.spec?.validationActions ?? [];
  for (const v of policy.spec?.validations ?? []) {
    const result = runExpression(v.expression, 'bool', activation);
    let message: string;
    let reason = v.reason ?? 'Invalid';
    if ('error' in result) {
      if (!failClosed) continue;
      message = result.error;
      reason = '';
    } else if (result.value === true) continue;
    else message = failureMessage(v.expression, v.message, v.messageExpression, activation);
    if (actions.includes('Deny')) denials.push({ ...ids, message, reason });
    if (actions.includes('Warn')) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${ids.policy}' with binding '${ids.binding}': ${message}`);
  }
}

/** The messageExpression's single line of at most 5,000 bytes, else the message, else the expression. */
function failureMessage(expression: string, message: string | undefined, messageExpression: string | undefined, activation: Record<string, unknown>): string {
  if (messageExpression?.trim()) {
    const result = runExpression(messageExpression, 'string', activation);
    const text = 'value' in result && typeof result.value === 'string' ? result.value.trim() : '';
    if (text && Buffer.byteLength(text) <= 5000 && !text.includes('\n')) return text;
  }
  return message?.trim() || `failed expression: ${expression.trim()}`;
}

const failsClosed = (policy: ValidatingAdmissionPolicy): boolean => (policy.spec?.failurePolicy ?? 'Fail') === 'Fail';

async function requestValues(r: Request, namespace: () => Promise<KubeObject | undefined>): Promise<RequestValues> {
  const ns = await namespace();
  const user = r.ctx.user ?? { username: '', groups: [] };
  const authorizer = new CelAuthorizer(user, policyDecide(r.storage.store), { group: r.def.group, resource: r.def.resource, subresource: r.subresource, namespace: r.namespace, name: r.name });
  return { object: r.object ? toCelValue(r.object) : null, oldObject: r.old ? toCelValue(r.old) : null, request: toCelValue(admissionRequestOf(r)), namespaceObject: ns ? toCelValue(ns) : null, authorizer };
}

/** Whether any CEL expression of a policy reads `authorizer`, once per stored policy object. */
const authorizerUse = new WeakMap<ValidatingAdmissionPolicy, boolean>();
function policyUsesAuthorizer(policy: ValidatingAdmissionPolicy): boolean {
  let uses = authorizerUse.get(policy);
  if (uses === undefined) {
    const spec = policy.spec;
    uses = usesAuthorizer([
      ...(spec?.validations ?? []).flatMap((v) => [v.expression, v.messageExpression]),
      ...(spec?.matchConditions ?? []).map((c) => c.expression),
      ...(spec?.variables ?? []).map((v) => v.expression),
      ...(spec?.auditAnnotations ?? []).map((a) => a.valueExpression),
    ]);
    authorizerUse.set(policy, uses);
  }
  return uses;
}

/** dispatcher.Dispatch: every binding in turn; the first denial, with its reason's code, fails the request. */
async function dispatch(source: PolicySource, r: Request): Promise<void> {
  await source.ready;
  if (source.maps.bindings.size === 0) return;
  const getNamespace = namespaceLookup(r);
  const denials: Denial[] = [];
  const warnings: string[] = [];
  let values: RequestValues | undefined;
  for (const binding of bindingsOf(source)) {
    const policy = policyOf(source, binding.spec?.policyName);
    const constraints = policy?.spec?.matchConstraints;
    if (!policy || !constraints || !(await matches(constraints, r, getNamespace, true))) continue;
    if (binding.spec?.matchResources && !(await matches(binding.spec.matchResources, r, getNamespace, false))) continue;
    const params = await paramsFor(r.storage, policy, binding, r);
    if (typeof params === 'string') {
      if (failsClosed(policy)) denials.push({ policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '', message: params, reason: '' });
      continue;
    }
    values ??= await requestValues(r, getNamespace);
    if (policyUsesAuthorizer(policy)) await watchedRbac(r.storage.store).ready;
    for (const param of params) validate(policy, binding, activationFor(policy, values, param), denials, warnings);
  }
  r.ctx.warnings?.push(...warnings);
  const denial = denials[0];
  if (denial) throw denialError(r, denial);
}

function denialError(r: Request, d: Denial): ApiError {
  const message = `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  // admission.NewForbidden's name: the request's, else the object's (its generateName before one is made).
  const refused = forbidden({ group: r.def.group, resource: r.def.resource }, r.name || (r.object ? admissionName(r.object) : ''), message);
  // reasonToCode: the code of the reason (validation allows only Forbidden, Invalid, RequestEntityTooLarge, Unauthorized).
  return new ApiError((d.reason || 'Invalid') as ApiError['reason'], refused.message, { ...refused.details, causes: [{ message }] });
}

export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: 'ValidatingAdmissionPolicy',
  validate(a) {
    const source = watched(a.storage.store);
    if (source.synced && source.maps.bindings.size === 0) return;
    return dispatch(source, requestOf(a));
  },
  validateDelete(a) {
    const source = watched(a.storage.store);
    if (source.synced && source.maps.bindings.size === 0) return;
    return dispatch(source, deleteRequestOf(a));
  },
};
