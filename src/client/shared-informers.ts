// One informer per resource (and selectors) for all the controllers of one program, as
// kube-controller-manager's SharedInformerFactory gives them: one list, one watch and one cache
// instead of one per controller, each controller adding its handlers and indexes.
// Upstream: staging/src/k8s.io/client-go/informers/factory.go.
import type { KubeObject } from '../core/index.ts';
import { Informer } from './informer.ts';
import type { InformerOptions } from './informer.ts';

export class SharedInformers {
  readonly #informers = new Map<string, Informer>();

  /** The informer for these options' resource and selectors, made with these options on first ask. */
  informer<T extends KubeObject>(options: InformerOptions): Informer<T> {
    const { ref, namespace, labelSelector, fieldSelector } = options;
    const key = JSON.stringify([ref.group, ref.version, ref.resource, namespace ?? '', labelSelector ?? '', fieldSelector ?? '']);
    let informer = this.#informers.get(key);
    if (!informer) this.#informers.set(key, (informer = new Informer({ ...options, shared: true })));
    return informer as unknown as Informer<T>;
  }
}

/** A component's informer: the program's shared one when it has a factory, else its own. */
export function informerFor<T extends KubeObject>(factory: SharedInformers | undefined, options: InformerOptions): Informer<T> {
  return factory ? factory.informer<T>(options) : new Informer<T>(options);
}
