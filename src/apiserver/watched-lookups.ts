// The namespace and service account admission reads on every pod create, and the node a pod created with
// spec.nodeName names, from store-watched copies as upstream's plugins read them from informers, asking the store only for one the copy lacks (not synced
// yet, or not seen yet: upstream's plugins look a lister miss up on the server too). Memory and sqlite
// deliver a write's event inside the write, so there the copy never lags the store.
// Upstream: plugin/pkg/admission/namespace/lifecycle/admission.go (Admit), plugin/pkg/admission/serviceaccount/admission.go (getServiceAccount),
// plugin/pkg/admission/podtopologylabels/admission.go (topologyLabelsForNodeName: the node lister).
import { boundedMemo } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import { watchedPerStore } from './admission-request.ts';
import type { ResourceStorage } from './resource-storage.ts';
import { storagePrefix } from './stored-object.ts';

type Found = KubeObject | undefined;

const namespacePrefix = storagePrefix('', 'namespaces', '');
const serviceAccountPrefix = storagePrefix('', 'serviceaccounts', '');
const nodePrefix = storagePrefix('', 'nodes', '');
const watchedOf = watchedPerStore({ namespaces: namespacePrefix, serviceAccounts: serviceAccountPrefix });
// Apart, so only a cluster that binds pods in admission (PodTopologyLabels) keeps a copy of its nodes.
const watchedNodesOf = watchedPerStore({ nodes: nodePrefix });

// A key built per write is a fresh string the map must hash again; a remembered one keeps its hash.
const namespaceKey = boundedMemo(10_000, (name: string) => namespacePrefix + name);
const nodeKey = boundedMemo(10_000, (name: string) => nodePrefix + name);
const defaultAccountKey = boundedMemo(10_000, (namespace: string) => `${serviceAccountPrefix}${namespace}/default`);

/** The namespace `name`: at once from the watched copy when it has it, else a lookup's promise. */
export function namespaceNow(storage: ResourceStorage, name: string): Found | Promise<Found> {
  const watched = watchedOf(storage.store);
  const found = watched.synced ? watched.maps.namespaces.get(namespaceKey(name)) : undefined;
  return found ?? storage.lookup('', 'v1', 'namespaces', '', name);
}

/** The service account `namespace/name`: at once from the watched copy when it has it, else a lookup's promise. */
export function serviceAccountNow(storage: ResourceStorage, namespace: string, name: string): Found | Promise<Found> {
  const watched = watchedOf(storage.store);
  const key = name === 'default' ? defaultAccountKey(namespace) : `${serviceAccountPrefix}${namespace}/${name}`;
  const found = watched.synced ? watched.maps.serviceAccounts.get(key) : undefined;
  return found ?? storage.lookup('', 'v1', 'serviceaccounts', namespace, name);
}

/**
 * The node `name`: from the watched copy once it is synced, a miss included (upstream's plugin reads
 * only its node lister, and takes NotFound as no node); before, a lookup's promise.
 */
export function nodeNow(storage: ResourceStorage, name: string): Found | Promise<Found> {
  const watched = watchedNodesOf(storage.store);
  return watched.synced ? watched.maps.nodes.get(nodeKey(name)) : storage.lookup('', 'v1', 'nodes', '', name);
}
