// The servicecidrs controller (kube-controller-manager): every ServiceCIDR carries the protection
// finalizer and a Ready condition; one being deleted keeps the finalizer, Ready=False/Terminating,
// while an IPAddress no other ServiceCIDR covers still needs it, and lets go after a grace period.
// Upstream: pkg/controller/servicecidrs/servicecidrs_controller.go.
import { ipAllocatorName, ipManagedByLabel, refs, serviceCIDRFinalizer } from '../../api/index.ts';
import type { IPAddress, ServiceCIDR } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { Clock, Condition } from '../../core/index.ts';
import { copyJson, formatTime, isApiError, parseIP, parsePrefix, prefixContains, withCondition } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';

const controllerName = 'service-cidr-controller';
/** How long a deletion must have been seen before the finalizer goes, so allocators stop using the range. */
export const deletionGracePeriodMs = 10_000;

export interface ServiceCIDRsControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
}

export class ServiceCIDRsController {
  readonly #o: ServiceCIDRsControllerOptions;
  readonly #serviceCIDRs: Informer<ServiceCIDR>;
  readonly #ipAddresses: Informer<IPAddress>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;

  constructor(options: ServiceCIDRsControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#serviceCIDRs = informerFor<ServiceCIDR>(options.informers, { client, ref: refs.serviceCIDRs, clock, log });
    this.#ipAddresses = informerFor<IPAddress>(options.informers, { client, ref: refs.ipAddresses, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    this.#recorder = createEventRecorder({ client, clock, component: controllerName, log, typeOf: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR' }) });
    const enqueue = (sc: ServiceCIDR): void => this.#queue.add(sc.metadata.name ?? '');
    this.#serviceCIDRs.addHandlers({ onAdd: enqueue, onUpdate: (_old, sc) => enqueue(sc), onDelete: enqueue });
    // A released address may unblock a range being deleted.
    const released = (ip: IPAddress): void => {
      for (const sc of this.#containing(ip)) if (sc.metadata.deletionTimestamp) enqueue(sc);
    };
    this.#ipAddresses.addHandlers({ onDelete: released });
  }

  start(): void {
    runWhenSynced([this.#serviceCIDRs, this.#ipAddresses], this.#queue, 1, (name) => this.#sync(name), this.#o.log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#serviceCIDRs.stop();
    this.#ipAddresses.stop();
  }

  /** The ServiceCIDRs with a range that contains the address. */
  #containing(ip: IPAddress): ServiceCIDR[] {
    const address = parseIP(ip.metadata.name ?? '', false);
    if (!address) return [];
    return this.#serviceCIDRs.list().filter((sc) => (sc.spec?.cidrs ?? []).some((c) => {
      const prefix = parsePrefix(c, false);
      return prefix !== undefined && prefixContains(prefix, address);
    }));
  }

  async #sync(name: string): Promise<void> {
    const sc = this.#serviceCIDRs.getByName(undefined, name);
    if (!sc) return;
    if (sc.metadata.deletionTimestamp) return this.#syncDeletion(sc);
    if (!(sc.metadata.finalizers ?? []).includes(serviceCIDRFinalizer)) {
      await this.#patchMetadata(name, { finalizers: [serviceCIDRFinalizer] });
    }
    await this.#setReady(sc, { type: 'Ready', status: 'True', lastTransitionTime: formatTime(this.#o.clock.now()), reason: '', message: 'Kubernetes Service CIDR is ready' });
  }

  async #syncDeletion(sc: ServiceCIDR): Promise<void> {
    if (this.#hasOrphans(sc)) {
      await this.#setReady(sc, { type: 'Ready', status: 'False', lastTransitionTime: formatTime(this.#o.clock.now()), reason: 'Terminating', message: 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR' });
      return;
    }
    const wait = Date.parse(sc.metadata.deletionTimestamp ?? '') + deletionGracePeriodMs - this.#o.clock.now();
    if (wait > 0) {
      this.#queue.addAfter(sc.metadata.name ?? '', wait);
      return;
    }
    if ((sc.metadata.finalizers ?? []).includes(serviceCIDRFinalizer)) {
      await this.#patchMetadata(sc.metadata.name ?? '', { '$deleteFromPrimitiveList/finalizers': [serviceCIDRFinalizer] });
    }
  }

  /** canDeleteCIDR: an allocator's address that this range alone covers would be left orphaned. */
  #hasOrphans(sc: ServiceCIDR): boolean {
    return this.#ipAddresses.list().some((ip) => {
      if (ip.metadata.labels?.[ipManagedByLabel] !== ipAllocatorName) return false;
      const covering = this.#containing(ip);
      return covering.length === 1 && covering[0]?.metadata.name === sc.metadata.name;
    });
  }

  async #patchMetadata(name: string, metadata: Record<string, unknown>): Promise<void> {
    try {
      await this.#o.client.patch(refs.serviceCIDRs, undefined, name, 'strategic', { metadata });
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }

  /** updateConditionIfNeeded: written only when status, reason or message change. */
  async #setReady(sc: ServiceCIDR, condition: Condition): Promise<void> {
    const current = sc.status?.conditions?.find((c) => c.type === condition.type);
    if (current && current.status === condition.status && (current.reason ?? '') === condition.reason && (current.message ?? '') === condition.message) return;
    const next = copyJson(sc) as ServiceCIDR;
    next.status = { conditions: withCondition(sc.status?.conditions, condition) };
    try {
      await this.#o.client.updateStatus(refs.serviceCIDRs, next, { fieldManager: controllerName });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(sc.metadata.name ?? '');
      if (condition.status === 'True') this.#recorder.event(sc, 'Warning', 'KubernetesServiceCIDRError', 'The ServiceCIDR Status can not be set to Ready=True');
      throw error;
    }
  }
}
