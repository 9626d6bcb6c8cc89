// The service account controller: every active namespace has a `default` ServiceAccount, made again
// if it is deleted, so pods that name none (the admission plugin gives them `default`) have one.
// Upstream: pkg/controller/serviceaccount/serviceaccounts_controller.go (syncNamespace).
import { refs } from '../../api/index.ts';
import type { Namespace, ServiceAccount } from '../../api/index.ts';
import { hasStatusCause, isApiError, namespaceTerminatingCause } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';

export type ServiceAccountsControllerOptions = ControllerOptions;

/** The accounts ensured in every namespace (upstream's DefaultServiceAccountsControllerOptions). */
const serviceAccountsToEnsure = ['default'];

export class ServiceAccountsController {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #namespaces: Informer<Namespace>;
  readonly #serviceAccounts: Informer<ServiceAccount>;
  readonly #queue: WorkQueue<string>;

  constructor(options: ServiceAccountsControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#namespaces = informerFor<Namespace>(options.informers, { client, ref: refs.namespaces, clock, log });
    this.#serviceAccounts = informerFor<ServiceAccount>(options.informers, { client, ref: refs.serviceAccounts, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    const enqueue = (ns: Namespace): void => this.#queue.add(ns.metadata.name ?? '');
    this.#namespaces.addHandlers({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
    this.#serviceAccounts.addHandlers({ onDelete: (sa) => this.#queue.add(sa.metadata.namespace ?? '') });
  }

  start(): void {
    runWhenSynced([this.#namespaces, this.#serviceAccounts], this.#queue, 1, (name) => this.syncNamespace(name), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#namespaces, this.#serviceAccounts]) i.stop();
  }

  async syncNamespace(namespace: string): Promise<void> {
    const ns = this.#namespaces.getByName(undefined, namespace);
    // Nothing is made in a namespace that is going away.
    if (ns?.status?.phase !== 'Active') return;
    for (const name of serviceAccountsToEnsure) {
      if (this.#serviceAccounts.getByName(namespace, name)) continue;
      try {
        await this.#client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
      } catch (error) {
        if (isApiError(error) && error.reason === 'AlreadyExists') continue;
        if (hasStatusCause(error, namespaceTerminatingCause)) continue;
        throw error;
      }
    }
  }
}
