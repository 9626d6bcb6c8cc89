// Scenario: the bootstrap admin/edit/view roles fill from the system:aggregate-to-* roles, chain
// (view into edit into admin), and take in a CRD installer's labelled role and let it go again.
// VirtualClock, in-process cluster (bootstrap policy), the aggregation controller only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { ClusterRole } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { VirtualClock } from '../../core/index.ts';
import { ClusterRoleAggregationController, aggregatedRules } from './controller.ts';

test('aggregatedRules: matching roles by name, each rule once, never the role itself', () => {
  const role = (name: string, labels: Record<string, string>, rules: NonNullable<ClusterRole['rules']>): ClusterRole => ({ metadata: { name, labels }, rules });
  const monitoring: ClusterRole = { metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] }, rules: [] };
  const label = { 'example.com/aggregate-to-monitoring': 'true' };
  const rules = aggregatedRules(monitoring, [
    // The same rule in another key order, and with an empty list where the first has none (Semantic.DeepEqual).
    role('z-metrics', label, [{ resources: ['pods'], apiGroups: ['metrics.k8s.io'], verbs: ['get'] }, { verbs: ['get'], apiGroups: ['metrics.k8s.io'], resources: ['pods'], resourceNames: [] }, { verbs: ['watch'], apiGroups: [''], resources: ['pods'] }]),
    role('a-pods', label, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: ['metrics.k8s.io'], resources: ['pods'] }]),
    role('unlabelled', {}, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    { ...monitoring, metadata: { name: 'monitoring', labels: label } },
  ]);
  assert.deepEqual(rules, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: ['metrics.k8s.io'], resources: ['pods'] }, { verbs: ['watch'], apiGroups: [''], resources: ['pods'] }]);
});

test('admin, edit and view fill from the aggregate-to roles and follow a labelled CRD role', async () => {
  const clock = new VirtualClock();
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  const rulesOf = async (name: string): Promise<NonNullable<ClusterRole['rules']>> => (await client.get<ClusterRole>(refs.clusterRoles, undefined, name)).rules ?? [];
  const controller = new ClusterRoleAggregationController({ client, clock, log: () => {} });
  controller.start();
  try {
    await clock.advance(100);
    const view = await rulesOf('view');
    const edit = await rulesOf('edit');
    const admin = await rulesOf('admin');
    assert.deepEqual(view, await rulesOf('system:aggregate-to-view'));
    assert.deepEqual(edit, [...(await rulesOf('system:aggregate-to-edit')), ...view], 'edit takes view in (name order: system:... before view)');
    assert.deepEqual(admin, [...edit, ...(await rulesOf('system:aggregate-to-admin'))], 'admin takes edit in');

    const crdRule = { verbs: ['get', 'list', 'watch'], apiGroups: ['kubeflow.org'], resources: ['pytorchjobs'] };
    await client.create(refs.clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'pytorchjobs-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [crdRule] });
    await clock.advance(100);
    for (const name of ['view', 'edit', 'admin']) assert.ok((await rulesOf(name)).some((r) => r.apiGroups?.includes('kubeflow.org')), `${name} has the CRD rule`);
    await client.delete(refs.clusterRoles, undefined, 'pytorchjobs-view');
    await clock.advance(100);
    for (const name of ['view', 'edit', 'admin']) assert.ok(!(await rulesOf(name)).some((r) => r.apiGroups?.includes('kubeflow.org')), `${name} let it go`);
  } finally {
    controller.stop();
  }
});
