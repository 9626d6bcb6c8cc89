// PodTopologyLabels as a user sees it: a pod bound to a node (pods/binding with a Node target, or
// created with spec.nodeName) carries the node's zone and region labels, over its own; nothing else
// is copied, and nothing without the gate, a Node target or an existing node.
// In-process cluster, no components (the test binds as the scheduler does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates, refs } from '../api/index.ts';
import type { Binding, Node, Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import type { Client } from '../client/index.ts';
import { VirtualClock } from '../core/index.ts';

const zoneA = { 'topology.kubernetes.io/zone': 'eu-west-1a', 'topology.kubernetes.io/region': 'eu-west-1' };

async function startCluster(podTopologyLabels = true): Promise<Cluster> {
  const featureGates = { ...defaultFeatureGates, PodTopologyLabelsAdmission: podTopologyLabels };
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [], featureGates }, clock: new VirtualClock(), components: false });
  const labels = { ...zoneA, 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/rack': 'r7', tier: 'gpu' };
  await cluster.client.create<Node>(refs.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels } });
  return cluster;
}

const pod = (name: string, labels?: Record<string, string>, nodeName?: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) },
});

async function bind(client: Client, name: string, target: Binding['target']): Promise<Record<string, string> | undefined> {
  await client.create(refs.pods, pod(name, { app: 'web', 'topology.kubernetes.io/zone': 'stale' }));
  const binding: Binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target };
  await client.create(refs.pods, binding, { namespace: 'default', name, subresource: 'binding' });
  const bound = await client.get<Pod>(refs.pods, 'default', name);
  assert.equal(bound.spec.nodeName, target.name);
  return bound.metadata.labels;
}

test('binding a pod to a node copies the node\'s zone and region onto it, over its own', async () => {
  await using cluster = await startCluster();
  assert.deepEqual(await bind(cluster.client, 'web', { kind: 'Node', name: 'n1' }), { app: 'web', ...zoneA });
});

test('a pod created on a node takes its zone and region; one created unscheduled takes nothing', async () => {
  await using cluster = await startCluster();
  const pinned = await cluster.client.create<Pod>(refs.pods, pod('pinned', { 'topology.kubernetes.io/region': 'mine' }, 'n1'));
  assert.deepEqual(pinned.metadata.labels, zoneA);
  const pending = await cluster.client.create<Pod>(refs.pods, pod('pending'));
  assert.equal(pending.metadata.labels, undefined);
});

test('no labels are copied for a Binding without a Node target, a node that does not exist, or with the gate off', async () => {
  await using cluster = await startCluster();
  const untouched = { app: 'web', 'topology.kubernetes.io/zone': 'stale' };
  assert.deepEqual(await bind(cluster.client, 'no-kind', { name: 'n1' }), untouched);
  assert.deepEqual(await bind(cluster.client, 'missing-node', { kind: 'Node', name: 'n2' }), untouched);
  await using gateOff = await startCluster(false);
  assert.deepEqual(await bind(gateOff.client, 'web', { kind: 'Node', name: 'n1' }), untouched);
  assert.equal((await gateOff.client.create<Pod>(refs.pods, pod('pinned', undefined, 'n1'))).metadata.labels, undefined);
});

test('a pod created on a node takes the labels the node has now: after they change, on a node added later, none once it is deleted', async () => {
  await using cluster = await startCluster();
  const client = cluster.client;
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('first', undefined, 'n1'))).metadata.labels, zoneA);
  const n1 = await client.get<Node>(refs.nodes, '', 'n1');
  await client.update<Node>(refs.nodes, { ...n1, metadata: { ...n1.metadata, labels: { ...n1.metadata.labels, 'topology.kubernetes.io/zone': 'eu-west-1b' } } });
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('moved', undefined, 'n1'))).metadata.labels, { ...zoneA, 'topology.kubernetes.io/zone': 'eu-west-1b' });
  await client.create<Node>(refs.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2', labels: { 'topology.kubernetes.io/zone': 'us-east-1c' } } });
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('later', undefined, 'n2'))).metadata.labels, { 'topology.kubernetes.io/zone': 'us-east-1c' });
  await client.delete(refs.nodes, '', 'n2');
  assert.equal((await client.create<Pod>(refs.pods, pod('orphan', undefined, 'n2'))).metadata.labels, undefined);
});
