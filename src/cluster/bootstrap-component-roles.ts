// Upstream's bootstrap ClusterRoles for the system's own components and their bindings: the
// scheduler (what a second scheduler, such as a gang scheduler, is bound to), the controller manager,
// the kubelet's system:node, kube-proxy, DNS, monitoring, service-account issuer discovery, the
// CertificateSigningRequest approvers, and the roles add-ons bind to; and the Roles of kube-system
// and kube-public (extension-apiserver-authentication-reader, which aggregated API servers such
// as metrics-server are bound to, and the leader-election locks). The rules are those of a 1.35
// API server with its default feature gates (DRA on: the scheduler reads device classes and slices
// and writes claim status).
// Upstream: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (ClusterRoles, ClusterRoleBindings,
// NamespaceRoles, NamespaceRoleBindings).
import type { ResourceRef } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { clusterRole, clusterRoleBinding, eventWrite, groups, read, readUpdate, role, roleBinding, serviceAccount, user } from './bootstrap-rbac.ts';
import type { Rule } from './bootstrap-rbac.ts';

const eventsWrite: Rule = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: eventWrite };
const reviews: Rule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];
/** Leader election: any lease may be created, the component's own read and renewed. */
const leaderLease = (name: string): Rule[] => [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [name], verbs: ['get', 'update'] },
];

const kubeScheduler: Rule[] = [
  eventsWrite,
  ...leaderLease('kube-scheduler'),
  { apiGroups: [''], resources: ['nodes'], verbs: read },
  { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['bindings', 'pods/binding'], verbs: ['create'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
  { apiGroups: [''], resources: ['replicationcontrollers', 'services'], verbs: read },
  { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: read },
  { apiGroups: ['apps'], resources: ['statefulsets'], verbs: read },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: read },
  { apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'], verbs: read },
  ...reviews,
  { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: read },
  { apiGroups: [''], resources: ['namespaces'], verbs: read },
  { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: read },
  { apiGroups: ['storage.k8s.io'], resources: ['csistoragecapacities'], verbs: read },
  { apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'], verbs: read },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: readUpdate },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: readUpdate },
  { apiGroups: [''], resources: ['pods/finalizers'], verbs: readUpdate },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: read },
];

const kubeControllerManager: Rule[] = [
  eventsWrite,
  ...leaderLease('kube-controller-manager'),
  { apiGroups: [''], resources: ['secrets', 'serviceaccounts'], verbs: ['create'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['delete'] },
  { apiGroups: [''], resources: ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], verbs: ['get'] },
  { apiGroups: [''], resources: ['secrets', 'serviceaccounts'], verbs: ['update'] },
  ...reviews,
  { apiGroups: ['*'], resources: ['*'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
];

const node: Rule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews', 'subjectaccessreviews'], verbs: ['create'] },
  { apiGroups: [''], resources: ['services'], verbs: read },
  { apiGroups: [''], resources: ['nodes'], verbs: ['create', 'get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['patch', 'update'] },
  { apiGroups: [''], resources: ['events'], verbs: eventWrite },
  { apiGroups: [''], resources: ['pods'], verbs: read },
  { apiGroups: [''], resources: ['pods'], verbs: ['create', 'delete'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: read },
  { apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'], verbs: ['get'] },
  { apiGroups: [''], resources: ['endpoints'], verbs: ['get'] },
  { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'patch', 'update'] },
  { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get'] },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: [''], resources: ['persistentvolumeclaims/status'], verbs: ['get', 'patch', 'update'] },
  { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: read },
  { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['create', 'delete', 'get', 'patch', 'update'] },
  { apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: read },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['deletecollection'] },
];

/** Leader election's locks: the leases, and the candidates coordinated election lists. */
const leaderLocking: Rule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'list', 'update', 'watch'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leasecandidates'], verbs: ['create', 'get', 'list', 'update', 'watch'] },
];

/** Upstream's namespaced bootstrap roles (NamespaceRoles, NamespaceRoleBindings) in kube-system and kube-public. */
function namespacePolicy(): [ResourceRef, KubeObject][] {
  const bootstrapSigner = serviceAccount('kube-system', 'bootstrap-signer');
  return [
    role('kube-public', 'system:controller:bootstrap-signer', [
      { apiGroups: [''], resources: ['configmaps'], verbs: read },
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['update'] },
      eventsWrite,
    ]),
    roleBinding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', bootstrapSigner),
    role('kube-system', 'extension-apiserver-authentication-reader', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: read }]),
    roleBinding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [...user('system:kube-controller-manager'), ...user('system:kube-scheduler')]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', leaderLocking),
    roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
      ...user('system:kube-controller-manager'), ...serviceAccount('kube-system', 'kube-controller-manager'), ...serviceAccount('kube-system', 'leader-election-controller'),
    ]),
    role('kube-system', 'system::leader-locking-kube-scheduler', leaderLocking),
    roleBinding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [...user('system:kube-scheduler'), ...serviceAccount('kube-system', 'kube-scheduler')]),
    role('kube-system', 'system:controller:bootstrap-signer', [{ apiGroups: [''], resources: ['secrets'], verbs: read }]),
    roleBinding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', bootstrapSigner),
    role('kube-system', 'system:controller:cloud-provider', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list', 'watch'] }]),
    roleBinding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', serviceAccount('kube-system', 'cloud-provider')),
    role('kube-system', 'system:controller:token-cleaner', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['delete', 'get', 'list', 'watch'] },
      eventsWrite,
    ]),
    roleBinding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', serviceAccount('kube-system', 'token-cleaner')),
  ];
}

/** A CSR approver of one signer. */
const approver = (signer: string): Rule[] => [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: [signer], verbs: ['approve'] }];

export function systemComponentPolicy(): [ResourceRef, KubeObject][] {
  return [
    clusterRole('system:kube-scheduler', kubeScheduler),
    clusterRoleBinding('system:kube-scheduler', user('system:kube-scheduler')),
    clusterRole('system:volume-scheduler', [
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: readUpdate },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: read },
      { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: readUpdate },
    ]),
    clusterRoleBinding('system:volume-scheduler', user('system:kube-scheduler')),
    clusterRole('system:kube-controller-manager', kubeControllerManager),
    clusterRoleBinding('system:kube-controller-manager', user('system:kube-controller-manager')),
    // The Node authorizer grants kubelets their access; the binding is kept for compatibility, bound to no one.
    clusterRole('system:node', node),
    clusterRoleBinding('system:node', []),
    clusterRole('system:node-proxier', [
      { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: read },
      eventsWrite,
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
    ]),
    clusterRoleBinding('system:node-proxier', user('system:kube-proxy')),
    clusterRole('system:kube-dns', [{ apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['list', 'watch'] }]),
    clusterRoleBinding('system:kube-dns', [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]),
    clusterRole('system:monitoring', [{ nonResourceURLs: ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], verbs: ['get'] }]),
    clusterRoleBinding('system:monitoring', groups('system:monitoring')),
    clusterRole('system:service-account-issuer-discovery', [{ nonResourceURLs: ['/.well-known/openid-configuration', '/openid/v1/jwks'], verbs: ['get'] }]),
    clusterRoleBinding('system:service-account-issuer-discovery', groups('system:serviceaccounts')),
    clusterRole('system:node-bootstrapper', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] }]),
    clusterRole('system:node-problem-detector', [
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      eventsWrite,
    ]),
    clusterRole('system:persistent-volume-provisioner', [
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['create', 'delete', 'get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'update', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: read },
      { apiGroups: [''], resources: ['events'], verbs: ['watch'] },
      eventsWrite,
    ]),
    clusterRole('system:kubelet-api-admin', [
      { apiGroups: [''], resources: ['nodes'], verbs: read },
      { apiGroups: [''], resources: ['nodes'], verbs: ['proxy'] },
      { apiGroups: [''], resources: ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'], verbs: ['*'] },
    ]),
    clusterRole('system:heapster', [
      { apiGroups: [''], resources: ['events', 'namespaces', 'nodes', 'pods'], verbs: read },
      { apiGroups: ['extensions'], resources: ['deployments'], verbs: read },
    ]),
    clusterRole('system:kube-aggregator', [{ apiGroups: [''], resources: ['endpoints', 'services'], verbs: read }]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/nodeclient'], verbs: ['create'] }]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/selfnodeclient'], verbs: ['create'] }]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', approver('kubernetes.io/kube-apiserver-client')),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', approver('kubernetes.io/kube-apiserver-client-kubelet')),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', approver('kubernetes.io/kubelet-serving')),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', approver('kubernetes.io/legacy-unknown')),
    ...namespacePolicy(),
  ];
}
