// The ResourceQuota admission plugin: a create that would take a namespace's usage above any
// quota covering it is refused (403, in upstream's words), and an admitted one is charged to the
// quotas' status.used at once, so creates racing ahead of the quota controller cannot overshoot.
// Upstream: plugin/pkg/admission/resourcequota/admission.go, controller.go (checkRequest, prettyPrint).
import type { Pod, ResourceQuota, Usage } from '../api/index.ts';
import { addUsage, exceededResources, missingContainerResources, objectUsage, podMatchingResources, podUsage, quotaCoversPod, subtractUsage, withoutZeroUsage } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { copyJson, forbidden } from '../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { onlyFor } from './admission.ts';
import { storedObject } from './stored-object.ts';

const prettyPrint = (usage: Readonly<Usage>, keys: readonly string[]): string => [...keys].sort().map((k) => `${k}=${usage[k] ?? '0'}`).join(',');

function usageOf(attrs: AdmissionAttributes, now: number): Usage {
  const { def, object } = attrs;
  if (def.group === '' && def.resource === 'pods') return podUsage(object as unknown as Pod, now);
  return objectUsage(def.group, def.resource, object as { spec?: unknown });
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
function interestingQuotas(attrs: AdmissionAttributes, quotas: readonly ResourceQuota[], delta: Readonly<Usage>, reject: (why: string) => never): ResourceQuota[] {
  const isPod = attrs.def.group === '' && attrs.def.resource === 'pods';
  const pod = attrs.object as unknown as Pod;
  const out: ResourceQuota[] = [];
  for (const quota of quotas) {
    if (isPod ? !quotaCoversPod(quota, pod) : quota.spec?.scopes?.length || quota.spec?.scopeSelector) continue;
    const hardNames = Object.keys(quota.status?.hard ?? {});
    const restricted = isPod ? podMatchingResources(hardNames) : hardNames.filter((r) => r in delta);
    if (restricted.length === 0) continue;
    const name = quota.metadata.name ?? '';
    const missing = isPod ? missingContainerResources(pod, restricted) : undefined;
    if (missing) reject(`failed quota: ${name}: ${missing}`);
    if (!hasUsageStats(quota, restricted)) reject(`status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
    out.push(quota);
  }
  return out;
}

/** CheckRequest's second pass: what each quota would be charged, or the first quota the write would exceed. */
function chargesFor(deltas: readonly { quota: ResourceQuota; delta: Usage }[], reject: (why: string) => never): { quota: ResourceQuota; requested: Usage }[] {
  return deltas.map(({ quota, delta }) => {
    const hard = quota.status?.hard ?? {};
    const used = quota.status?.used ?? {};
    const requested: Usage = Object.fromEntries(Object.entries(delta).filter(([r]) => r in hard));
    const exceeded = exceededResources(addUsage(used, requested), hard).filter((r) => r in requested);
    if (exceeded.length > 0) {
      reject(`exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(requested, exceeded)}, used: ${prettyPrint(used, exceeded)}, limited: ${prettyPrint(hard, exceeded)}`);
    }
    return { quota, requested };
  });
}

/**
 * What the write adds to each quota, zeros dropped: a create all its usage; a pod's resize only what
 * it grows by, where the pod already counted before (SubtractWithNonNegativeResult).
 */
function deltasFor(attrs: AdmissionAttributes, quotas: readonly ResourceQuota[], usage: Readonly<Usage>, now: number): { quota: ResourceQuota; delta: Usage }[] {
  const old = attrs.operation === 'UPDATE' ? (attrs.old as unknown as Pod | undefined) : undefined;
  const oldUsage = old ? podUsage(old, now) : undefined;
  return quotas
    .map((quota) => ({ quota, delta: withoutZeroUsage(old && oldUsage && quotaCoversPod(quota, old) ? subtractUsage(usage, oldUsage) : usage) }))
    .filter(({ delta }) => Object.keys(delta).length > 0);
}

/** Creates, and pods' in-place resizes (podEvaluator.Handles). */
const isCharged = (attrs: AdmissionAttributes): boolean =>
  attrs.operation === 'CREATE' ? !attrs.ctx.subresource : attrs.operation === 'UPDATE' && attrs.ctx.subresource === 'resize' && attrs.def.group === '' && attrs.def.resource === 'pods';

export const resourceQuotaAdmission: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate: onlyFor((attrs) => isCharged(attrs) && attrs.def.namespaced && !!attrs.object.metadata.namespace && !knownQuotaFree(attrs, attrs.object.metadata.namespace), async (attrs) => {
    const quotas = await quotasOf(attrs, attrs.object.metadata.namespace ?? '');
    if (quotas.length === 0) return;
    const reject = (why: string): never => {
      throw forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', why);
    };
    const now = attrs.storage.clock.now();
    const usage = usageOf(attrs, now);
    const deltas = deltasFor(attrs, interestingQuotas(attrs, quotas, usage, reject), usage, now);
    if (deltas.length === 0) return;
    const charged = chargesFor(deltas, reject);
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
