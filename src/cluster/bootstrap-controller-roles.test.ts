import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates, refs, ruleAllows, upstreamFeatureGateDefaults } from '../api/index.ts';
import type { PolicyRule } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';
import { bootstrapPolicy } from './bootstrap-policy.ts';
import { controllerPolicy, controllerServiceAccountNames } from './bootstrap-controller-roles.ts';

type Role = KubeObject & { rules: PolicyRule[] };
type Binding = KubeObject & { roleRef: { apiGroup: string; kind: string; name: string }; subjects: { kind: string; name: string; namespace?: string; apiGroup?: string }[] };

const objects = controllerPolicy(defaultFeatureGates).map(([, obj]) => obj);
const roles = objects.filter((o): o is Role => o.kind === 'ClusterRole');
const bindings = objects.filter((o): o is Binding => o.kind === 'ClusterRoleBinding');
const role = (controller: string): Role => {
  const found = roles.find((r) => r.metadata.name === `system:controller:${controller}`);
  assert.ok(found, controller);
  return found;
};
/** Whether the controller's role lets it do verb on group/resource[/subresource] (any namespace, any name unless given). */
const can = (controller: string, verb: string, apiGroup: string, resource: string, subresource = '', name = ''): boolean =>
  role(controller).rules.some((rule) => ruleAllows({ resourceRequest: true, verb, apiGroup, resource, subresource, namespace: 'ml', name }, rule));

test("the deployment controller may update a Deployment's status, create ReplicaSets and write events, but not touch Secrets", () => {
  assert.ok(can('deployment-controller', 'update', 'apps', 'deployments', 'status'));
  assert.ok(can('deployment-controller', 'update', 'apps', 'deployments', 'finalizers'));
  assert.ok(can('deployment-controller', 'create', 'apps', 'replicasets'));
  assert.ok(can('deployment-controller', 'delete', 'apps', 'replicasets'));
  assert.ok(can('deployment-controller', 'create', '', 'events'));
  assert.ok(can('deployment-controller', 'patch', 'events.k8s.io', 'events'));
  assert.ok(!can('deployment-controller', 'create', '', 'pods'));
  assert.ok(!can('deployment-controller', 'get', '', 'secrets'));
  assert.ok(!can('deployment-controller', 'update', 'apps', 'replicasets', 'status'));
});

test('other controllers hold what their work needs and no more', () => {
  assert.ok(can('replicaset-controller', 'create', '', 'pods'));
  assert.ok(can('replicaset-controller', 'update', 'apps', 'replicasets', 'status'));
  assert.ok(can('job-controller', 'update', 'batch', 'jobs', 'status'));
  assert.ok(can('job-controller', 'delete', '', 'pods'));
  assert.ok(can('daemon-set-controller', 'create', '', 'pods', 'binding'));
  assert.ok(can('statefulset-controller', 'create', '', 'persistentvolumeclaims'));
  assert.ok(can('disruption-controller', 'get', 'apps', 'deployments', 'scale'));
  assert.ok(can('horizontal-pod-autoscaler', 'update', 'apps', 'deployments', 'scale'));
  assert.ok(can('horizontal-pod-autoscaler', 'list', 'metrics.k8s.io', 'pods'));
  assert.ok(can('resource-claim-controller', 'create', 'resource.k8s.io', 'resourceclaims'));
  assert.ok(can('resource-claim-controller', 'patch', 'resource.k8s.io', 'resourceclaims', 'status'));
  assert.ok(can('device-taint-eviction-controller', 'delete', '', 'pods'));
  assert.ok(can('device-taint-eviction-controller', 'patch', '', 'pods', 'status'));
  assert.ok(can('device-taint-eviction-controller', 'watch', 'resource.k8s.io', 'resourceslices'));
  assert.ok(!can('device-taint-eviction-controller', 'update', 'resource.k8s.io', 'resourceclaims'));
  assert.ok(can('generic-garbage-collector', 'delete', 'example.com', 'widgets'));
  assert.ok(!can('generic-garbage-collector', 'create', 'example.com', 'widgets'));
  assert.ok(can('namespace-controller', 'deletecollection', 'apps', 'deployments'));
  assert.ok(can('clusterrole-aggregation-controller', 'escalate', 'rbac.authorization.k8s.io', 'clusterroles'));
  assert.ok(can('certificate-controller', 'sign', 'certificates.k8s.io', 'signers', '', 'kubernetes.io/kubelet-serving'));
  assert.ok(!can('certificate-controller', 'approve', 'certificates.k8s.io', 'signers', '', 'kubernetes.io/kubelet-serving'));
  assert.ok(can('legacy-service-account-token-cleaner', 'get', '', 'configmaps', '', 'kube-apiserver-legacy-service-account-token-tracking'));
  assert.ok(!can('legacy-service-account-token-cleaner', 'get', '', 'configmaps', '', 'kube-root-ca.crt'));
  assert.ok(!can('pod-garbage-collector', 'create', '', 'events'), 'the pod GC writes no events');
});

test("1.35's GA and default-on controllers have roles; DRADeviceTaints, on in Drydock, adds the device taint eviction controller's", () => {
  const names = roles.map((r) => r.metadata.name);
  for (const on of ['resource-claim-controller', 'device-taint-eviction-controller', 'service-cidrs-controller', 'volumeattributesclass-protection-controller', 'selinux-warning-controller', 'validatingadmissionpolicy-status-controller', 'legacy-service-account-token-cleaner']) {
    assert.ok(names.includes(`system:controller:${on}`), on);
  }
  for (const off of ['podcertificaterequestcleaner', 'kube-apiserver-serving-clustertrustbundle-publisher', 'storage-version-garbage-collector', 'storage-version-migrator-controller']) {
    assert.ok(!names.includes(`system:controller:${off}`), off);
  }
  assert.equal(roles.length, 38);
  assert.equal(bindings.length, 38);
  // With upstream's defaults (DRADeviceTaints alpha, off) neither the role, its binding nor its ServiceAccount is there.
  const upstream = controllerPolicy(upstreamFeatureGateDefaults).map(([, obj]) => obj.metadata.name);
  assert.equal(upstream.length, 2 * 37);
  assert.ok(!upstream.includes('system:controller:device-taint-eviction-controller'));
  assert.ok(controllerServiceAccountNames(defaultFeatureGates).includes('device-taint-eviction-controller'));
  assert.ok(!controllerServiceAccountNames(upstreamFeatureGateDefaults).includes('device-taint-eviction-controller'));
});

test("each binding binds the controller's kube-system service account to the ClusterRole of its name", () => {
  assert.deepEqual(bindings.map((b) => b.metadata.name), roles.map((r) => r.metadata.name));
  for (const b of bindings) {
    const controller = (b.metadata.name ?? '').replace(/^system:controller:/, '');
    assert.deepEqual(b.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: b.metadata.name });
    assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: controller, namespace: 'kube-system' }]);
  }
  const deployment = bindings.find((b) => b.metadata.name === 'system:controller:deployment-controller');
  assert.deepEqual(deployment?.subjects, [{ kind: 'ServiceAccount', name: 'deployment-controller', namespace: 'kube-system' }]);
});

test('roles and bindings carry the bootstrap label and the autoupdate annotation', () => {
  for (const o of objects) {
    assert.equal(o.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.deepEqual(o.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, o.metadata.name);
    assert.deepEqual(o.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, o.metadata.name);
  }
});

test('only the controllers that act on any kind (namespace deletion, GC, quota, HPA and PDB scale) hold a star', () => {
  const allowStar = new Set(['namespace-controller', 'generic-garbage-collector', 'resourcequota-controller', 'horizontal-pod-autoscaler', 'disruption-controller'].map((n) => `system:controller:${n}`));
  for (const r of roles) {
    if (allowStar.has(r.metadata.name ?? '')) continue;
    for (const rule of r.rules) {
      for (const field of [rule.verbs, rule.apiGroups ?? [], rule.resources ?? []]) assert.ok(!field.includes('*'), `${r.metadata.name}: ${JSON.stringify(rule)}`);
    }
  }
});

test('verbs, groups, resources and names are sorted, as the golden file shows them', () => {
  const sorted = (list: readonly string[] | undefined): boolean => (list ?? []).every((v, i, all) => i === 0 || (all[i - 1] ?? '') < v);
  for (const r of roles) {
    for (const rule of r.rules) {
      assert.ok(sorted(rule.verbs) && sorted(rule.apiGroups) && sorted(rule.resources) && sorted(rule.resourceNames), `${r.metadata.name}: ${JSON.stringify(rule)}`);
    }
  }
});

// Copied from testdata/controller-roles.yaml (@008b3652959c; these roles are unchanged since 1.35).
test('a sample of roles matches the golden file rule for rule', () => {
  const events = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] };
  assert.deepEqual(role('deployment-controller').rules, [
    { apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get', 'list', 'update', 'watch'] },
    { apiGroups: ['apps', 'extensions'], resources: ['deployments/status'], verbs: ['update'] },
    { apiGroups: ['apps', 'extensions'], resources: ['deployments/finalizers'], verbs: ['update'] },
    { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'update', 'watch'] },
    events,
  ]);
  assert.deepEqual(role('certificate-controller').rules, [
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['delete', 'get', 'list', 'watch'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update'] },
    { apiGroups: ['certificates.k8s.io'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'], resources: ['signers'], verbs: ['approve'] },
    { apiGroups: ['certificates.k8s.io'], resourceNames: ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'], resources: ['signers'], verbs: ['sign'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    events,
  ]);
  assert.deepEqual(role('statefulset-controller').rules, [
    { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['statefulsets/status'], verbs: ['update'] },
    { apiGroups: ['apps'], resources: ['statefulsets/finalizers'], verbs: ['update'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['create', 'get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['delete', 'update'] },
    { apiGroups: [''], resources: ['pods/finalizers'], verbs: ['update'] },
    events,
  ]);
  assert.deepEqual(role('horizontal-pod-autoscaler').rules, [
    { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers/status'], verbs: ['update'] },
    { apiGroups: ['*'], resources: ['*/scale'], verbs: ['get', 'update'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
    { apiGroups: ['metrics.k8s.io'], resources: ['pods'], verbs: ['list', 'watch'] },
    { apiGroups: ['custom.metrics.k8s.io'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['external.metrics.k8s.io'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
    events,
  ]);
  assert.deepEqual(role('legacy-service-account-token-cleaner').rules, [
    { apiGroups: [''], resourceNames: ['kube-apiserver-legacy-service-account-token-tracking'], resources: ['configmaps'], verbs: ['get'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['delete', 'patch'] },
  ]);
  assert.deepEqual(role('selinux-warning-controller').rules, [
    events,
    { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: ['get', 'list', 'watch'] },
  ]);
  assert.deepEqual(role('device-taint-eviction-controller').rules, [
    { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
    { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'], verbs: ['get', 'list', 'watch'] },
    events,
  ]);
  assert.deepEqual(role('service-cidrs-controller').rules, [
    { apiGroups: ['networking.k8s.io'], resources: ['servicecidrs'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
    { apiGroups: ['networking.k8s.io'], resources: ['servicecidrs/finalizers'], verbs: ['patch', 'update'] },
    { apiGroups: ['networking.k8s.io'], resources: ['servicecidrs/status'], verbs: ['patch', 'update'] },
    { apiGroups: ['networking.k8s.io'], resources: ['ipaddresses'], verbs: ['get', 'list', 'watch'] },
    events,
  ]);
});

// 1.35 still has the in-tree Portworx plugin (removed in 1.36, after the golden file above was cut from 1.35's rules).
test('the 1.35 volume controllers keep the Portworx plugin\'s `get services`', () => {
  assert.deepEqual(role('expand-controller').rules.at(-1), { apiGroups: [''], resources: ['services'], verbs: ['get'] });
  assert.deepEqual(role('persistent-volume-binder').rules.slice(-2), [
    { apiGroups: [''], resources: ['events'], verbs: ['watch'] },
    { apiGroups: [''], resources: ['services'], verbs: ['get'] },
  ]);
});

test('across the whole bootstrap policy no name repeats, and every ClusterRoleBinding names a ClusterRole that exists', () => {
  const all = bootstrapPolicy(defaultFeatureGates).map(([, obj]) => obj);
  const keys = all.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  assert.equal(new Set(keys).size, keys.length, keys.filter((k, i) => keys.indexOf(k) !== i).join(', '));
  const clusterRoles = new Set(all.filter((o) => o.kind === 'ClusterRole').map((o) => o.metadata.name));
  for (const b of all.filter((o): o is Binding => o.kind === 'ClusterRoleBinding')) {
    assert.equal(b.roleRef.kind, 'ClusterRole');
    assert.ok(clusterRoles.has(b.roleRef.name), `${b.metadata.name} -> ${b.roleRef.name}`);
  }
  // The namespaced system:controller:* Roles (bootstrap-signer, token-cleaner, ...) stay Roles.
  assert.ok(keys.includes('Role/kube-system/system:controller:bootstrap-signer'));
  assert.ok(!keys.includes('ClusterRole//system:controller:bootstrap-signer'));
});

test('a started cluster has the kube-system ServiceAccount of every controller the controller manager runs, each bound to its role', async () => {
  const clock = new VirtualClock();
  const c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(3), components: true });
  try {
    await clock.until(async () => (await c.client.list(refs.serviceAccounts, { namespace: 'kube-system' })).items.length > 30, 'the controller service accounts');
    const accounts = (await c.client.list(refs.serviceAccounts, { namespace: 'kube-system' })).items.map((sa) => sa.metadata.name ?? '');
    for (const name of ['default', 'deployment-controller', 'replicaset-controller', 'generic-garbage-collector', 'resource-claim-controller', 'device-taint-eviction-controller', 'namespace-controller']) assert.ok(accounts.includes(name), name);
    assert.ok(!accounts.includes('route-controller'), 'the cloud controllers run only with a cloud provider');
    const binding = await c.client.get<Binding>(refs.clusterRoleBindings, undefined, 'system:controller:deployment-controller');
    assert.deepEqual(binding.subjects, [{ kind: 'ServiceAccount', name: 'deployment-controller', namespace: 'kube-system' }]);
  } finally {
    await c.stop();
  }
});
