// Upstream's controller-manager roles: a ClusterRole system:controller:<name> per controller, bound to the
// kube-system ServiceAccount <name> the controller runs as; the set of a 1.35 API server with the cluster's feature gates.
// Upstream: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go @003e3121c8bd, checked against
// testdata/controller-roles.yaml @008b3652959c and controller-role-bindings.yaml @0158d1b41c02. Those golden files
// are later (1.36+): they drop the Portworx `get services` rules and add gated rules off in 1.35
// (pvc-protection's claims/status, resource-claim's resourceclaims/binding). device-taint-eviction-controller's
// role is the golden file's: 1.35 moved its DeviceTaintRule rules behind DRADeviceTaintRules (kubernetes#135068),
// which @003e3121c8bd predates.
// Off by default in 1.35 and not served by Drydock, so absent: podcertificaterequestcleaner,
// kube-apiserver-serving-clustertrustbundle-publisher, storage-version-garbage-collector and
// storage-version-migrator-controller.
import type { FeatureGate, FeatureGates, ResourceRef } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { clusterRole, clusterRoleBinding, eventWrite, read, readUpdate, serviceAccount } from './bootstrap-rbac.ts';
import type { Rule } from './bootstrap-rbac.ts';

const events: Rule = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: eventWrite };
const readWriteNoCollection = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const core = (resources: string[], verbs: string[]): Rule => ({ apiGroups: [''], resources, verbs });
const group = (apiGroup: string, resources: string[], verbs: string[]): Rule => ({ apiGroups: [apiGroup], resources, verbs });
const appsExt = (resources: string[], verbs: string[]): Rule => ({ apiGroups: ['apps', 'extensions'], resources, verbs });

/** Each controller's rules, in controller_policy.go's order, and the feature gate its role needs, if any. */
const controllers: [string, Rule[], FeatureGate?][] = [
  ['attachdetach-controller', [
    core(['persistentvolumeclaims', 'persistentvolumes'], ['list', 'watch']),
    core(['nodes'], read),
    core(['nodes/status'], ['patch', 'update']),
    core(['pods'], ['list', 'watch']),
    events,
    group('storage.k8s.io', ['volumeattachments'], ['create', 'delete', 'get', 'list', 'watch']),
    group('storage.k8s.io', ['csidrivers'], read),
    group('storage.k8s.io', ['csinodes'], read),
  ]],
  ['clusterrole-aggregation-controller', [
    group('rbac.authorization.k8s.io', ['clusterroles'], ['escalate', 'get', 'list', 'patch', 'update', 'watch']),
  ]],
  ['cronjob-controller', [
    group('batch', ['cronjobs'], ['get', 'list', 'update', 'watch']),
    group('batch', ['jobs'], readWriteNoCollection),
    group('batch', ['cronjobs/status'], ['update']),
    group('batch', ['cronjobs/finalizers'], ['update']),
    core(['pods'], ['delete', 'list', 'watch']),
    events,
  ]],
  ['daemon-set-controller', [
    appsExt(['daemonsets'], read),
    appsExt(['daemonsets/status'], ['update']),
    appsExt(['daemonsets/finalizers'], ['update']),
    core(['nodes'], ['list', 'watch']),
    core(['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
    core(['pods/binding'], ['create']),
    group('apps', ['controllerrevisions'], readWriteNoCollection),
    events,
  ]],
  ['deployment-controller', [
    appsExt(['deployments'], ['get', 'list', 'update', 'watch']),
    appsExt(['deployments/status'], ['update']),
    appsExt(['deployments/finalizers'], ['update']),
    appsExt(['replicasets'], readWriteNoCollection),
    core(['pods'], ['get', 'list', 'update', 'watch']),
    events,
  ]],
  ['disruption-controller', [
    appsExt(['deployments'], read),
    appsExt(['replicasets'], read),
    core(['replicationcontrollers'], read),
    group('policy', ['poddisruptionbudgets'], read),
    group('apps', ['statefulsets'], read),
    group('policy', ['poddisruptionbudgets/status'], ['update']),
    core(['pods/status'], ['patch', 'update']),
    group('*', ['*/scale'], ['get']),
    events,
  ]],
  ['endpoint-controller', [
    core(['pods', 'services'], read),
    core(['endpoints'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    core(['endpoints/restricted'], ['create']),
    events,
  ]],
  ['endpointslice-controller', [
    core(['nodes', 'pods', 'services'], read),
    core(['services/finalizers'], ['update']),
    group('discovery.k8s.io', ['endpointslices'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    events,
  ]],
  ['endpointslicemirroring-controller', [
    core(['endpoints', 'services'], read),
    core(['services/finalizers'], ['update']),
    core(['endpoints/finalizers'], ['update']),
    group('discovery.k8s.io', ['endpointslices'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    events,
  ]],
  ['expand-controller', [
    core(['persistentvolumes'], readUpdate),
    core(['persistentvolumeclaims/status'], ['patch', 'update']),
    core(['persistentvolumeclaims'], read),
    events,
    core(['services'], ['get']), // the in-tree Portworx plugin (removed in 1.36)
  ]],
  ['ephemeral-volume-controller', [
    core(['pods'], read),
    core(['pods/finalizers'], ['update']),
    core(['persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
    events,
  ]],
  // DynamicResourceAllocation (GA, on).
  ['resource-claim-controller', [
    core(['pods'], read),
    core(['pods/finalizers'], ['update']),
    group('resource.k8s.io', ['resourceclaims'], ['create', 'delete', 'get', 'list', 'watch']),
    group('resource.k8s.io', ['resourceclaims', 'resourceclaims/status'], ['patch', 'update']),
    core(['pods/status'], ['patch', 'update']),
    events,
  ]],
  // DRADeviceTaints (alpha in 1.35, on in Drydock), which kube-controller-manager also needs to run the
  // controller. DeviceTaintRules' read and status rules come only with DRADeviceTaintRules (alpha, not served).
  ['device-taint-eviction-controller', [
    core(['pods'], ['delete', 'get', 'list', 'watch']),
    core(['pods/status'], ['patch', 'update']),
    group('resource.k8s.io', ['resourceclaims'], read),
    group('resource.k8s.io', ['resourceslices'], read),
    group('resource.k8s.io', ['deviceclasses'], read),
    events,
  ], 'DRADeviceTaints'],
  ['generic-garbage-collector', [
    group('*', ['*'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
    events,
  ]],
  ['horizontal-pod-autoscaler', [
    group('autoscaling', ['horizontalpodautoscalers'], read),
    group('autoscaling', ['horizontalpodautoscalers/status'], ['update']),
    group('*', ['*/scale'], ['get', 'update']),
    core(['pods'], ['list', 'watch']),
    group('metrics.k8s.io', ['pods'], ['list', 'watch']),
    group('custom.metrics.k8s.io', ['*'], read),
    group('external.metrics.k8s.io', ['*'], read),
    events,
  ]],
  ['job-controller', [
    group('batch', ['jobs'], readUpdate),
    group('batch', ['jobs/status'], ['update']),
    group('batch', ['jobs/finalizers'], ['update']),
    core(['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
    events,
  ]],
  ['namespace-controller', [
    core(['namespaces'], ['delete', 'get', 'list', 'watch']),
    core(['namespaces/finalize', 'namespaces/status'], ['update']),
    group('*', ['*'], ['delete', 'deletecollection', 'get', 'list', 'watch']),
  ]],
  ['node-controller', [
    core(['nodes'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
    core(['nodes/status'], ['patch', 'update']),
    core(['pods/status'], ['patch', 'update']),
    core(['pods'], ['delete', 'get', 'list', 'watch']),
    events,
  ]],
  ['persistent-volume-binder', [
    core(['persistentvolumes'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    core(['persistentvolumes/status'], ['update']),
    core(['persistentvolumeclaims'], ['get', 'list', 'update', 'watch']),
    core(['persistentvolumeclaims/status'], ['update']),
    core(['pods'], ['create', 'delete', 'get', 'list', 'watch']),
    group('storage.k8s.io', ['storageclasses'], read),
    core(['nodes'], ['list', 'watch']),
    events,
    core(['events'], ['watch']), // the recycler watches its pod's events
    core(['services'], ['get']), // the in-tree Portworx plugin (removed in 1.36)
  ]],
  ['pod-garbage-collector', [
    core(['pods'], ['delete', 'list', 'watch']),
    core(['nodes'], read),
    core(['pods/status'], ['patch']),
  ]],
  ['replicaset-controller', [
    appsExt(['replicasets'], ['get', 'list', 'update', 'watch']),
    appsExt(['replicasets/status'], ['update']),
    appsExt(['replicasets/finalizers'], ['update']),
    core(['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
    events,
  ]],
  ['replication-controller', [
    core(['replicationcontrollers'], ['get', 'list', 'update', 'watch']),
    core(['replicationcontrollers/status'], ['update']),
    core(['replicationcontrollers/finalizers'], ['update']),
    core(['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
    events,
  ]],
  ['resourcequota-controller', [
    group('*', ['*'], ['list', 'watch']),
    core(['resourcequotas/status'], ['update']),
    events,
  ]],
  ['route-controller', [
    core(['nodes'], ['list', 'watch']),
    core(['nodes/status'], ['patch']),
    events,
  ]],
  ['service-account-controller', [
    core(['serviceaccounts'], ['create']),
    events,
  ]],
  ['service-controller', [
    core(['services'], read),
    core(['services/status'], ['patch', 'update']),
    core(['nodes'], ['list', 'watch']),
    events,
  ]],
  // MultiCIDRServiceAllocator (GA, on).
  ['service-cidrs-controller', [
    group('networking.k8s.io', ['servicecidrs'], readUpdate),
    group('networking.k8s.io', ['servicecidrs/finalizers'], ['patch', 'update']),
    group('networking.k8s.io', ['servicecidrs/status'], ['patch', 'update']),
    group('networking.k8s.io', ['ipaddresses'], read),
    events,
  ]],
  ['statefulset-controller', [
    core(['pods'], ['list', 'watch']),
    group('apps', ['statefulsets'], read),
    group('apps', ['statefulsets/status'], ['update']),
    group('apps', ['statefulsets/finalizers'], ['update']),
    core(['pods'], ['create', 'delete', 'get', 'patch', 'update']),
    group('apps', ['controllerrevisions'], readWriteNoCollection),
    core(['persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
    core(['persistentvolumeclaims'], ['delete', 'update']),
    core(['pods/finalizers'], ['update']),
    events,
  ]],
  ['ttl-controller', [
    core(['nodes'], ['list', 'patch', 'update', 'watch']),
    events,
  ]],
  ['certificate-controller', [
    group('certificates.k8s.io', ['certificatesigningrequests'], ['delete', 'get', 'list', 'watch']),
    group('certificates.k8s.io', ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], ['update']),
    { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'], verbs: ['approve'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'], verbs: ['sign'] },
    group('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
    events,
  ]],
  ['pvc-protection-controller', [
    core(['persistentvolumeclaims'], ['get', 'list', 'update', 'watch']),
    core(['pods'], read),
    events,
  ]],
  ['pv-protection-controller', [
    core(['persistentvolumes'], ['get', 'list', 'update', 'watch']),
    events,
  ]],
  // VolumeAttributesClass (GA, on).
  ['volumeattributesclass-protection-controller', [
    core(['persistentvolumeclaims'], read),
    core(['persistentvolumes'], read),
    group('storage.k8s.io', ['volumeattributesclasses'], ['get', 'list', 'update', 'watch']),
    events,
  ]],
  ['ttl-after-finished-controller', [
    group('batch', ['jobs'], ['delete', 'get', 'list', 'watch']),
    events,
  ]],
  ['root-ca-cert-publisher', [
    core(['configmaps'], ['create', 'update']),
    events,
  ]],
  ['validatingadmissionpolicy-status-controller', [
    group('admissionregistration.k8s.io', ['validatingadmissionpolicies'], read),
    group('admissionregistration.k8s.io', ['validatingadmissionpolicies/status'], ['get', 'patch', 'update']),
    events,
  ]],
  ['legacy-service-account-token-cleaner', [
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-apiserver-legacy-service-account-token-tracking'], verbs: ['get'] },
    core(['secrets'], ['delete', 'patch']),
  ]],
  // SELinuxChangePolicy (beta, on).
  ['selinux-warning-controller', [
    events,
    core(['persistentvolumes'], read),
    core(['persistentvolumeclaims'], read),
    core(['pods'], read),
    group('storage.k8s.io', ['csidrivers'], read),
  ]],
];

/** The controllers whose roles the API server bootstraps with these feature gates. */
function enabledControllers(gates: FeatureGates): [string, Rule[]][] {
  return controllers.filter(([, , gate]) => gate === undefined || gates[gate]).map(([name, rules]) => [name, rules]);
}

/**
 * The kube-system ServiceAccounts kube-controller-manager creates as it starts each controller with its
 * own credentials (--use-service-account-credentials): every controller above but the cloud provider's
 * (route, service), which run only with one, and selinux-warning-controller, disabled by default.
 */
export function controllerServiceAccountNames(gates: FeatureGates): string[] {
  const notStarted = new Set(['route-controller', 'service-controller', 'selinux-warning-controller']);
  return enabledControllers(gates).map(([name]) => name).filter((name) => !notStarted.has(name));
}

/** The controller roles, then their bindings (as ControllerRoles() and ControllerRoleBindings() list them). */
export function controllerPolicy(gates: FeatureGates): [ResourceRef, KubeObject][] {
  const enabled = enabledControllers(gates);
  return [
    ...enabled.map(([name, rules]) => clusterRole(`system:controller:${name}`, rules)),
    ...enabled.map(([name]) => clusterRoleBinding(`system:controller:${name}`, serviceAccount('kube-system', name))),
  ];
}
