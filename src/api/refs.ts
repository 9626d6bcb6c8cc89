// GroupVersionResources of the built-in kinds, as components address them through the Client.
import type { ResourceRef } from './resource.ts';

function ref(group: string, version: string, resource: string): ResourceRef {
  return Object.freeze({ group, version, resource });
}

export const refs = {
  namespaces: ref('', 'v1', 'namespaces'),
  pods: ref('', 'v1', 'pods'),
  nodes: ref('', 'v1', 'nodes'),
  events: ref('', 'v1', 'events'),
  configMaps: ref('', 'v1', 'configmaps'),
  limitRanges: ref('', 'v1', 'limitranges'),
  secrets: ref('', 'v1', 'secrets'),
  services: ref('', 'v1', 'services'),
  serviceAccounts: ref('', 'v1', 'serviceaccounts'),
  persistentVolumes: ref('', 'v1', 'persistentvolumes'),
  persistentVolumeClaims: ref('', 'v1', 'persistentvolumeclaims'),
  endpoints: ref('', 'v1', 'endpoints'),
  resourceQuotas: ref('', 'v1', 'resourcequotas'),
  clusterRoles: ref('rbac.authorization.k8s.io', 'v1', 'clusterroles'),
  clusterRoleBindings: ref('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings'),
  roles: ref('rbac.authorization.k8s.io', 'v1', 'roles'),
  roleBindings: ref('rbac.authorization.k8s.io', 'v1', 'rolebindings'),
  endpointSlices: ref('discovery.k8s.io', 'v1', 'endpointslices'),
  eventsV1: ref('events.k8s.io', 'v1', 'events'),
  deployments: ref('apps', 'v1', 'deployments'),
  replicaSets: ref('apps', 'v1', 'replicasets'),
  daemonSets: ref('apps', 'v1', 'daemonsets'),
  statefulSets: ref('apps', 'v1', 'statefulsets'),
  controllerRevisions: ref('apps', 'v1', 'controllerrevisions'),
  jobs: ref('batch', 'v1', 'jobs'),
  cronJobs: ref('batch', 'v1', 'cronjobs'),
  leases: ref('coordination.k8s.io', 'v1', 'leases'),
  storageClasses: ref('storage.k8s.io', 'v1', 'storageclasses'),
  priorityClasses: ref('scheduling.k8s.io', 'v1', 'priorityclasses'),
  runtimeClasses: ref('node.k8s.io', 'v1', 'runtimeclasses'),
  ingresses: ref('networking.k8s.io', 'v1', 'ingresses'),
  ingressClasses: ref('networking.k8s.io', 'v1', 'ingressclasses'),
  networkPolicies: ref('networking.k8s.io', 'v1', 'networkpolicies'),
  workloads: ref('scheduling.k8s.io', 'v1alpha1', 'workloads'),
  podDisruptionBudgets: ref('policy', 'v1', 'poddisruptionbudgets'),
  deviceClasses: ref('resource.k8s.io', 'v1', 'deviceclasses'),
  resourceSlices: ref('resource.k8s.io', 'v1', 'resourceslices'),
  resourceClaims: ref('resource.k8s.io', 'v1', 'resourceclaims'),
  resourceClaimTemplates: ref('resource.k8s.io', 'v1', 'resourceclaimtemplates'),
} as const;
