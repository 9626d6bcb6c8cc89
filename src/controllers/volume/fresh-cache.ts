// An informer view that also remembers the controller's own writes until the watch catches
// up, so the next sync never acts on (and conflicts with) an older copy of what it just wrote.
// Upstream: pkg/controller/volume/persistentvolume/pv_controller_base.go (storeVolumeUpdate,
// storeClaimUpdate: the controller's private caches, updated after every successful write).
import type { Informer } from '../../client/index.ts';
import type { DeepReadonly, KubeObject } from '../../core/index.ts';
import { keyOf } from '../../core/index.ts';

const rv = (o: { metadata: { resourceVersion?: string | undefined } } | undefined): number => Number(o?.metadata.resourceVersion ?? 0);

export class FreshCache<T extends KubeObject> {
  readonly #informer: Informer<T>;
  readonly #written = new Map<string, DeepReadonly<T>>();

  constructor(informer: Informer<T>) {
    this.#informer = informer;
  }

  get(key: string): DeepReadonly<T> | undefined {
    const seen = this.#informer.get(key) as DeepReadonly<T> | undefined;
    const mine = this.#written.get(key);
    if (!mine) return seen;
    if (!seen || rv(seen) >= rv(mine)) {
      this.#written.delete(key);
      return seen;
    }
    return mine;
  }

  list(): DeepReadonly<T>[] {
    return this.#informer.list().map((o) => this.get(keyOf(o)) ?? (o as DeepReadonly<T>));
  }

  store(obj: T | DeepReadonly<T>): void {
    this.#written.set(keyOf(obj), obj as DeepReadonly<T>);
  }

  forget(key: string): void {
    this.#written.delete(key);
  }
}
