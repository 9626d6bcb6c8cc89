// The Endpoints controller: keeps an Endpoints object named after each selecting Service equal to the
// addresses of the pods it selects (terminating pods left out), and deletes it with the Service.
// Upstream: pkg/controller/endpoint/endpoints_controller.go (syncService, addPod/updatePod/deletePod).
import { refs } from '../../api/index.ts';
import type { Endpoints, Pod, Service } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson, isApiError, jsonEqual, keyOf, splitObjectKey } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { endpointLabels, managesEndpoints, podEndpoints, selects, servicesTouched } from '../service-endpoints.ts';
import { endpointSubsets } from './subsets.ts';

export type EndpointsControllerOptions = ControllerOptions;

const byNamespace = 'namespace';

export class EndpointsController {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #workers: number;
  readonly #pods: Informer<Pod>;
  readonly #services: Informer<Service>;
  readonly #endpoints: Informer<Endpoints>;
  readonly #queue: WorkQueue<string>;

  constructor(options: EndpointsControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#services = informerFor<Service>(options.informers, { client, ref: refs.services, clock, log });
    this.#endpoints = informerFor<Endpoints>(options.informers, { client, ref: refs.endpoints, clock, log });
    this.#pods.addIndex(byNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#services.addIndex(byNamespace, (s) => [s.metadata.namespace ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    this.#services.addHandlers({ onAdd: (s) => this.#queue.add(keyOf(s)), onUpdate: (_o, s) => this.#queue.add(keyOf(s)), onDelete: (s) => this.#queue.add(keyOf(s)) });
    this.#pods.addHandlers({
      onAdd: (p) => this.#podChanged(undefined, p),
      onUpdate: (o, p) => this.#podChanged(o, p),
      onDelete: (p) => this.#podChanged(undefined, p),
    });
  }

  start(): void {
    runWhenSynced([this.#pods, this.#services, this.#endpoints], this.#queue, this.#workers, (key) => this.#sync(key), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#pods, this.#services, this.#endpoints]) i.stop();
  }

  #podChanged(old: DeepReadonly<Pod> | undefined, pod: DeepReadonly<Pod>): void {
    for (const svc of servicesTouched(this.#services.byIndex(byNamespace, pod.metadata.namespace ?? ''), old, pod)) this.#queue.add(keyOf(svc));
  }

  async #sync(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const svc = this.#services.get(key);
    const current = this.#endpoints.get(key);
    if (!svc) {
      // The Service is gone: so is its Endpoints object (it has no owner reference).
      if (current) await this.#client.delete(refs.endpoints, namespace, name).catch((error: unknown) => {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      });
      return;
    }
    if (!managesEndpoints(svc)) return;
    const pods = this.#pods.byIndex(byNamespace, namespace).filter((p) => selects(svc, p));
    const subsets = endpointSubsets(podEndpoints(svc, pods, false), svc.spec?.ports?.length ?? 0);
    const labels = endpointLabels(svc);
    if (current && jsonEqual(current.subsets ?? [], subsets) && jsonEqual(current.metadata.labels ?? {}, labels)) return;
    const body: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, ...(Object.keys(labels).length ? { labels } : {}) }, ...(subsets.length ? { subsets } : {}) };
    if (!current) {
      await this.#client.create(refs.endpoints, body, { namespace }).catch((error: unknown) => {
        if (!(isApiError(error) && error.reason === 'AlreadyExists')) throw error;
      });
      return;
    }
    const next = copyJson(current) as Endpoints;
    next.metadata.labels = labels;
    if (subsets.length) next.subsets = subsets;
    else delete next.subsets;
    await this.#client.update(refs.endpoints, next);
  }
}
