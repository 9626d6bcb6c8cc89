// Delegated resources: read-only kinds another component serves (as an aggregated APIService does
// upstream, e.g. metrics-server behind metrics.k8s.io). They appear in discovery like any kind;
// get and list ask the provider instead of storage, through the same pipeline for HTTP and LocalClient.
// Upstream: kube-aggregator/pkg/apiserver/handler_proxy.go (the proxying we replace with a call).
import type { ResourceDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { KeyValue } from '../storage/index.ts';
import type { ListPage } from './list.ts';
import type { Selection } from './selection.ts';
import { encodeForStorage, storageKey } from './stored-object.ts';

export interface DelegatedResource {
  readonly def: ResourceDefinition;
  /** The object, or throw an ApiError (NotFound with the provider's own wording). */
  get(namespace: string, name: string): KubeObject | Promise<KubeObject>;
  /** Every object, in one namespace ('' = all namespaces, or a cluster-scoped kind). */
  list(namespace: string): readonly KubeObject[] | Promise<readonly KubeObject[]>;
}

/** A page of provider objects shaped as stored values, so every encoder downstream is unchanged. */
export async function delegatedList(d: DelegatedResource, namespace: string, selection: Selection, revision: number): Promise<ListPage> {
  const items: KeyValue[] = [];
  for (const obj of await d.list(namespace)) {
    if (!selection.matches(obj)) continue;
    const key = storageKey({ group: d.def.group, resource: d.def.resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
    items.push({ key, value: encodeForStorage(obj), createRevision: revision, modRevision: revision });
  }
  return { items, revision, continue: '', remainingItemCount: undefined };
}
