// Which of a kubelet's pods mount each ConfigMap and Secret (as a volume or a projected source), so a
// change or deletion of one reaches its pods without a walk over every pod on the node: the index
// upstream's configmap and secret managers keep as pods register. A pod's volumes never change.
// Upstream: pkg/kubelet/util/manager (RegisterPod, UnregisterPod, getReferencedObjects).
import type { Pod } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

export type VolumeSourceKind = 'configMap' | 'secret';

/** The `kind/namespace/name` keys of the ConfigMaps and Secrets `pod`'s volumes read. */
function sourceKeys(pod: DeepReadonly<Pod>): string[] {
  const namespace = pod.metadata.namespace ?? '';
  const keys = new Set<string>();
  const add = (kind: VolumeSourceKind, name: string | undefined): void => {
    if (name) keys.add(`${kind}/${namespace}/${name}`);
  };
  for (const v of pod.spec.volumes ?? []) {
    add('configMap', v.configMap?.name);
    add('secret', v.secret?.secretName);
    for (const p of v.projected?.sources ?? []) {
      add('configMap', p.configMap?.name);
      add('secret', p.secret?.name);
    }
  }
  return [...keys];
}

export class VolumeSourceIndex<W> {
  readonly #byKey = new Map<string, Set<W>>();

  add(worker: W, pod: DeepReadonly<Pod>): void {
    for (const key of sourceKeys(pod)) {
      let set = this.#byKey.get(key);
      if (!set) this.#byKey.set(key, (set = new Set()));
      set.add(worker);
    }
  }

  remove(worker: W, pod: DeepReadonly<Pod>): void {
    for (const key of sourceKeys(pod)) {
      const set = this.#byKey.get(key);
      if (!set) continue;
      set.delete(worker);
      if (set.size === 0) this.#byKey.delete(key);
    }
  }

  /** The pods that mount config map or secret `namespace/name`, optional or not. */
  mounting(kind: VolumeSourceKind, namespace: string, name: string): Iterable<W> {
    return this.#byKey.get(`${kind}/${namespace}/${name}`) ?? [];
  }
}
