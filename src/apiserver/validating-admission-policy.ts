// The ValidatingAdmissionPolicy admission plugin: every binding whose policy and match resources
// select the request has the policy's CEL validations run against it, with the binding's params;
// a failure denies (Deny), warns (Warn) or is only counted (Audit), an expression error follows the
// policy's failurePolicy. Policies and bindings are kept from a store watch, so a write with no
// policy in the cluster costs one map lookup. A DELETE is judged with no object and the deleted one
// as oldObject; CONNECT is not admitted here.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating (dispatcher.go,
// validator.go), policy/matching/matching.go, webhook/predicates/{namespace,object,rules}.
import type { MatchResources, NamedRuleWithOperations, PolicyProgram, ResourceDefinition, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../api/index.ts';
import { compilePolicyExpression, evaluatePolicyExpression, refs, toCelValue } from '../api/index.ts';
import { ApiError, forbidden, labelSelectorFromObject } from '../core/index.ts';
import type { KubeObject, LabelSelector } from '../core/index.ts';
import type { Store } from '../storage/index.ts';
import type { AdmissionAttributes, AdmissionPlugin, DeleteAdmissionAttributes } from './admission.ts';
import { admissionName } from './admission.ts';
import type { ResourceStorage, WriteContext } from './resource-storage.ts';
import { storedObject, storagePrefix } from './stored-object.ts';
import { readScale } from './subresources.ts';

/** The policies and bindings of one store, as its watch last saw them. */
class PolicySource {
  /** Set once both lists are in: from then on a write with no binding returns at once. */
  synced = false;
  readonly #policies = new Map<string, ValidatingAdmissionPolicy>();
  readonly #policyPrefix = storagePrefix(refs.validatingAdmissionPolicies.group, refs.validatingAdmissionPolicies.resource, '');
  readonly bindings = new Map<string, ValidatingAdmissionPolicyBinding>();
  readonly ready: Promise<void>;
  constructor(store: Store) {
    this.ready = Promise.all([
      follow(store, this.#policyPrefix, this.#policies),
      follow(store, storagePrefix(refs.validatingAdmissionPolicyBindings.group, refs.validatingAdmissionPolicyBindings.resource, ''), this.bindings),
    ]).then(() => {
      this.synced = true;
    });
  }
  policy(name: string | undefined): ValidatingAdmissionPolicy | undefined {
    return name ? this.#policies.get(`${this.#policyPrefix}${name}`) : undefined;
  }
}

/** Lists `prefix` into `into` and keeps it current; the watch delivers within the write that changes it. */
async function follow<T extends KubeObject>(store: Store, prefix: string, into: Map<string, T>): Promise<void> {
  const list = await store.list(prefix);
  for (const kv of list.items) into.set(kv.key, storedObject(kv) as T);
  store.watch(prefix, list.revision, {
    onEvent: (event) => {
      if (event.type === 'DELETE') into.delete(event.kv.key);
      else into.set(event.kv.key, storedObject(event.kv) as T);
    },
    onError: () => {
      // A watch that ends (its history compacted away) starts over from a fresh list; a closed store ends it.
      into.clear();
      follow(store, prefix, into).catch(() => undefined);
    },
  });
}

const sources = new WeakMap<Store, PolicySource>();

function sourceOf(storage: ResourceStorage): PolicySource {
  let source = sources.get(storage.store);
  if (!source) sources.set(storage.store, (source = new PolicySource(storage.store)));
  return source;
}

/** The request as the predicates and CEL's `request` see it; a DELETE has no object, only the old one. */
interface Request {
  operation: AdmissionAttributes['operation'];
  def: ResourceDefinition;
  subresource: string;
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  old: KubeObject | undefined;
  ctx: WriteContext;
  storage: ResourceStorage;
}

/** The request's attributes; a `scale` write is seen as upstream's admission sees it, with Scale objects. */
function requestOf(a: AdmissionAttributes): Request {
  const namespace = a.def.namespaced ? (a.object.metadata.namespace ?? '') : '';
  const common = { operation: a.operation, def: a.def, namespace, name: a.object.metadata.name ?? '', ctx: a.ctx, storage: a.storage };
  if (a.ctx.requestSubresource === 'scale') return { ...common, subresource: 'scale', object: readScale(a.def, a.object), old: a.old && readScale(a.def, a.old) };
  return { ...common, subresource: a.ctx.subresource, object: a.object, old: a.old };
}

function deleteRequestOf(a: DeleteAdmissionAttributes): Request {
  const namespace = a.def.namespaced ? (a.old.metadata.namespace ?? '') : '';
  return { operation: 'DELETE', def: a.def, subresource: '', namespace, name: a.old.metadata.name ?? '', object: undefined, old: a.old, ctx: a.ctx, storage: a.storage };
}

const isNamespaceRequest = (r: Request): boolean => r.def.group === '' && r.def.resource === 'namespaces';

/** rules.Matcher: operation, group, version, resource/subresource, scope, then resourceNames. */
function ruleMatches(rule: NamedRuleWithOperations, r: Request): boolean {
  const operations = rule.operations ?? [];
  if (!operations.includes('*') && !operations.includes(r.operation as never)) return false;
  const oneOf = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);
  if (!oneOf(rule.apiGroups, r.def.group) || !oneOf(rule.apiVersions, r.def.version)) return false;
  const resourceMatches = (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === r.def.resource) && (sub === '*' || sub === r.subresource);
  });
  if (!resourceMatches) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespaceRequest(r) || r.namespace === '')) return false;
  if (scope === 'Cluster' && !isNamespaceRequest(r) && r.namespace !== '') return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(r.name);
}

function selectorMatches(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const matcher = labelSelectorFromObject(selector ?? {});
  return 'error' in matcher ? false : matcher.matches(labels);
}

const isEmptySelector = (s: LabelSelector | undefined): boolean => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/** matching.Matcher.Matches: namespace selector, object selector, excluded rules, then rules. */
async function matches(m: MatchResources, r: Request, namespaceObject: () => Promise<KubeObject | undefined>, requireRules: boolean): Promise<boolean> {
  if (!isEmptySelector(m.namespaceSelector) && (r.namespace !== '' || isNamespaceRequest(r))) {
    const labels = isNamespaceRequest(r) ? (r.object ?? r.old)?.metadata.labels : (await namespaceObject())?.metadata.labels;
    if (!selectorMatches(m.namespaceSelector, labels)) return false;
  }
  if (!isEmptySelector(m.objectSelector) && ![r.object, r.old].some((o) => o && selectorMatches(m.objectSelector, o.metadata.labels))) return false;
  if ((m.excludeResourceRules ?? []).some((rule) => ruleMatches(rule, r))) return false;
  const rules = m.resourceRules ?? [];
  return rules.length === 0 ? !requireRules : rules.some((rule) => ruleMatches(rule, r));
}

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

const compiled = (expression: string, type: 'bool' | 'string' | 'any'): PolicyProgram | string => {
  const c = compilePolicyExpression(expression, type);
  return c.ok ? c.program : c.message;
};

/** Runs `expression`: its value, or upstream's error text for a CEL error. */
function run(expression: string, type: 'bool' | 'string' | 'any', activation: Record<string, unknown>): { value: unknown } | { error: string } {
  const program = compiled(expression, type);
  if (typeof program === 'string') return { error: program };
  const result = evaluatePolicyExpression(program, activation);
  return result.ok ? { value: result.value } : { error: `expression '${expression}' resulted in error: ${result.message}` };
}

/** The CEL activation: the request's objects as CEL values, and the policy's variables evaluated on first use. */
function activationFor(policy: ValidatingAdmissionPolicy, r: Request, request: Record<string, unknown>, param: KubeObject | undefined, namespaceObject: KubeObject | undefined): Record<string, unknown> {
  const activation: Record<string, unknown> = {
    object: r.object ? toCelValue(r.object) : null,
    oldObject: r.old ? toCelValue(r.old) : null,
    request,
    params: param ? toCelValue(param) : null,
    namespaceObject: namespaceObject ? toCelValue(namespaceObject) : null,
  };
  const variables: Record<string, unknown> = {};
  for (const v of policy.spec?.variables ?? []) {
    let cached: { value: unknown } | { error: string } | undefined;
    Object.defineProperty(variables, v.name, {
      enumerable: true,
      get: () => {
        cached ??= run(v.expression, 'any', activation);
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
  const failClosed = (policy.spec?.failurePolicy ?? 'Fail') === 'Fail';
  const ids = { policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '' };
  for (const condition of policy.spec?.matchConditions ?? []) {
    const result = run(condition.expression, 'bool', activation);
    if ('error' in result) {
      if (failClosed) denials.push({ ...ids, message: result.error, reason: '' });
      return;
    }
    if (result.value === false) return;
  }
  const actions = binding.spec?.validationActions ?? [];
  for (const v of policy.spec?.validations ?? []) {
    const result = run(v.expression, 'bool', activation);
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
    const result = run(messageExpression, 'string', activation);
    const text = 'value' in result && typeof result.value === 'string' ? result.value.trim() : '';
    if (text && Buffer.byteLength(text) <= 5000 && !text.includes('\n')) return text;
  }
  return message?.trim() || `failed expression: ${expression.trim()}`;
}

function admissionRequest(r: Request): Record<string, unknown> {
  const kind = r.subresource === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group: r.def.group, version: r.def.version, kind: r.def.kind };
  const resource = { group: r.def.group, version: r.def.version, resource: r.def.resource };
  const user = r.ctx.user;
  return toCelValue({
    uid: r.storage.random.uuid(),
    kind,
    resource,
    ...(r.subresource ? { subResource: r.subresource } : {}),
    requestKind: kind,
    requestResource: resource,
    ...(r.subresource ? { requestSubResource: r.subresource } : {}),
    name: r.name,
    namespace: r.namespace,
    operation: r.operation,
    userInfo: user ? { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups ?? [], ...(user.extra ? { extra: user.extra } : {}) } : { username: '' },
    dryRun: r.ctx.dryRun,
  }) as Record<string, unknown>;
}

/** dispatcher.Dispatch: every binding in turn; the first denial, with its reason's code, fails the request. */
async function dispatch(source: PolicySource, r: Request): Promise<void> {
  await source.ready;
  if (source.bindings.size === 0) return;
  let namespaceObject: Promise<KubeObject | undefined> | undefined;
  const getNamespace = (): Promise<KubeObject | undefined> => (namespaceObject ??= r.namespace ? r.storage.lookup('', 'v1', 'namespaces', '', r.namespace) : Promise.resolve(undefined));
  const denials: Denial[] = [];
  const warnings: string[] = [];
  let request: Record<string, unknown> | undefined;
  for (const binding of source.bindings.values()) {
    const policy = source.policy(binding.spec?.policyName);
    const constraints = policy?.spec?.matchConstraints;
    if (!policy || !constraints || !(await matches(constraints, r, getNamespace, true))) continue;
    if (binding.spec?.matchResources && !(await matches(binding.spec.matchResources, r, getNamespace, false))) continue;
    const params = await paramsFor(r.storage, policy, binding, r);
    if (typeof params === 'string') {
      if ((policy.spec?.failurePolicy ?? 'Fail') === 'Fail') denials.push({ policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '', message: params, reason: '' });
      continue;
    }
    request ??= admissionRequest(r);
    const namespace = await getNamespace();
    for (const param of params) validate(policy, binding, activationFor(policy, r, request, param, namespace), denials, warnings);
  }
  r.ctx.warnings?.push(...warnings);
  const denial = denials[0];
  if (denial) throw denialError(r, denial);
}

function denialError(r: Request, d: Denial): ApiError {
  const message = `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  const refused = forbidden({ group: r.def.group, resource: r.def.resource }, r.object ? admissionName(r.object) : r.name, message);
  const reason = d.reason || 'Invalid';
  return new ApiError(reason as ApiError['reason'], refused.message, { ...refused.details, causes: [{ message }] }, reasonCode[reason] ?? 422);
}

// reasonToCode: the reasons a validation may name, and 422 for anything else.
const reasonCode: Readonly<Record<string, number>> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: 'ValidatingAdmissionPolicy',
  validate(a) {
    const source = sourceOf(a.storage);
    if (source.synced && source.bindings.size === 0) return;
    return dispatch(source, requestOf(a));
  },
  validateDelete(a) {
    const source = sourceOf(a.storage);
    if (source.synced && source.bindings.size === 0) return;
    return dispatch(source, deleteRequestOf(a));
  },
};
