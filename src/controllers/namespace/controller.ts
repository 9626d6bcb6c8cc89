// The namespace controller: empties a namespace that is being deleted, reports what remains in
// its status conditions, then removes the `kubernetes` finalizer through /finalize so the API
// server can remove the Namespace.
// Upstream: pkg/controller/namespace/{namespace_controller.go,deletion/namespaced_resources_deleter.go}.
import { refs } from '../../api/index.ts';
import type { Clock, KubeObject } from '../../core/index.ts';
import { formatTime, isApiError } from '../../core/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import { deletionConditions } from './conditions.ts';
import type { ContentRemaining, NamespaceCondition } from './conditions.ts';

export interface NamespaceControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

interface NamespaceObject extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

const finalizerName = 'kubernetes';
const recheckMs = 1000;

export class NamespaceController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #informer: Informer<NamespaceObject>;
  readonly #queue: WorkQueue<string>;

  constructor(options: NamespaceControllerOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
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
    const content = await this.#deleteContent(name);
    const latest = await this.#reportConditions(ns, content);
    if (!latest) return;
    if (content.byResource.size > 0 || content.deleteErrors.length > 0) {
      // Objects with finalizers or graceful pods are still going; look again shortly.
      this.#queue.addAfter(name, recheckMs);
      return;
    }
    const finalizers = (latest.spec?.finalizers ?? []).filter((f) => f !== finalizerName);
    try {
      await this.#client.update(refs.namespaces, { ...latest, spec: { ...latest.spec, finalizers } }, { subresource: 'finalize' });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
  }

  /** Deletes every namespaced object in the namespace; returns what is still there, and what failed. */
  async #deleteContent(namespace: string): Promise<ContentRemaining> {
    const byResource = new Map<string, number>();
    const byFinalizer = new Map<string, number>();
    const deleteErrors: string[] = [];
    for (const resource of await this.#client.discover()) {
      if (!resource.namespaced || !resource.verbs.includes('list') || !resource.verbs.includes('delete')) continue;
      const ref = { group: resource.group, version: resource.version, resource: resource.resource };
      // events.k8s.io serves the same objects as core events.
      if (resource.group === 'events.k8s.io') continue;
      try {
        for (const item of (await this.#client.list(ref, { namespace })).items) {
          const left = item.metadata.deletionTimestamp ? item : await this.#deleteItem(ref, namespace, item);
          if (!left) continue;
          // As upstream names them: `pods.` for the core group.
          const key = `${resource.resource}.${resource.group}`;
          byResource.set(key, (byResource.get(key) ?? 0) + 1);
          for (const f of left.metadata.finalizers ?? []) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + 1);
        }
      } catch (error) {
        deleteErrors.push(error instanceof Error ? error.message : String(error));
      }
    }
    return { byResource, byFinalizer, deleteErrors };
  }

  /** The object when its deletion is pending (finalizers, a grace period), undefined once it is gone. */
  async #deleteItem(ref: { group: string; version: string; resource: string }, namespace: string, item: KubeObject): Promise<KubeObject | undefined> {
    try {
      const result = await this.#client.delete(ref, namespace, item.metadata.name ?? '', { propagationPolicy: 'Background' });
      return result.kind === 'Status' ? undefined : (result as KubeObject);
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return undefined;
      throw error;
    }
  }

  /**
   * Writes the deletion conditions when they changed, on the live namespace after a conflict;
   * returns the namespace as it now is (what /finalize must name), undefined once it is gone.
   */
  async #reportConditions(cached: NamespaceObject, content: ContentRemaining): Promise<NamespaceObject | undefined> {
    let ns = cached;
    for (let attempt = 0; ; attempt++) {
      const conditions = deletionConditions(ns.status?.conditions ?? [], content, formatTime(this.#clock.now()));
      if (!conditions) return ns;
      try {
        return await this.#client.updateStatus<NamespaceObject>(refs.namespaces, { ...ns, status: { ...ns.status, conditions } });
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') return undefined;
        if (!(isApiError(error) && error.reason === 'Conflict') || attempt > 0) throw error;
        ns = await this.#client.get<NamespaceObject>(refs.namespaces, undefined, ns.metadata.name ?? '');
      }
    }
  }
}
