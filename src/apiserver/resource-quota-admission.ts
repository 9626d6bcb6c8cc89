// The ResourceQuota admission plugin: a write that would take a namespace's usage above any quota
// covering it is refused (403, in upstream's words), and an admitted one is charged to the quotas'
// status.used at once, so writes racing ahead of the quota controller cannot overshoot. Creates are
// charged all they measure; updates that can grow usage (a pod's resize, a claim's expansion, a
// service's change of type) only what they add.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go
// (CheckRequest, prettyPrint), pkg/quota/v1/evaluator/core (each evaluator's Handles).
import type { Pod, ResourceQuota, Usage } from '../api/index.ts';
import { addUsage, claimQuotaChanged, exceededResources, missingContainerResources, negativeUsage, objectMatchingResources, objectUsage, podMatchingResources, podUsage, quotaCoversObject, subtractUsage, withoutZeroUsage } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { copyJson, forbidden } from '../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { onlyFor } from './admission.ts';
import { storedObject } from './stored-object.ts';

const prettyPrint = (usage: Readonly<Usage>, keys: readonly string[]): string => [...keys].sort().map((k) => `${k}=${usage[k] ?? '0'}`).join(',');

const isCore = (attrs: AdmissionAttributes, resource: string): boolean => attrs.def.group === '' && attrs.def.resource === resource;

function usageOf(attrs: AdmissionAttributes, object: KubeObject, now: number): Usage {
  if (isCore(attrs, 'pods')) return podUsage(object as unknown as Pod, now);
  return objectUsage(attrs.def.group, attrs.def.resource, object);
}

/** Evaluator.Matches: does the quota take in this object (its scopes, and a resource it is measured by)? */
function quotaMatches(attrs: AdmissionAttributes, quota: ResourceQuota, object: KubeObject): boolean {
  const hardNames = Object.keys(quota.status?.hard ?? {});
  if (!quotaCoversObject(attrs.def.group, attrs.def.resource, quota, object)) return false;
  if (isCore(attrs, 'pods')) return podMatchingResources(hardNames).length > 0;
  return objectMatchingResources(attrs.def.group, attrs.def.resource, hardNames).length > 0;
}

/**
 * Namespaces known to hold no ResourceQuota, per server: most never do, and every create would
 * otherwise list them. A quota's create passes this plugin, which forgets the namespace then.
 */
const quotaFree = new WeakMap<object, Set<string>>();

/** Whether a create has nothing to look up (and no turn to wait): its namespace is known to hold no quota, and it is not a quota. */
function knownQuotaFree(attrs: AdmissionAttributes, namespace: string): boolean {
  return !(attrs.def.group === '' && attrs.def.resource === 'resourcequotas') && quotaFree.get(attrs.storage)?.has(namespace) === true;
}

async function quotasOf(attrs: AdmissionAttributes, namespace: string): Promise<ResourceQuota[]> {
  const quotaDef = attrs.storage.findDefinition('', 'v1', 'resourcequotas');
  if (!quotaDef) return [];
  let free = quotaFree.get(attrs.storage);
  if (!free) quotaFree.set(attrs.storage, (free = new Set()));
  const creatingQuota = attrs.def.group === '' && attrs.def.resource === 'resourcequotas';
  if (creatingQuota) free.delete(namespace);
  if (free.has(namespace)) return [];
  const page = await attrs.storage.store.list(attrs.storage.prefix(quotaDef, namespace));
  if (page.items.length === 0 && !creatingQuota) free.add(namespace);
  return page.items.map((kv) => storedObject(kv) as ResourceQuota);
}

/** hasUsageStats: every hard resource the object is measured by already has a used amount. */
const hasUsageStats = (quota: ResourceQuota, restricted: readonly string[]): boolean =>
  restricted.every((r) => quota.status?.hard?.[r] === undefined || quota.status.used?.[r] !== undefined);

/**
 * CheckRequest's first pass, over every quota before any is charged: which quotas the object counts
 * against (by scope and by status.hard, as the quota controller last saw it), refusing an object that
 * breaks a quota's constraints or meets a quota not counted yet.
 */
function interestingQuotas(attrs: AdmissionAttributes, quotas: readonly ResourceQuota[], reject: (why: string) => never): ResourceQuota[] {
  const out: ResourceQuota[] = [];
  for (const quota of quotas) {
    if (!quotaMatches(attrs, quota, attrs.object)) continue;
    const hardNames = Object.keys(quota.status?.hard ?? {});
    const restricted = isCore(attrs, 'pods') ? podMatchingResources(hardNames) : objectMatchingResources(attrs.def.group, attrs.def.resource, hardNames);
    const name = quota.metadata.name ?? '';
    const missing = isCore(attrs, 'pods') ? missingContainerResources(attrs.object as unknown as Pod, restricted) : undefined;
    if (missing) reject(`failed quota: ${name}: ${missing}`);
    if (!hasUsageStats(quota, restricted)) reject(`status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
    out.push(quota);
  }
  return out;
}

/**
 * CheckRequest's second pass: what each quota would be charged, or the first quota the write would
 * exceed. A status write is charged without being judged: the system reports what already happened.
 */
function chargesFor(attrs: AdmissionAttributes, deltas: readonly { quota: ResourceQuota; delta: Usage }[], reject: (why: string) => never): { quota: ResourceQuota; requested: Usage }[] {
  return deltas.map(({ quota, delta }) => {
    const hard = quota.status?.hard ?? {};
    const used = quota.status?.used ?? {};
    const requested: Usage = Object.fromEntries(Object.entries(delta).filter(([r]) => r in hard));
    const exceeded = attrs.ctx.subresource === 'status' ? [] : exceededResources(addUsage(used, requested), hard).filter((r) => r in requested);
    if (exceeded.length > 0) {
      reject(`exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(requested, exceeded)}, used: ${prettyPrint(used, exceeded)}, limited: ${prettyPrint(hard, exceeded)}`);
    }
    return { quota, requested };
  });
}

/**
 * What the write adds to each quota, zeros dropped: a create all its usage; an update only what it
 * grows by (SubtractWithNonNegativeResult) where the quota took in the old object too, else all of it.
 */
function deltasFor(attrs: AdmissionAttributes, quotas: readonly ResourceQuota[], usage: Readonly<Usage>, now: number): { quota: ResourceQuota; delta: Usage }[] {
  const old = attrs.operation === 'UPDATE' ? attrs.old : undefined;
  const oldUsage = old ? usageOf(attrs, old, now) : undefined;
  return quotas
    .map((quota) => ({ quota, delta: withoutZeroUsage(old && oldUsage && quotaMatches(attrs, quota, old) ? subtractUsage(usage, oldUsage) : usage) }))
    .filter(({ delta }) => Object.keys(delta).length > 0);
}

/** Evaluator.Handles: which writes can change what the object counts. */
function isCharged(attrs: AdmissionAttributes): boolean {
  const { operation, ctx } = attrs;
  if (isCore(attrs, 'pods')) return ctx.subresource ? ctx.subresource === 'resize' && operation === 'UPDATE' : operation === 'CREATE';
  if (isCore(attrs, 'persistentvolumeclaims')) {
    if (ctx.subresource === 'status') return operation === 'UPDATE' && !!attrs.old && claimQuotaChanged(attrs.old, attrs.object);
    return !ctx.subresource && (operation === 'CREATE' || operation === 'UPDATE');
  }
  // A service's type can change, and with it the node ports and load balancers it takes.
  if (isCore(attrs, 'services') || (attrs.def.group === 'resource.k8s.io' && attrs.def.resource === 'resourceclaims')) return !ctx.subresource && (operation === 'CREATE' || operation === 'UPDATE');
  return operation === 'CREATE' && !ctx.subresource;
}

export const resourceQuotaAdmission: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate: onlyFor((attrs) => isCharged(attrs) && attrs.def.namespaced && !!attrs.object.metadata.namespace && !knownQuotaFree(attrs, attrs.object.metadata.namespace), async (attrs) => {
    const quotas = await quotasOf(attrs, attrs.object.metadata.namespace ?? '');
    if (quotas.length === 0) return;
    const reject = (why: string): never => {
      throw forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', why);
    };
    const interesting = interestingQuotas(attrs, quotas, reject);
    const now = attrs.storage.clock.now();
    const usage = usageOf(attrs, attrs.object, now);
    const negative = negativeUsage(usage);
    if (negative.length > 0) reject(`quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    const deltas = deltasFor(attrs, interesting, usage, now);
    if (deltas.length === 0) return;
    const charged = chargesFor(attrs, deltas, reject);
    // A dry run is judged as a real create would be, and charged to nothing.
    if (attrs.ctx.dryRun) return;
    for (const { quota, requested } of charged) await charge(attrs, quota, requested);
  }),
};

/** Adds the admitted object's usage to the quota's status.used (the quota controller recounts later). */
async function charge(attrs: AdmissionAttributes, quota: ResourceQuota, requested: Usage): Promise<void> {
  if (Object.keys(requested).length === 0) return;
  const quotaDef = attrs.storage.findDefinition('', 'v1', 'resourcequotas');
  if (!quotaDef) return;
  await attrs.storage.update(quotaDef, quota.metadata.namespace ?? '', quota.metadata.name ?? '', (current) => {
    const next = copyJson(current) as ResourceQuota;
    next.status = { ...next.status, used: addUsage(next.status?.used ?? {}, requested) };
    return next as KubeObject;
  }, { dryRun: false, fieldManager: '', subresource: 'status' });
}
