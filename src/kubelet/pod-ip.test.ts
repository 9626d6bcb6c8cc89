// Pod IPs on a simulated node: each running pod has its own, and a deleted pod's IP is free once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

const pod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

test('pods started after others were deleted each get an IP of their own', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(2), components: true });
  for (const name of ['a', 'b']) await c.client.create(refs.pods, pod(name));
  await clock.advance(2_000);
  for (const name of ['a', 'b']) await c.client.delete(refs.pods, 'default', name, { gracePeriodSeconds: 1 });
  await clock.advance(5_000);
  for (const name of ['c', 'd', 'e']) await c.client.create(refs.pods, pod(name));
  await clock.advance(2_000);
  const ips = (await c.client.list<Pod>(refs.pods, { namespace: 'default' })).items.map((p) => p.status?.podIP);
  assert.equal(ips.length, 3);
  assert.equal(new Set(ips).size, 3, `pod IPs ${ips.join(', ')}`);
});
