// Objects every cluster starts with, created through the API like any client would:
// the system namespaces, the system PriorityClasses, the kubernetes Service, the default
// StorageClass, RBAC's cluster-admin role bound to system:masters (the kubeconfig user's group) and
// the roles every authenticated user holds (discovery, whoami and can-i, health and version).
import { refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import type { Client } from '../client/index.ts';
import type { ResourceRef } from '../api/index.ts';

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export const defaultStorageClassName = 'standard';

const rbacDefaults = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoUpdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

/** A bootstrap ClusterRole and the ClusterRoleBinding of the same name that grants it to `groups`. */
function systemRole(name: string, rules: Record<string, string[]>[], groups: string[]): [ResourceRef, KubeObject][] {
  const metadata = { name, labels: rbacDefaults, annotations: autoUpdate };
  return [
    [refs.clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata, rules }],
    [refs.clusterRoleBindings, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: groups.map((group) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group })),
    }],
  ];
}

function bootstrapObjects(): [ResourceRef, KubeObject][] {
  const objects: [ResourceRef, KubeObject][] = systemNamespaces.map((name) => [refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }]);
  objects.push(
    [refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.' }],
    [refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' }],
    [refs.services, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None' },
    }],
    // Upstream's bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the role manifests
    // bind to with --clusterrole=cluster-admin, and the binding that makes system:masters all-powerful.
    [refs.clusterRoles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cluster-admin', labels: rbacDefaults, annotations: autoUpdate },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }],
    }],
    [refs.clusterRoleBindings, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'cluster-admin', labels: rbacDefaults, annotations: autoUpdate },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }],
    }],
    // What every authenticated user may do (upstream's policy): discover the API, read the public
    // health and version paths, and ask about themselves (whoami, can-i).
    ...systemRole('system:discovery', [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] }], ['system:authenticated']),
    ...systemRole('system:basic-user', [
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ], ['system:authenticated']),
    ...systemRole('system:public-info-viewer', [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }], ['system:authenticated', 'system:unauthenticated']),
    [refs.storageClasses, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: defaultStorageClassName, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'drydock.dev/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    }],
  );
  return objects;
}

/** Creates what is missing; existing objects (a restart with --data-dir) are left alone. */
export async function bootstrapCluster(client: Client, extra: readonly [ResourceRef, KubeObject][] = []): Promise<void> {
  for (const [ref, obj] of [...bootstrapObjects(), ...extra]) {
    try {
      // Looked up first: admission (a taken cluster IP, say) would reject a re-create before
      // storage could answer AlreadyExists.
      await client.get(ref, obj.metadata.namespace, obj.metadata.name ?? '');
      continue;
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
    try {
      await client.create(ref, obj);
    } catch (error) {
      if (isApiError(error) && (error.reason === 'AlreadyExists' || error.reason === 'NotFound')) continue;
      throw error;
    }
  }
}
