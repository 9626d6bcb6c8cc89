// What admission predicates and callers see of a request (upstream's admission.Attributes), the
// predicates ValidatingAdmissionPolicy and admission webhooks share (rules, namespace and object
// selectors), the AdmissionRequest they are sent or read, and a store-watched map of their configuration.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/{namespace,object,rules},
// policy/matching/matching.go, admission/plugin/webhook/request/admissionreview.go.
import type { MatchCondition, MatchResources, NamedRuleWithOperations, ResourceDefinition } from '../api/index.ts';
import { compilePolicyExpression, evaluatePolicyExpression } from '../api/index.ts';
import { labelSelectorFromObject } from '../core/index.ts';
import type { KubeObject, LabelSelector } from '../core/index.ts';
import type { Store } from '../storage/index.ts';
import type { AdmissionAttributes, DeleteAdmissionAttributes } from './admission.ts';
import type { DeleteRequest, ResourceStorage, WriteContext } from './resource-storage.ts';
import { storedObject } from './stored-object.ts';
import { readScale } from './subresources.ts';

/** Objects under some storage prefixes of one store, listed and then kept current by a watch. */
export class WatchedObjects<K extends string> {
  /** Set once every list is in: from then on a caller may trust the maps without waiting. */
  synced = false;
  readonly ready: Promise<void>;
  readonly maps = {} as Record<K, Map<string, KubeObject>>;
  constructor(store: Store, prefixes: Readonly<Record<K, string>>) {
    const lists: Promise<void>[] = [];
    for (const name of Object.keys(prefixes) as K[]) lists.push(follow(store, prefixes[name], (this.maps[name] = new Map())));
    this.ready = Promise.all(lists).then(() => {
      this.synced = true;
    });
  }
}

/** One WatchedObjects of `prefixes` per store, made when first asked for. */
export function watchedPerStore<K extends string>(prefixes: Readonly<Record<K, string>>): (store: Store) => WatchedObjects<K> {
  const byStore = new WeakMap<Store, WatchedObjects<K>>();
  return (store) => {
    let watched = byStore.get(store);
    if (!watched) byStore.set(store, (watched = new WatchedObjects(store, prefixes)));
    return watched;
  };
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

/** The request as the predicates and CEL's `request` see it; a DELETE has no object, only the old one. */
export interface Request {
  operation: AdmissionAttributes['operation'];
  def: ResourceDefinition;
  subresource: string;
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  old: KubeObject | undefined;
  ctx: WriteContext;
  storage: ResourceStorage;
  /** A DELETE's options, as the request carried them. */
  deleteOptions?: DeleteRequest | undefined;
}

/**
 * The request's attributes; a `scale` write is seen as upstream's admission sees it, with Scale objects.
 * A creating subresource's (binding, eviction, token) and a connecter's attributes arrive as upstream's
 * do: the request's own object and the URL's name.
 */
export function requestOf(a: AdmissionAttributes): Request {
  const namespace = a.def.namespaced ? (a.namespace ?? a.object.metadata.namespace ?? '') : '';
  const common = { operation: a.operation, def: a.def, namespace, name: a.name ?? a.object.metadata.name ?? '', ctx: a.ctx, storage: a.storage };
  if (a.ctx.requestSubresource === 'scale') return { ...common, subresource: 'scale', object: readScale(a.def, a.object), old: a.old && readScale(a.def, a.old) };
  return { ...common, subresource: a.ctx.subresource, object: a.object, old: a.old };
}

export function deleteRequestOf(a: DeleteAdmissionAttributes): Request {
  const namespace = a.def.namespaced ? (a.old.metadata.namespace ?? '') : '';
  return { operation: 'DELETE', def: a.def, subresource: '', namespace, name: a.old.metadata.name ?? '', object: undefined, old: a.old, ctx: a.ctx, storage: a.storage, deleteOptions: a.options };
}

const isNamespaceRequest = (r: Request): boolean => r.def.group === '' && r.def.resource === 'namespaces';

/** rules.Matcher: operation, group, version, resource/subresource, scope, then resourceNames. */
export function ruleMatches(rule: NamedRuleWithOperations, r: Request): boolean {
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

export function selectorMatches(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const matcher = labelSelectorFromObject(selector ?? {});
  return 'error' in matcher ? false : matcher.matches(labels);
}

const isEmptySelector = (s: LabelSelector | undefined): boolean => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/** matching.Matcher.Matches: namespace selector, object selector, excluded rules, then rules. */
export async function matches(m: MatchResources, r: Request, namespaceObject: () => Promise<KubeObject | undefined>, requireRules: boolean): Promise<boolean> {
  if (!isEmptySelector(m.namespaceSelector) && (r.namespace !== '' || isNamespaceRequest(r))) {
    const labels = isNamespaceRequest(r) ? (r.object ?? r.old)?.metadata.labels : (await namespaceObject())?.metadata.labels;
    if (!selectorMatches(m.namespaceSelector, labels)) return false;
  }
  // An object without metadata (a connecter's options) matches no object selector (matchObject's failed Accessor).
  if (!isEmptySelector(m.objectSelector) && ![r.object, r.old].some((o) => o?.metadata && selectorMatches(m.objectSelector, o.metadata.labels))) return false;
  if ((m.excludeResourceRules ?? []).some((rule) => ruleMatches(rule, r))) return false;
  const rules = m.resourceRules ?? [];
  return rules.length === 0 ? !requireRules : rules.some((rule) => ruleMatches(rule, r));
}

/** The request's namespace object, looked up once however many predicates ask (undefined when cluster-scoped or absent). */
export function namespaceLookup(r: Request): () => Promise<KubeObject | undefined> {
  let namespace: Promise<KubeObject | undefined> | undefined;
  return () => (namespace ??= r.namespace ? r.storage.lookup('', 'v1', 'namespaces', '', r.namespace) : Promise.resolve(undefined));
}

/** The AdmissionRequest of `r` (admission.k8s.io/v1) without its objects: what webhooks are sent and CEL's `request` reads. */
export function admissionRequestOf(r: Request): Record<string, unknown> {
  const kind = requestKind(r);
  const resource = { group: r.def.group, version: r.def.version, resource: r.def.resource };
  const user = r.ctx.user;
  return {
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
    ...(r.operation === 'CONNECT' ? {} : { options: operationOptions(r) }),
  };
}

/**
 * The kind the endpoint serves (the handlers' scope.Kind): a subresource's own (Scale of autoscaling/v1,
 * Binding, Eviction of policy/v1, TokenRequest, PodExecOptions ...), else the resource's.
 */
function requestKind(r: Request): { group: string; version: string; kind: string } {
  const sub = r.subresource ? r.def.subresources?.find((s) => s.name === r.subresource) : undefined;
  if (sub?.kind) return { group: sub.group ?? r.def.group, version: sub.version ?? r.def.version, kind: sub.kind };
  return { group: r.def.group, version: r.def.version, kind: r.def.kind };
}

/**
 * The operation's options as upstream's AdmissionRequest carries them: CreateOptions or UpdateOptions
 * (a patch's as UpdateOptions) with what the request sent, or its DeleteOptions; Go's field order.
 */
function operationOptions(r: Request): Record<string, unknown> {
  const dryRun = r.ctx.dryRun ? { dryRun: ['All'] } : {};
  if (r.operation === 'DELETE') {
    const o = r.deleteOptions;
    return {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(o?.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
      ...(o?.preconditions ? { preconditions: o.preconditions } : {}),
      ...(o?.orphanDependents !== undefined ? { orphanDependents: o.orphanDependents } : {}),
      ...(o?.propagationPolicy ? { propagationPolicy: o.propagationPolicy } : {}),
      ...(o?.dryRun ? { dryRun: ['All'] } : {}),
    };
  }
  const { sentFieldManager, sentFieldValidation } = r.ctx;
  return {
    kind: r.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
    apiVersion: 'meta.k8s.io/v1',
    ...dryRun,
    ...(sentFieldManager ? { fieldManager: sentFieldManager } : {}),
    ...(sentFieldValidation ? { fieldValidation: sentFieldValidation } : {}),
  };
}

/** Runs a policy expression: its value, or upstream's `expression '<e>' resulted in error: ...` (or the compile error). */
export function runExpression(expression: string, type: 'bool' | 'string' | 'any', activation: Readonly<Record<string, unknown>>): { value: unknown } | { error: string } {
  const compiled = compilePolicyExpression(expression, type);
  if (!compiled.ok) return { error: compiled.message };
  const result = evaluatePolicyExpression(compiled.program, activation);
  return result.ok ? { value: result.value } : { error: `expression '${expression}' resulted in error: ${result.message}` };
}

/**
 * matchconditions.Matcher: a condition that is false means no match, whatever the others did; else an
 * error in any is the matcher's error (an aggregate: one message, or `[a, b]`), for the failure policy
 * to decide; else the request matches.
 */
export function evaluateMatchConditions(conditions: readonly MatchCondition[], activation: Readonly<Record<string, unknown>>): { matches: boolean; error?: string } {
  const errors: string[] = [];
  for (const condition of conditions) {
    const result = runExpression(condition.expression, 'bool', activation);
    if ('error' in result) errors.push(result.error);
    else if (result.value === false) return { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  return { matches: false, error: errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]` };
}
