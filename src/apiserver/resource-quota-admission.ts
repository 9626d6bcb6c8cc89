// The ResourceQuota admission plugin: a create that would take a namespace's usage above any
// quota covering it is refused (403, in upstream's words), and an admitted one is charged to the
// quotas' status.used at once, so creates racing ahead of the quota controller cannot overshoot.
// Upstream: plugin/pkg/admission/resourcequota/admission.go, controller.go (checkRequest, prettyPrint).
import type { Pod, ResourceQuota, Usage } from '../api/index.ts';
import { addUsage, exceededResources, missingContainerResources, objectUsage, podUsage, quotaCoversPod } from '../api/index.ts';
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

export const resourceQuotaAdmission: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate: onlyFor((attrs) => attrs.operation === 'CREATE' && attrs.def.namespaced && !!attrs.object.metadata.namespace && !attrs.ctx.subresource && !knownQuotaFree(attrs, attrs.object.metadata.namespace), async (attrs) => {
    const now = (): number => attrs.storage.clock.now();
    const namespace = attrs.object.metadata.namespace ?? '';
    const quotas = await quotasOf(attrs, namespace);
    if (quotas.length === 0) return;
    const isPod = attrs.def.group === '' && attrs.def.resource === 'pods';
    const delta = usageOf(attrs, now());
    const charged: { quota: ResourceQuota; requested: Usage }[] = [];
    for (const quota of quotas) {
      if (isPod && !quotaCoversPod(quota, attrs.object as unknown as Pod)) continue;
      if (!isPod && (quota.spec?.scopes?.length || quota.spec?.scopeSelector)) continue;
      const hardNames = Object.keys(quota.spec?.hard ?? {});
      const matching = hardNames.filter((r: string) => r in delta || (isPod && ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'].includes(r)));
      if (matching.length === 0) continue;
      const reject = (why: string): never => {
        throw forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', why);
      };
      if (isPod) {
        const missing = missingContainerResources(attrs.object as unknown as Pod, matching);
        if (missing) reject(`failed quota: ${quota.metadata.name ?? ''}: ${missing}`);
      }
      const status = quota.status ?? {};
      const unknown = matching.filter((r) => status.hard?.[r] === undefined || status.used?.[r] === undefined);
      if (unknown.length > 0) reject(`status unknown for quota: ${quota.metadata.name ?? ''}, resources: ${[...unknown].sort().join(',')}`);
      const requested: Usage = Object.fromEntries(matching.filter((r) => r in delta).map((r) => [r, delta[r] as string]));
      const exceeded = exceededResources(addUsage(status.used ?? {}, requested), status.hard ?? {}).filter((r) => r in requested);
      if (exceeded.length > 0) {
        reject(`exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(requested, exceeded)}, used: ${prettyPrint(status.used ?? {}, exceeded)}, limited: ${prettyPrint(status.hard ?? {}, exceeded)}`);
      }
      charged.push({ quota, requested });
    }
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
