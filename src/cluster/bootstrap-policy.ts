// Upstream's bootstrap RBAC policy, the part a user meets: cluster-admin for system:masters; the roles
// every authenticated user holds (discovery, whoami and can-i, health and version); system:auth-delegator
// (TokenReview and SubjectAccessReview, for proxies that authenticate their callers); and the
// user-facing `admin`, `edit` and `view` roles, filled by the aggregation controller from the
// `system:aggregate-to-*` roles (and from any role a CRD's installer labels the same way). The system
// components' roles and the kube-system Roles come from bootstrap-component-roles.ts, the controller manager's
// system:controller:* roles from bootstrap-controller-roles.ts.
// Upstream: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (testdata/cluster-roles.yaml).
import type { FeatureGates, ResourceRef } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { aggregateTo, clusterRole, clusterRoleBinding, groups, read, readWrite, write } from './bootstrap-rbac.ts';
import type { Rule } from './bootstrap-rbac.ts';
import { systemComponentPolicy } from './bootstrap-component-roles.ts';
import { controllerPolicy } from './bootstrap-controller-roles.ts';

const aggregateToAdmin: Rule[] = [
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: readWrite },
];

const aggregateToEdit: Rule[] = [
  { apiGroups: [''], resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], verbs: read },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], verbs: write },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: [''], resources: ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], verbs: write },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], verbs: write },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: write },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: write },
  { apiGroups: ['extensions'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], verbs: write },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: write },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: write },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: readWrite },
  // 1.33+ (DRA user RBAC): edit may read claims and templates and write them.
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates'], verbs: read },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceclaimtemplates'], verbs: write },
];

const aggregateToView: Rule[] = [
  { apiGroups: [''], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], verbs: read },
  { apiGroups: [''], resources: ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], verbs: read },
  { apiGroups: [''], resources: ['namespaces'], verbs: read },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: read },
  { apiGroups: ['apps'], resources: ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], verbs: read },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], verbs: read },
  { apiGroups: ['batch'], resources: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], verbs: read },
  { apiGroups: ['extensions'], resources: ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], verbs: read },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: read },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'ingresses/status', 'networkpolicies'], verbs: read },
];

export function bootstrapPolicy(gates: FeatureGates): [ResourceRef, KubeObject][] {
  return [
    clusterRole('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]),
    clusterRoleBinding('cluster-admin', groups('system:masters')),
    clusterRole('system:discovery', [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] }]),
    clusterRoleBinding('system:discovery', groups('system:authenticated')),
    clusterRole('system:basic-user', [
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]),
    clusterRoleBinding('system:basic-user', groups('system:authenticated')),
    clusterRole('system:auth-delegator', [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]),
    clusterRole('system:public-info-viewer', [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }]),
    clusterRoleBinding('system:public-info-viewer', groups('system:authenticated', 'system:unauthenticated')),
    clusterRole('admin', undefined, {}, 'admin'),
    clusterRole('edit', undefined, aggregateTo('admin'), 'edit'),
    clusterRole('view', undefined, aggregateTo('edit'), 'view'),
    clusterRole('system:aggregate-to-admin', aggregateToAdmin, aggregateTo('admin')),
    clusterRole('system:aggregate-to-edit', aggregateToEdit, aggregateTo('edit')),
    clusterRole('system:aggregate-to-view', aggregateToView, aggregateTo('view')),
    ...systemComponentPolicy(),
    ...controllerPolicy(gates),
  ];
}
