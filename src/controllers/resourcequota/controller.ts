// The resource quota controller: keeps each ResourceQuota's status (hard from its spec, used from
// what its namespace holds) true, recounting when the spec changes, when pods or other counted
// objects come and go, and on a full resync every five minutes.
// Upstream: pkg/controller/resourcequota/resource_quota_controller.go (syncResourceQuota,
// replenishment), pkg/quota/v1/evaluator/core.
import { addUsage, claimQuotaChanged, countedBy, objectCountName, objectUsage, podUsage, quotaCoversObject, quotaCoversPod, refs } from '../../api/index.ts';
import type { Pod, ResourceQuota, ResourceRef, Usage } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { copyJson, isApiError, jsonEqual, keyOf } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';

export type ResourceQuotaControllerOptions = ControllerOptions;

/** Upstream's --resource-quota-sync-period. */
export const fullResyncMs = 5 * 60 * 1000;
const byNamespace = 'namespace';

/** The kinds whose writes replenish quota at once (the others wait for the resync). */
const watched: readonly { ref: ResourceRef }[] = [{ ref: refs.services }, { ref: refs.persistentVolumeClaims }, { ref: refs.configMaps }, { ref: refs.secrets }, { ref: refs.resourceClaims }];

export class ResourceQuotaController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #workers: number;
  readonly #quotas: Informer<ResourceQuota>;
  readonly #pods: Informer<Pod>;
  readonly #others: Informer<KubeObject>[];
  readonly #queue: WorkQueue<string>;
  #resync: { cancel(): void } | undefined;
  #resources: Map<string, ResourceRef> | undefined;

  constructor(options: ResourceQuotaControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#quotas = informerFor<ResourceQuota>(options.informers, { client, ref: refs.resourceQuotas, clock, log });
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#others = watched.map((w) => informerFor<KubeObject>(options.informers, { client, ref: w.ref, clock, log }));
    this.#quotas.addIndex(byNamespace, (q) => [q.metadata.namespace ?? '']);
    this.#pods.addIndex(byNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#quotas.addHandlers({
      onAdd: (q) => this.#queue.add(keyOf(q)),
      onUpdate: (old, q) => {
        if (!jsonEqual(old.spec ?? {}, q.spec ?? {}) || !q.status) this.#queue.add(keyOf(q));
      },
    });
    const replenish = (obj: DeepReadonly<KubeObject>): void => {
      for (const q of this.#quotas.byIndex(byNamespace, obj.metadata.namespace ?? '')) this.#queue.add(keyOf(q));
    };
    // A pod changes its quota usage when created, deleted, finished, or resized.
    this.#pods.addHandlers({
      onAdd: replenish,
      onDelete: replenish,
      onUpdate: (old, pod) => {
        if (old.status?.phase !== pod.status?.phase || !jsonEqual(old.spec.containers.map((c) => c.resources), pod.spec.containers.map((c) => c.resources)) || !old.metadata.deletionTimestamp !== !pod.metadata.deletionTimestamp) replenish(pod);
      },
    });
    // A service changing type, or a claim expanding, changes what it counts (the quota monitor's UpdateFunc).
    for (const [i, informer] of this.#others.entries()) {
      const { group, resource } = (watched[i] as { ref: ResourceRef }).ref;
      const countsChanged = (old: DeepReadonly<KubeObject>, obj: DeepReadonly<KubeObject>): boolean =>
        !jsonEqual(objectUsage(group, resource, old), objectUsage(group, resource, obj)) || (resource === 'persistentvolumeclaims' && claimQuotaChanged(old, obj));
      informer.addHandlers({ onAdd: replenish, onDelete: replenish, onUpdate: (old, obj) => {
          if (countsChanged(old, obj)) replenish(obj);
        },
      });
    }
  }

  start(): void {
    runWhenSynced([this.#quotas, this.#pods, ...this.#others], this.#queue, this.#workers, (key) => this.#sync(key), this.#log, () => this.#scheduleResync());
  }

  stop(): void {
    this.#queue.shutDown();
    this.#resync?.cancel();
    for (const i of [this.#quotas, this.#pods, ...this.#others]) i.stop();
  }

  #scheduleResync(): void {
    this.#resync = this.#clock.after(fullResyncMs, () => {
      if (this.#queue.shuttingDown) return;
      for (const q of this.#quotas.list()) this.#queue.add(keyOf(q));
      this.#scheduleResync();
    });
  }

  /** count/<resource>.<group> names to the resource served under them (discovery, once). */
  async #countedResource(name: string): Promise<ResourceRef | undefined> {
    if (!this.#resources) {
      const found = new Map<string, ResourceRef>();
      for (const r of await this.#client.discover()) if (r.verbs.includes('list') && !found.has(objectCountName(r.group, r.resource))) found.set(objectCountName(r.group, r.resource), r);
      this.#resources = found;
    }
    return this.#resources.get(name);
  }

  async #usage(quota: DeepReadonly<ResourceQuota>, namespace: string): Promise<Usage> {
    const hard = Object.keys(quota.spec?.hard ?? {});
    const now = this.#clock.now();
    let used: Usage = {};
    for (const pod of this.#pods.byIndex(byNamespace, namespace)) if (quotaCoversPod(quota, pod)) used = addUsage(used, podUsage(pod, now));
    const counted = new Set<string>();
    for (const name of hard) {
      const countName = countedBy(name);
      if (!countName || countName === 'count/pods' || counted.has(countName)) continue;
      counted.add(countName);
      const ref = await this.#countedResource(countName);
      if (!ref) continue;
      const list = await this.#client.list(ref, { namespace });
      for (const obj of list.items) if (quotaCoversObject(ref.group, ref.resource, quota, obj)) used = addUsage(used, objectUsage(ref.group, ref.resource, obj));
    }
    return Object.fromEntries(hard.map((r) => [r, used[r] ?? '0']));
  }

  async #sync(key: string): Promise<void> {
    const quota = this.#quotas.get(key);
    if (!quota) return;
    const namespace = quota.metadata.namespace ?? '';
    const hard = { ...quota.spec?.hard };
    const used = await this.#usage(quota, namespace);
    if (jsonEqual(quota.status?.hard ?? {}, hard) && jsonEqual(quota.status?.used ?? {}, used)) return;
    try {
      await this.#client.updateStatus(refs.resourceQuotas, { ...(copyJson(quota) as ResourceQuota), status: { hard, used } });
    } catch (error) {
      // A conflict means admission charged it meanwhile: recount.
      if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(key);
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
