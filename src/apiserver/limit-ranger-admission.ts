// The LimitRanger admission plugin: a namespace's LimitRanges give pod containers (and init
// containers) their default requests and limits, noted in the kubernetes.io/limit-ranger annotation,
// then bound containers, whole pods and claims by min, max and maxLimitRequestRatio; a pod or claim
// outside them is refused (403) in upstream's words. In-place resizes are checked too.
// Upstream: plugin/pkg/admission/limitranger/admission.go.
import type { LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod } from '../api/index.ts';
import type { Quantity } from '../core/index.ts';
import { addQuantities, compareQuantities, forbidden, formatQuantity, parseQuantity, quantityMilliValue } from '../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { admissionName, onlyFor } from './admission.ts';
import { storedObject } from './stored-object.ts';

type ResourceList = Record<string, string>;
type Container = { name: string; resources?: { requests?: ResourceList; limits?: ResourceList }; restartPolicy?: string };

const annotation = 'kubernetes.io/limit-ranger';

/** Namespaces known to hold no LimitRange, per server (most never do); a LimitRange's create forgets its namespace. */
const rangeFree = new WeakMap<object, Set<string>>();

/** Whether `namespace` is known to hold no LimitRange, so a write there has nothing to look up (and no turn to wait). */
function knownRangeFree(attrs: AdmissionAttributes, namespace: string): boolean {
  return rangeFree.get(attrs.storage)?.has(namespace) === true;
}

async function limitRangesOf(attrs: AdmissionAttributes, namespace: string): Promise<LimitRange[]> {
  const def = attrs.storage.findDefinition('', 'v1', 'limitranges');
  if (!def) return [];
  let free = rangeFree.get(attrs.storage);
  if (!free) rangeFree.set(attrs.storage, (free = new Set()));
  if (free.has(namespace)) return [];
  const { items } = await attrs.storage.store.list(attrs.storage.prefix(def, namespace));
  if (items.length === 0) free.add(namespace);
  return items.map((kv) => storedObject(kv) as unknown as LimitRange);
}

function quantity(text: string | undefined): Quantity | undefined {
  return text === undefined ? undefined : parseQuantity(text);
}

// requestLimitEnforcedValues compares at milli precision; formatQuantity is Quantity.String().
const milli = (q: Quantity | undefined): number => (q ? quantityMilliValue(q) : 0);
const show = (text: string | undefined): string => {
  const q = quantity(text);
  return q ? formatQuantity(q) : (text ?? '');
};

function minConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const e = quantity(enforced);
  if (request[name] === undefined) return `minimum ${name} usage per ${type} is ${show(enforced)}.  No request is specified`;
  if (milli(quantity(request[name])) < milli(e)) return `minimum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(request[name])}`;
  if (limit[name] !== undefined && milli(quantity(limit[name])) < milli(e)) return `minimum ${name} usage per ${type} is ${show(enforced)}, but limit is ${show(limit[name])}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const e = quantity(enforced);
  if (limit[name] === undefined) return `maximum ${name} usage per ${type} is ${show(enforced)}.  No limit is specified`;
  if (milli(quantity(limit[name])) > milli(e)) return `maximum ${name} usage per ${type} is ${show(enforced)}, but limit is ${show(limit[name])}`;
  if (request[name] !== undefined && milli(quantity(request[name])) > milli(e)) return `maximum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(request[name])}`;
  return undefined;
}

function maxRequestConstraint(type: string, name: string, enforced: string, request: ResourceList): string | undefined {
  if (request[name] === undefined) return `maximum ${name} usage per ${type} is ${show(enforced)}.  No request is specified`;
  if (milli(quantity(request[name])) > milli(quantity(enforced))) return `maximum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(request[name])}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = milli(quantity(request[name]));
  const lim = milli(quantity(limit[name]));
  if (request[name] === undefined || req === 0) return `${name} max limit to request ratio per ${type} is ${show(enforced)}, but no request is specified or request is 0`;
  if (limit[name] === undefined || lim === 0) return `${name} max limit to request ratio per ${type} is ${show(enforced)}, but no limit is specified or limit is 0`;
  const observed = lim / req;
  if (observed * 1000 > milli(quantity(enforced))) return `${name} max limit to request ratio per ${type} is ${show(enforced)}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

/** defaultContainerResourceRequirements + mergePodResourceRequirements, with the annotation. */
function applyDefaults(range: LimitRange, pod: Pod): void {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const item of range.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  const notes: string[] = [];
  const merge = (c: Container, kind: string): void => {
    const resources = (c.resources ??= {});
    const ownLimits = (resources.limits ??= {});
    const ownRequests = (resources.requests ??= {});
    const setLimits = Object.keys(limits).filter((k) => ownLimits[k] === undefined);
    const setRequests = Object.keys(requests).filter((k) => ownRequests[k] === undefined);
    for (const k of setLimits) ownLimits[k] = limits[k] as string;
    for (const k of setRequests) ownRequests[k] = requests[k] as string;
    if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${c.name}`);
    if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${c.name}`);
  };
  for (const c of pod.spec.containers ?? []) merge(c as Container, 'container');
  for (const c of pod.spec.initContainers ?? []) merge(c as Container, 'init container');
  if (notes.length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, [annotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

function addList(into: Map<string, Quantity>, list: ResourceList | undefined): void {
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = parseQuantity(v);
    if (!q) continue;
    const prev = into.get(k);
    into.set(k, prev ? addQuantities(prev, q) : q);
  }
}

function maxList(into: Map<string, Quantity>, list: Map<string, Quantity>): void {
  for (const [k, q] of list) {
    const prev = into.get(k);
    if (!prev || compareQuantities(q, prev) > 0) into.set(k, q);
  }
}

/** PodRequests/PodLimits of the spec (sidecars counted, overhead not), pod-level cpu/memory winning. */
function podTotals(pod: Pod, field: 'requests' | 'limits'): ResourceList {
  const total = new Map<string, Quantity>();
  for (const c of pod.spec.containers ?? []) addList(total, (c as Container).resources?.[field]);
  const sidecars = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of (pod.spec.initContainers ?? []) as Container[]) {
    const own = c.resources?.[field];
    if (c.restartPolicy === 'Always') {
      addList(total, own);
      addList(sidecars, own);
      maxList(initMax, sidecars);
    } else {
      const during = new Map(sidecars);
      addList(during, own);
      maxList(initMax, during);
    }
  }
  maxList(total, initMax);
  const out: ResourceList = {};
  for (const [k, q] of total) out[k] = formatQuantity(q);
  const podLevel = (pod.spec as { resources?: { requests?: ResourceList; limits?: ResourceList } }).resources?.[field];
  for (const k of ['cpu', 'memory']) if (podLevel?.[k] !== undefined) out[k] = podLevel[k] as string;
  return out;
}

function checkItem(item: LimitRangeItem, type: string, request: ResourceList, limit: ResourceList, errors: string[]): void {
  const push = (e: string | undefined): void => {
    if (e) errors.push(e);
  };
  for (const [k, v] of Object.entries(item.min ?? {})) push(minConstraint(type, k, v, request, limit));
  for (const [k, v] of Object.entries(item.max ?? {})) push(maxConstraint(type, k, v, request, limit));
  for (const [k, v] of Object.entries(item.maxLimitRequestRatio ?? {})) push(ratioConstraint(type, k, v, request, limit));
}

function podErrors(range: LimitRange, pod: Pod): string[] {
  const errors: string[] = [];
  for (const item of range.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])] as Container[]) {
        checkItem(item, 'Container', c.resources?.requests ?? {}, c.resources?.limits ?? {}, errors);
      }
    } else if (item.type === 'Pod') {
      checkItem(item, 'Pod', podTotals(pod, 'requests'), podTotals(pod, 'limits'), errors);
    }
  }
  return errors;
}

function claimErrors(range: LimitRange, claim: PersistentVolumeClaim): string[] {
  const errors: string[] = [];
  const requests = (claim.spec?.resources?.requests ?? {}) as ResourceList;
  for (const item of range.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of Object.entries(item.min ?? {})) {
      const e = minConstraint('PersistentVolumeClaim', k, v, requests, {});
      if (e) errors.push(e);
    }
    for (const [k, v] of Object.entries(item.max ?? {})) {
      const e = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
      if (e) errors.push(e);
    }
  }
  return errors;
}

/** SupportsAttributes: pod creates and resizes, claim creates and updates; nothing being deleted. */
function target(attrs: AdmissionAttributes): 'pod' | 'claim' | undefined {
  const { def, operation, ctx, old } = attrs;
  if (def.group !== '' || (operation !== 'CREATE' && operation !== 'UPDATE') || old?.metadata.deletionTimestamp) return undefined;
  if (def.resource === 'pods') return (operation === 'CREATE' && !ctx.subresource) || (operation === 'UPDATE' && ctx.subresource === 'resize') ? 'pod' : undefined;
  if (def.resource === 'persistentvolumeclaims' && !ctx.subresource) return 'claim';
  return undefined;
}

async function applyRangeDefaults(attrs: AdmissionAttributes, namespace: string): Promise<void> {
  for (const range of await limitRangesOf(attrs, namespace)) applyDefaults(range, attrs.object as unknown as Pod);
}

export const limitRangerAdmission: AdmissionPlugin = {
  name: 'LimitRanger',
  // The object is read only once the request is a pod's or a range's: a connecter's options have no metadata.
  mutate(attrs) {
    if (attrs.def.group === '' && attrs.def.resource === 'limitranges' && attrs.operation === 'CREATE') rangeFree.get(attrs.storage)?.delete(attrs.object.metadata.namespace ?? '');
    if (target(attrs) !== 'pod') return undefined;
    const namespace = attrs.object.metadata.namespace ?? '';
    return knownRangeFree(attrs, namespace) ? undefined : applyRangeDefaults(attrs, namespace);
  },
  validate: onlyFor((attrs) => target(attrs) !== undefined && !knownRangeFree(attrs, attrs.object.metadata.namespace ?? ''), async (attrs) => {
    const kind = target(attrs);
    for (const range of await limitRangesOf(attrs, attrs.object.metadata.namespace ?? '')) {
      const errors = kind === 'pod' ? podErrors(range, attrs.object as unknown as Pod) : claimErrors(range, attrs.object as unknown as PersistentVolumeClaim);
      if (errors.length > 0) throw forbidden({ group: '', resource: attrs.def.resource }, admissionName(attrs.object), errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    }
  }),
};
