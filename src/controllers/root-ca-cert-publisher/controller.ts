// The root CA publisher: a ConfigMap `kube-root-ca.crt` in every namespace holding the CA bundle
// that verifies the API server, which every pod's projected kube-api-access volume mounts. It is put
// back when deleted and its data restored when edited.
// Upstream: pkg/controller/certificates/rootcacertpublisher/publisher.go (syncNamespace).
import { refs } from '../../api/index.ts';
import type { ConfigMap, Namespace } from '../../api/index.ts';
import { copyJson, hasStatusCause, isApiError, jsonEqual, namespaceTerminatingCause } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';

export interface RootCaCertPublisherOptions extends ControllerOptions {
  /** The PEM bundle clients verify the API server with (upstream: the controller's client CAData). */
  rootCA: string;
}

export const rootCaConfigMapName = 'kube-root-ca.crt';
const descriptionAnnotation = 'kubernetes.io/description';
const description = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export class RootCaCertPublisher {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #data: Record<string, string>;
  readonly #namespaces: Informer<Namespace>;
  readonly #configMaps: Informer<ConfigMap>;
  readonly #queue: WorkQueue<string>;

  constructor(options: RootCaCertPublisherOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#data = { 'ca.crt': options.rootCA };
    this.#namespaces = informerFor<Namespace>(options.informers, { client, ref: refs.namespaces, clock, log });
    this.#configMaps = informerFor<ConfigMap>(options.informers, { client, ref: refs.configMaps, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    this.#namespaces.addHandlers({
      onAdd: (ns) => this.#queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === 'Active') this.#queue.add(ns.metadata.name ?? '');
      },
    });
    const published = (cm: ConfigMap): void => {
      if (cm.metadata.name === rootCaConfigMapName) this.#queue.add(cm.metadata.namespace ?? '');
    };
    this.#configMaps.addHandlers({ onUpdate: (_old, cm) => published(cm), onDelete: published });
  }

  start(): void {
    runWhenSynced([this.#namespaces, this.#configMaps], this.#queue, 1, (namespace) => this.syncNamespace(namespace), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    for (const i of [this.#namespaces, this.#configMaps]) i.stop();
  }

  async syncNamespace(namespace: string): Promise<void> {
    const current = this.#configMaps.getByName(namespace, rootCaConfigMapName);
    if (!current) {
      const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCaConfigMapName, namespace, annotations: { [descriptionAnnotation]: description } }, data: { ...this.#data } };
      try {
        await this.#client.create(refs.configMaps, cm);
      } catch (error) {
        // Not retried when the namespace is gone or going.
        if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'AlreadyExists')) return;
        if (hasStatusCause(error, namespaceTerminatingCause)) return;
        throw error;
      }
      return;
    }
    if (jsonEqual(current.data ?? {}, this.#data) && current.metadata.annotations?.[descriptionAnnotation]) return;
    const next = copyJson(current) as ConfigMap;
    next.data = { ...this.#data };
    next.metadata.annotations = { ...next.metadata.annotations, [descriptionAnnotation]: description };
    await this.#client.update(refs.configMaps, next);
  }
}
