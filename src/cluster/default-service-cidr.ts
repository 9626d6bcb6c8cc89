// The API server's kubernetes-service-cidr-controller: keeps the `kubernetes` ServiceCIDR for its
// own --service-cluster-ip-range (re-creating it if it goes) and marks it Ready when the ranges
// match; a mismatch or a Ready=False set by someone else is reported once, as an event.
// Upstream: pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go.
import { defaultServiceCIDRName, refs } from '../api/index.ts';
import type { ServiceCIDR } from '../api/index.ts';
import type { Client, Informer, SharedInformers } from '../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../client/index.ts';
import type { Clock, Condition } from '../core/index.ts';
import { copyJson, formatTime, isApiError, jsonEqual, withCondition } from '../core/index.ts';
import { createEventRecorder } from '../controllers/index.ts';
import type { EventRecorder } from '../controllers/index.ts';

const controllerName = 'kubernetes-service-cidr-controller';

export interface DefaultServiceCIDRControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** --service-cluster-ip-range, primary family first. */
  cidrs: readonly string[];
  informers?: SharedInformers;
}

export class DefaultServiceCIDRController {
  readonly #o: DefaultServiceCIDRControllerOptions;
  readonly #serviceCIDRs: Informer<ServiceCIDR>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;
  #reportedMismatch = false;
  #reportedNotReady = false;

  constructor(options: DefaultServiceCIDRControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#serviceCIDRs = informerFor<ServiceCIDR>(options.informers, { client, ref: refs.serviceCIDRs, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    this.#recorder = createEventRecorder({ client, clock, component: controllerName, log, typeOf: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR' }) });
    const changed = (sc: ServiceCIDR): void => {
      if (sc.metadata.name === defaultServiceCIDRName) this.#queue.add(defaultServiceCIDRName);
    };
    this.#serviceCIDRs.addHandlers({ onAdd: changed, onUpdate: (_old, sc) => changed(sc), onDelete: changed });
  }

  start(): void {
    runWhenSynced([this.#serviceCIDRs], this.#queue, 1, () => this.#sync(), this.#o.log);
    this.#queue.add(defaultServiceCIDRName);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#serviceCIDRs.stop();
  }

  async #sync(): Promise<void> {
    const current = this.#serviceCIDRs.getByName(undefined, defaultServiceCIDRName);
    if (!current) return this.#create();
    const cidrs = this.#o.cidrs;
    if (cidrs.length === 2 && current.spec?.cidrs?.length === 1 && current.spec.cidrs[0] === cidrs[0]) {
      await this.#o.client.update(refs.serviceCIDRs, { ...(copyJson(current) as ServiceCIDR), spec: { cidrs: [...cidrs] } });
      return;
    }
    await this.#syncStatus(current);
  }

  async #create(): Promise<void> {
    const desired: ServiceCIDR = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: defaultServiceCIDRName }, spec: { cidrs: [...this.#o.cidrs] } };
    try {
      await this.#o.client.create(refs.serviceCIDRs, desired);
    } catch (error) {
      if (isApiError(error) && error.reason === 'AlreadyExists') return;
      this.#recorder.event(desired, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR can not be created');
      throw error;
    }
  }

  async #syncStatus(current: ServiceCIDR): Promise<void> {
    // Deletion is the servicecidrs controller's (kube-controller-manager) to finish.
    if (current.metadata.deletionTimestamp) return;
    if (!jsonEqual(current.spec?.cidrs ?? [], [...this.#o.cidrs])) {
      if (this.#reportedMismatch) return;
      this.#reportedMismatch = true;
      this.#recorder.event(current, 'Warning', 'KubernetesDefaultServiceCIDRInconsistent', `The default ServiceCIDR [${(current.spec?.cidrs ?? []).join(' ')}] does not match the controller flag configurations [${this.#o.cidrs.join(' ')}]`);
      return;
    }
    const ready = current.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status === 'False') {
      if (!this.#reportedNotReady) this.#recorder.event(current, 'Warning', ready.reason ?? '', `Configuration matches, but ${ready.message ?? ''}`);
      this.#reportedNotReady = true;
      return;
    }
    if (ready?.status === 'True') return;
    const condition: Condition = { type: 'Ready', status: 'True', lastTransitionTime: formatTime(this.#o.clock.now()), reason: '', message: 'Kubernetes default Service CIDR is ready' };
    const next = copyJson(current) as ServiceCIDR;
    next.status = { conditions: withCondition(current.status?.conditions, condition) };
    try {
      await this.#o.client.updateStatus(refs.serviceCIDRs, next, { fieldManager: controllerName });
    } catch (error) {
      if (isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound')) return;
      this.#recorder.event(current, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR Status can not be set to Ready=True');
    }
  }
}
