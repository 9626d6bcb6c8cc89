// Pod IPs on a simulated node: each running pod has its own, and a deleted pod's IP is free once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
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
  const ips = await clock.until(async () => {
    const items = (await c.client.list<Pod>(refs.pods, { namespace: 'default' })).items;
    return items.every((p) => p.status?.podIP) && items.map((p) => p.status?.podIP);
  }, 'an IP on every pod');
  assert.equal(ips.length, 3);
  assert.equal(new Set(ips).size, 3, `pod IPs ${ips.join(', ')}`);
});

test('with every IP of the node taken, a pod waits in ContainerCreating until one is free', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'dense', count: 1, capacity: { cpu: '64', memory: '64Gi', pods: '300' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true });
  for (let i = 0; i < 254; i++) await c.client.create(refs.pods, pod(`p-${i}`));
  // The kubelet's event recorder writes after the pod's status: wait until every pod has an IP or its
  // FailedCreatePodSandBox event, not for a number of clock seconds.
  const sandboxEvents = async (): Promise<Event[]> => (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === 'FailedCreatePodSandBox');
  const pods = await clock.until(async () => {
    const items = (await c.client.list<Pod>(refs.pods, { namespace: 'default' })).items;
    const failed = new Set((await sandboxEvents()).map((e) => e.involvedObject.name));
    return items.every((p) => p.status?.podIP || failed.has(p.metadata.name)) && items;
  }, 'an IP or a FailedCreatePodSandBox event on every pod');
  const ips = pods.map((p) => p.status?.podIP).filter((ip) => ip !== undefined);
  assert.equal(ips.length, 253, 'a /24 less the network, gateway and broadcast addresses');
  assert.equal(new Set(ips).size, 253);
  const waiting = pods.find((p) => !p.status?.podIP);
  assert.ok(waiting);
  assert.equal(waiting.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
  assert.equal(waiting.status?.conditions?.find((x) => x.type === 'PodReadyToStartContainers')?.status, 'False');
  const events = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === waiting.metadata.name);
  assert.match(events.find((e) => e.reason === 'FailedCreatePodSandBox')?.message ?? '', /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="bridge" failed \(add\): failed to allocate for range 0: no IP addresses available in range set: 10\.128\.0\.1-10\.128\.0\.254$/);

  const freed = pods.find((p) => p.status?.podIP);
  await c.client.delete(refs.pods, 'default', freed?.metadata.name ?? '', { gracePeriodSeconds: 0 });
  const now = await clock.until(async () => {
    const p = await c.client.get<Pod>(refs.pods, 'default', waiting.metadata.name ?? '');
    return p.status?.phase === 'Running' && p;
  }, `${waiting.metadata.name ?? ''} Running`);
  assert.equal(now.status?.podIP, freed?.status?.podIP);
});

test('a deleted pod\'s IP is not handed out again until the node\'s range has been run through (host-local round-robin)', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(2), components: true });
  const ipOf = (name: string): Promise<string> => clock.until(async () => (await c.client.get<Pod>(refs.pods, 'default', name)).status?.podIP, `an IP on ${name}`);
  const ips: string[] = [];
  for (const name of ['a', 'b']) {
    await c.client.create(refs.pods, pod(name));
    ips.push(await ipOf(name));
  }
  assert.deepEqual(ips, ['10.128.0.2', '10.128.0.3']);
  await c.client.delete(refs.pods, 'default', 'b', { gracePeriodSeconds: 0 });
  await clock.advance(2_000);
  await c.client.create(refs.pods, pod('c'));
  assert.equal(await ipOf('c'), '10.128.0.4');
});
