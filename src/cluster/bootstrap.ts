// Objects every cluster starts with, created through the API like any client would:
// the system namespaces, the system PriorityClasses, the default ServiceCIDR, the kubernetes Service, the default
// StorageClass, and upstream's bootstrap RBAC policy (bootstrap-policy.ts).
import { defaultServiceCIDRName, defaultServiceClusterIPRange, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import type { Client } from '../client/index.ts';
import type { FeatureGates, ResourceRef } from '../api/index.ts';
import { bootstrapPolicy } from './bootstrap-policy.ts';
import { kubernetesService } from './kubernetes-service.ts';
import type { ClusterConfig } from './config.ts';

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export const defaultStorageClassName = 'standard';

function bootstrapObjects(gates: FeatureGates): [ResourceRef, KubeObject][] {
  const objects: [ResourceRef, KubeObject][] = systemNamespaces.map((name) => [refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }]);
  objects.push(
    [refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.' }],
    [refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' }],
    // The API server's default ServiceCIDR comes before anything allocates from it.
    [refs.serviceCIDRs, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: defaultServiceCIDRName }, spec: { cidrs: [defaultServiceClusterIPRange] } }],
    [refs.services, kubernetesService()],
    [refs.storageClasses, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: defaultStorageClassName, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'drydock.dev/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    }],
  );
  objects.push(...bootstrapPolicy(gates));
  return objects;
}

/**
 * The RuntimeClass the NVIDIA GPU operator installs on a GPU cluster, so manifests that ask for
 * `runtimeClassName: nvidia` run as they do there (simulated nodes run every handler alike).
 */
export function gpuRuntimeClasses(config: ClusterConfig): [ResourceRef, KubeObject][] {
  if (!config.nodePools.some((pool) => pool.gpus)) return [];
  return [[refs.runtimeClasses, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'nvidia' }, handler: 'nvidia' }]];
}

/** Creates what is missing; existing objects (a restart with --data-dir) are left alone. */
export async function bootstrapCluster(client: Client, gates: FeatureGates, extra: readonly [ResourceRef, KubeObject][] = []): Promise<void> {
  await createMissing(client, [...bootstrapObjects(gates), ...extra]);
}

/** Creates each object that does not exist yet, in order. */
export async function createMissing(client: Client, objects: readonly [ResourceRef, KubeObject][]): Promise<void> {
  // Looked up first: a re-create on restart would run admission (the kubernetes Service's taken
  // cluster IP, a user's webhooks) before storage could answer AlreadyExists. One list a kind and
  // namespace rather than a get an object: on a fresh store each get was a NotFound error built.
  const existing = await existingNames(client, objects);
  for (const [ref, obj] of objects) {
    if (existing.get(collectionKey(ref, obj))?.has(obj.metadata.name ?? '')) continue;
    try {
      await client.create(ref, obj);
    } catch (error) {
      if (isApiError(error) && (error.reason === 'AlreadyExists' || error.reason === 'NotFound')) continue;
      throw error;
    }
  }
}

function collectionKey(ref: ResourceRef, obj: KubeObject): string {
  return `${ref.group}/${ref.resource}/${obj.metadata.namespace ?? ''}`;
}

/** The names already stored in each collection the objects go to. */
async function existingNames(client: Client, objects: readonly [ResourceRef, KubeObject][]): Promise<Map<string, Set<string>>> {
  const names = new Map<string, Set<string>>();
  for (const [ref, obj] of objects) {
    const key = collectionKey(ref, obj);
    if (names.has(key)) continue;
    const namespace = obj.metadata.namespace;
    const list = await client.list(ref, namespace === undefined ? {} : { namespace });
    names.set(key, new Set(list.items.map((item) => item.metadata.name ?? '')));
  }
  return names;
}
