// The EndpointSlice controller: keeps each selecting Service's EndpointSlices (labelled
// kubernetes.io/service-name and managed-by endpointslice-controller.k8s.io, owned by the Service)
// equal to the endpoints of the pods it selects.
// Upstream: pkg/controller/endpointslice/endpointslice_controller.go (syncService, onPod*/onService*),
// reconciler.go (reconcile, finalize).
import { endpointSliceControllerName, managedByLabel, refs, serviceNameLabel } from '../../api/index.ts';
import type { EndpointSlice, Node, Pod, Service } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson, isApiError, jsonEqual, keyOf, objectKey, splitObjectKey } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { endpointLabels, managesEndpoints, podEndpoints, selects, servicesTouched } from '../service-endpoints.ts';
import { desiredSlices } from './desired.ts';
import type { DesiredSlice } from './desired.ts';

export type EndpointSliceControllerOptions = ControllerOptions;

type ReadonlyService = DeepReadonly<Service>;
type ReadonlySlice = DeepReadonly<EndpointSlice>;

const byNamespace = 'namespace';
const byService = 'service';

export class EndpointSliceController {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #workers: number;
  readonly #pods: Informer<Pod>;
  readonly #services: Informer<Service>;
  readonly #slices: Informer<EndpointSlice>;
  readonly #nodes: Informer<Node>;
  readonly #queue: WorkQueue<string>;
  /** Slices created per service that the cache has not shown yet (upstream's endpointSliceTracker): no sync until it has, or a second copy would be made. */
  readonly #created = new Map<string, Set<string>>();

  constructor(options: EndpointSliceControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#workers = options.workers ?? 5;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#services = informerFor<Service>(options.informers, { client, ref: refs.services, clock, log });
    this.#slices = informerFor<EndpointSlice>(options.informers, { client, ref: refs.endpointSlices, clock, log, labelSelector: `${managedByLabel}=${endpointSliceControllerName}` });
    this.#nodes = informerFor<Node>(options.informers, { client, ref: refs.nodes, clock, log });
    this.#pods.addIndex(byNamespace, (p) => [p.metadata.namespace ?? '']);
    this.#services.addIndex(byNamespace, (s) => [s.metadata.namespace ?? '']);
    this.#slices.addIndex(byService, (s) => [objectKey(s.metadata.namespace, s.metadata.labels?.[serviceNameLabel] ?? '')]);
    this.#queue = new WorkQueue<string>({ clock });
    this.#services.addHandlers({ onAdd: (s) => this.#queue.add(keyOf(s)), onUpdate: (_o, s) => this.#queue.add(keyOf(s)), onDelete: (s) => this.#queue.add(keyOf(s)) });
    this.#pods.addHandlers({
      onAdd: (p) => this.#podChanged(undefined, p),
      onUpdate: (o, p) => this.#podChanged(o, p),
      onDelete: (p) => this.#podChanged(undefined, p),
    });
    this.#slices.addHandlers({
      onDelete: (s) => {
        const key = objectKey(s.metadata.namespace, s.metadata.labels?.[serviceNameLabel] ?? '');
        this.#created.get(key)?.delete(s.metadata.name ?? '');
        this.#queue.add(key);
      },
    });
  }

  start(): void {
    runWhenSynced([this.#pods, this.#services, this.#slices, this.#nodes], this.#queue, this.#workers, (key) => this.#sync(key), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#pods, this.#services, this.#slices, this.#nodes]) i.stop();
  }

  #podChanged(old: DeepReadonly<Pod> | undefined, pod: DeepReadonly<Pod>): void {
    for (const svc of servicesTouched(this.#services.byIndex(byNamespace, pod.metadata.namespace ?? ''), old, pod)) this.#queue.add(keyOf(svc));
  }

  async #sync(key: string): Promise<void> {
    const created = this.#created.get(key);
    if (created) {
      if ([...created].some((name) => !this.#slices.getByName(splitObjectKey(key).namespace, name))) return this.#queue.addAfter(key, 50);
      this.#created.delete(key);
    }
    const svc = this.#services.get(key);
    // A deleted Service's slices go with it through their owner reference.
    if (!svc || !managesEndpoints(svc) || svc.metadata.deletionTimestamp) return;
    const pods = this.#pods.byIndex(byNamespace, svc.metadata.namespace ?? '').filter((p) => selects(svc, p));
    const desired = desiredSlices(podEndpoints(svc, pods, true), (name) => this.#nodes.getByName(undefined, name));
    const existing = [...this.#slices.byIndex(byService, key)].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    await this.#reconcile(svc, desired, existing);
  }

  /** Reuses existing slices in order (updated only when they differ), creates the rest, deletes leftovers. */
  async #reconcile(svc: ReadonlyService, desired: readonly DesiredSlice[], existing: readonly ReadonlySlice[]): Promise<void> {
    const labels = { ...endpointLabels(svc), [serviceNameLabel]: svc.metadata.name ?? '', [managedByLabel]: endpointSliceControllerName };
    const ns = svc.metadata.namespace ?? '';
    for (let i = 0; i < desired.length; i++) {
      const want = desired[i] as DesiredSlice;
      const body = { addressType: 'IPv4' as const, endpoints: want.endpoints.length > 0 ? want.endpoints : null, ...(want.ports.length > 0 ? { ports: want.ports } : {}) };
      const have = existing[i];
      if (!have) {
        const slice: EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { generateName: `${svc.metadata.name ?? ''}-`, namespace: ns, labels, ownerReferences: [newControllerRef(svc, 'v1', 'Service')] }, ...body };
        const made = await this.#client.create<EndpointSlice>(refs.endpointSlices, slice, { namespace: ns });
        const key = objectKey(ns, svc.metadata.name ?? '');
        this.#created.set(key, new Set([...(this.#created.get(key) ?? []), made.metadata.name ?? '']));
        continue;
      }
      const same = jsonEqual(have.endpoints ?? null, body.endpoints) && jsonEqual(have.ports ?? [], want.ports) && jsonEqual(have.metadata.labels ?? {}, labels);
      if (same) continue;
      const { ports: _old, ...rest } = copyJson(have) as EndpointSlice;
      await this.#client.update(refs.endpointSlices, { ...rest, metadata: { ...rest.metadata, labels }, ...body });
    }
    for (const extra of existing.slice(desired.length)) {
      try {
        await this.#client.delete(refs.endpointSlices, extra.metadata.namespace, extra.metadata.name ?? '');
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
  }
}
