// A failed node's kubelet is partitioned: the pods it runs keep the status the API last saw,
// and a deleted pod stays Terminating until the node heals, as with a real network partition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

test('a failed node keeps its pods Terminating until it heals, then finishes deleting them', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true });
  await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: 'cpu-0', containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: 5 } });
  await clock.advance(2_000);
  assert.equal((await c.client.get<Pod>(refs.pods, 'default', 'web')).status?.phase, 'Running');
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'merge', { metadata: { annotations: { 'sim.drydock.dev/fail': 'true' } } });
  await clock.advance(1_000);
  await c.client.delete(refs.pods, 'default', 'web');
  await clock.advance(20_000);
  const stuck = await c.client.get<Pod>(refs.pods, 'default', 'web');
  assert.ok(stuck.metadata.deletionTimestamp, 'still there, marked for deletion');
  assert.equal(stuck.status?.phase, 'Running', 'the API still has the last status the kubelet posted');
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'merge', { metadata: { annotations: { 'sim.drydock.dev/fail': null } } });
  await clock.advance(10_000);
  await assert.rejects(c.client.get(refs.pods, 'default', 'web'), /pods "web" not found/);
});
