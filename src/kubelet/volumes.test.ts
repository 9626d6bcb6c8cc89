// Scenario tests for volume setup on simulated nodes (VirtualClock): a missing ConfigMap keeps the
// pod ContainerCreating with FailedMount, and a ReadWriteOncePod claim mounts for one pod per node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, PersistentVolumeClaim, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

async function start(): Promise<{ cluster: Cluster; clock: VirtualClock; [Symbol.asyncDispose](): Promise<void> }> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({
    config: clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] }),
    clock,
    random: new SeededRandom(3),
    components: true,
    log: () => {},
  });
  return { cluster, clock, [Symbol.asyncDispose]: () => cluster.stop() };
}

async function until(clock: VirtualClock, pred: () => Promise<boolean>, maxMs = 60_000): Promise<void> {
  for (let t = 0; t <= maxMs; t += 100) {
    if (await pred()) return;
    await clock.advance(100);
  }
  throw new Error('condition not reached');
}

function pod(name: string, volumes: NonNullable<Pod['spec']['volumes']>, nodeName?: string): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'app', image: 'nginx' }], volumes } };
}

async function failedMounts(cluster: Cluster, podName: string): Promise<string[]> {
  const events = (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items;
  return events.filter((e) => e.involvedObject.name === podName && e.reason === 'FailedMount').map((e) => `${e.type} ${e.message} x${e.count ?? 1}`);
}

const waitingReason = async (cluster: Cluster, name: string): Promise<string | undefined> =>
  (await cluster.client.get<Pod>(refs.pods, 'default', name)).status?.containerStatuses?.[0]?.state?.waiting?.reason;
const phase = async (cluster: Cluster, name: string): Promise<string | undefined> => (await cluster.client.get<Pod>(refs.pods, 'default', name)).status?.phase;
const running = async (cluster: Cluster, name: string): Promise<boolean> => !!(await cluster.client.get<Pod>(refs.pods, 'default', name)).status?.containerStatuses?.[0]?.state?.running;

test('a missing ConfigMap: ContainerCreating with FailedMount (retried with backoff) until it exists', async () => {
  await using s = await start();
  const c = s.cluster.client;
  await c.create(refs.pods, pod('web', [{ name: 'config', configMap: { name: 'web-config' } }]), { namespace: 'default' });
  await until(s.clock, async () => (await failedMounts(s.cluster, 'web')).length > 0);
  await s.clock.advance(10_000);
  assert.equal(await waitingReason(s.cluster, 'web'), 'ContainerCreating');
  assert.equal(await phase(s.cluster, 'web'), 'Pending');
  const [event] = await failedMounts(s.cluster, 'web');
  // 500 ms, 1 s, 2 s, 4 s, 8 s: five attempts in the first ten seconds after the first one.
  assert.match(event ?? '', /^Warning MountVolume\.SetUp failed for volume "config" : configmap "web-config" not found x[56]$/);
  await s.clock.advance(120_000);
  assert.ok((await failedMounts(s.cluster, 'web')).includes('Warning Unable to attach or mount volumes: unmounted volumes=[config], unattached volumes=[], failed to process volumes=[]: context deadline exceeded x1'));
  await c.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config', namespace: 'default' }, data: { a: 'b' } }, { namespace: 'default' });
  await until(s.clock, () => running(s.cluster, 'web'), 200_000);
});

test("a projected volume's missing ConfigMap and Secret: one FailedMount with both errors aggregated, until they exist", async () => {
  await using s = await start();
  const c = s.cluster.client;
  const sources = [{ configMap: { name: 'model-config', items: [{ key: 'model.json', path: 'model.json' }] } }, { secret: { name: 'hf-token' } }, { configMap: { name: 'extras', optional: true } }];
  await c.create(refs.pods, pod('vllm', [{ name: 'bundle', projected: { sources } }]), { namespace: 'default' });
  await until(s.clock, async () => (await failedMounts(s.cluster, 'vllm')).length > 0);
  assert.match((await failedMounts(s.cluster, 'vllm'))[0] ?? '', /^Warning MountVolume\.SetUp failed for volume "bundle" : \[configmap "model-config" not found, secret "hf-token" not found\] x\d+$/);
  assert.equal(await waitingReason(s.cluster, 'vllm'), 'ContainerCreating');
  await c.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'model-config', namespace: 'default' }, data: { other: 'x' } }, { namespace: 'default' });
  await c.create(refs.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hf-token', namespace: 'default' }, data: { token: 'eA==' } }, { namespace: 'default' });
  await until(s.clock, async () => (await failedMounts(s.cluster, 'vllm')).some((e) => e.includes(': configmap references non-existent config key: model.json')));
  await c.patch(refs.configMaps, 'default', 'model-config', 'merge', { data: { 'model.json': '{}' } });
  await until(s.clock, () => running(s.cluster, 'vllm'), 200_000);
});

test('ReadWriteOncePod at mount: a second pod on the node stays ContainerCreating until the first is deleted', async () => {
  await using s = await start();
  const c = s.cluster.client;
  const claim: PersistentVolumeClaim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'solo', namespace: 'default' }, spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } } };
  await c.create(refs.persistentVolumeClaims, claim, { namespace: 'default' });
  const data = [{ name: 'data', persistentVolumeClaim: { claimName: 'solo' } }];
  await c.create(refs.pods, pod('first', data), { namespace: 'default' });
  await until(s.clock, () => running(s.cluster, 'first'));
  const pvName = (await c.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', 'solo')).spec?.volumeName ?? '';
  // nodeName bypasses the scheduler's VolumeRestrictions; the kubelet still refuses.
  await c.create(refs.pods, pod('second', data, 'cpu-0'), { namespace: 'default' });
  await until(s.clock, async () => (await failedMounts(s.cluster, 'second')).length > 0);
  assert.equal(await waitingReason(s.cluster, 'second'), 'ContainerCreating');
  assert.match((await failedMounts(s.cluster, 'second'))[0] ?? '', new RegExp(`^Warning MountVolume\\.SetUp failed for volume "${pvName}" : volume uses the ReadWriteOncePod access mode and is already in use by another pod x\\d+$`));
  await c.delete(refs.pods, 'default', 'first');
  await until(s.clock, () => running(s.cluster, 'second'), 200_000);
});
