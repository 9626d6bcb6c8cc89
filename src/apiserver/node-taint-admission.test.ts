// TaintNodesByCondition as `kubectl create -f node.yaml` meets it: a new Node carries
// node.kubernetes.io/not-ready:NoSchedule after its own taints, once, and only at creation.
// In-process cluster, no components (no node controller to lift the taint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Node, Taint } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock } from '../core/index.ts';

const node = (name: string, taints?: Taint[]): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...(taints ? { spec: { taints } } : {}) });
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

test('a created node is tainted not-ready:NoSchedule after its own taints, unless it already has that key and effect', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const bare = await client.create<Node>(refs.nodes, node('bare'));
  assert.deepEqual(bare.spec?.taints, [notReady]);
  const dedicated = await client.create<Node>(refs.nodes, node('dedicated', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]));
  assert.deepEqual(dedicated.spec?.taints, [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, notReady]);
  // MatchTaint compares key and effect: a value of its own keeps the node's taint as it is.
  const own = await client.create<Node>(refs.nodes, node('own', [{ key: 'node.kubernetes.io/not-ready', value: 'mine', effect: 'NoSchedule' }]));
  assert.deepEqual(own.spec?.taints, [{ key: 'node.kubernetes.io/not-ready', value: 'mine', effect: 'NoSchedule' }]);
  assert.deepEqual((await client.get<Node>(refs.nodes, undefined, 'bare')).spec?.taints, [notReady], 'stored as answered');
});

test('updates leave a node untainted: the taint is the creation\'s only', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const created = await client.create<Node>(refs.nodes, node('n1'));
  assert.deepEqual(created.spec?.taints, [notReady]);
  const untainted = await client.update<Node>(refs.nodes, { ...created, spec: { ...created.spec, taints: [] } });
  assert.deepEqual(untainted.spec?.taints ?? [], []);
  const relabelled = await client.update<Node>(refs.nodes, { ...untainted, metadata: { ...untainted.metadata, labels: { tier: 'a' } } });
  assert.deepEqual(relabelled.spec?.taints ?? [], []);
  const status = await client.updateStatus<Node>(refs.nodes, { ...relabelled, status: { conditions: [{ type: 'Ready', status: 'False' }] } });
  assert.deepEqual(status.spec?.taints ?? [], []);
});

test('disabled by name, as kube-apiserver --disable-admission-plugins=TaintNodesByCondition: nodes are created as sent', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false, disableAdmissionPlugins: ['TaintNodesByCondition'] });
  const created = await cluster.client.create<Node>(refs.nodes, node('plain'));
  assert.equal(created.spec?.taints, undefined);
});

test('an unknown plugin name stops the start with upstream\'s message', async () => {
  await assert.rejects(
    Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false, disableAdmissionPlugins: ['TaintNodesByConditions'] }),
    { message: 'disable-admission-plugins plugin "TaintNodesByConditions" is unknown' },
  );
});
