// The namespace controller: empties a namespace that is being deleted, then removes the
// `kubernetes` finalizer through /finalize so the API server can remove the Namespace.
// Upstream: pkg/controller/namespace/{namespace_controller.go,deletion/namespaced_resources_deleter.go}.
import { refs } from '../../api/index.ts';
import type { Clock, KubeObject } from '../../core/index.ts';
import { isApiError } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';

export interface NamespaceControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

interface NamespaceObject extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}

const finalizerName = 'kubernetes';
const recheckMs = 1000;

export class NamespaceController {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #informer: Informer<NamespaceObject>;
  readonly #queue: WorkQueue<string>;

  constructor(options: NamespaceControllerOptions) {
    this.#client = options.client;
    this.#log = options.log;
    this.#informer = informerFor<NamespaceObject>(options.informers, { client: options.client, ref: refs.namespaces, clock: options.clock, log: options.log });
    this.#queue = new WorkQueue<string>({ clock: options.clock, baseDelayMs: 100 });
    const enqueue = (ns: NamespaceObject): void => {
      if (ns.metadata.deletionTimestamp) this.#queue.add(ns.metadata.name ?? '');
    };
    this.#informer.addHandlers({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
  }

  start(): void {
    this.#informer.start();
    void runWorkers(this.#queue, 1, (name) => this.syncNamespace(name), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#informer.stop();
  }

  async syncNamespace(name: string): Promise<void> {
    const ns = this.#informer.getByName(undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    const remaining = await this.#deleteContent(name);
    if (remaining > 0) {
      // Objects with finalizers or graceful pods are still going; look again shortly.
      this.#queue.addAfter(name, recheckMs);
      return;
    }
    const finalizers = (ns.spec?.finalizers ?? []).filter((f) => f !== finalizerName);
    try {
      await this.#client.update(refs.namespaces, { ...ns, spec: { ...ns.spec, finalizers } }, { subresource: 'finalize' });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
  }

  /** Deletes every namespaced object in the namespace; returns how many still exist. */
  async #deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    for (const resource of await this.#client.discover()) {
      if (!resource.namespaced || !resource.verbs.includes('list') || !resource.verbs.includes('delete')) continue;
      const ref = { group: resource.group, version: resource.version, resource: resource.resource };
      // events.k8s.io serves the same objects as core events.
      if (resource.group === 'events.k8s.io') continue;
      const list = await this.#client.list(ref, { namespace });
      remaining += list.items.length;
      for (const item of list.items) {
        if (item.metadata.deletionTimestamp) continue;
        try {
          await this.#client.delete(ref, namespace, item.metadata.name ?? '', { propagationPolicy: 'Background' });
        } catch (error) {
          if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
        }
      }
    }
    return remaining;
  }
}
