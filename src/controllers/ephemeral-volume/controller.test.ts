// The ephemeral volume controller alone against an in-process API server on a VirtualClock: no
// scheduler, kubelets or garbage collector, so what it writes is all there is to see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Event, PersistentVolumeClaim, Pod, Volume } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import { eventually } from '../job/scenario.test-helpers.ts';
import { EphemeralVolumeController } from './controller.ts';

interface Setup {
  cluster: Cluster;
  clock: VirtualClock;
  [Symbol.asyncDispose](): Promise<void>;
}

async function start(before: (cluster: Cluster) => Promise<void> = async () => {}): Promise<Setup> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(3), components: false, log: () => {} });
  await before(cluster);
  const controller = new EphemeralVolumeController({ client: cluster.client, clock, log: () => {} });
  controller.start();
  return { cluster, clock, [Symbol.asyncDispose]: async () => { controller.stop(); await cluster.stop(); } };
}

const ephemeral = (name: string, template: NonNullable<NonNullable<Volume['ephemeral']>['volumeClaimTemplate']>): Volume => ({ name, ephemeral: { volumeClaimTemplate: template } });
const smallClaim = { spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } };

function pod(name: string, volumes: Volume[], finalizers?: string[]): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...(finalizers ? { finalizers } : {}) }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes } };
}

const claims = async (s: Setup): Promise<PersistentVolumeClaim[]> => (await s.cluster.client.list<PersistentVolumeClaim>(refs.persistentVolumeClaims, { namespace: 'default' })).items;
const claimNamed = async (s: Setup, name: string): Promise<PersistentVolumeClaim | undefined> => (await claims(s)).find((c) => c.metadata.name === name);

/** What the controller decided: everything but what the API server adds. */
function shape(c: PersistentVolumeClaim): unknown {
  const { name, namespace, labels, annotations, ownerReferences } = c.metadata;
  return { metadata: { name, namespace, labels, annotations, ownerReferences }, spec: c.spec };
}

test('each ephemeral volume gets <pod>-<volume>: the template labels, annotations and spec, the pod as controller', async () => {
  await using s = await start();
  const template = { metadata: { labels: { app: 'train' }, annotations: { 'example.com/tier': 'scratch' } }, spec: { ...smallClaim.spec, resources: { requests: { storage: '5Gi' } } } };
  const created = await s.cluster.client.create<Pod>(refs.pods, pod('p1', [ephemeral('scratch', template), { name: 'tmp', emptyDir: {} }, ephemeral('cache', smallClaim)]), { namespace: 'default' });
  const got = await eventually(s.clock, async () => {
    const items = await claims(s);
    return items.length === 2 && items;
  }, 'two claims');
  const owner = [{ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }];
  assert.deepEqual(got.map(shape).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
    { metadata: { name: 'p1-cache', namespace: 'default', labels: undefined, annotations: undefined, ownerReferences: owner }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' } },
    { metadata: { name: 'p1-scratch', namespace: 'default', labels: { app: 'train' }, annotations: { 'example.com/tier': 'scratch' }, ownerReferences: owner }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '5Gi' } }, volumeMode: 'Filesystem' } },
  ]);
});

test('a claim of that name the pod does not own is left alone, with a FailedBinding event on the pod', async () => {
  await using s = await start();
  const c = s.cluster.client;
  await c.create(refs.persistentVolumeClaims, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p2-data', namespace: 'default' }, spec: smallClaim.spec }, { namespace: 'default' });
  const p2 = await c.create<Pod>(refs.pods, pod('p2', [ephemeral('data', smallClaim)]), { namespace: 'default' });
  const [event] = await eventually(s.clock, async () => {
    const items = (await c.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === 'p2');
    return items.length > 0 && items;
  }, 'event on p2');
  assert.deepEqual(
    { type: event?.type, reason: event?.reason, message: event?.message, source: event?.source, involvedObject: { kind: event?.involvedObject.kind, uid: event?.involvedObject.uid } },
    { type: 'Warning', reason: 'FailedBinding', message: 'ephemeral volume data: PVC default/p2-data was not created for pod default/p2 (pod is not owner)', source: { component: 'ephemeral_volume' }, involvedObject: { kind: 'Pod', uid: p2.metadata.uid } },
  );
  assert.equal((await claimNamed(s, 'p2-data'))?.metadata.ownerReferences, undefined);
});

test('a pod being deleted gets no claim; one added after it does', async () => {
  await using s = await start(async (cluster) => {
    await cluster.client.create(refs.pods, pod('going', [ephemeral('data', smallClaim)], ['example.com/hold']), { namespace: 'default' });
    await cluster.client.delete(refs.pods, 'default', 'going');
  });
  const going = await s.cluster.client.get<Pod>(refs.pods, 'default', 'going');
  assert.ok(going.metadata.deletionTimestamp, 'held by its finalizer');
  await s.cluster.client.create(refs.pods, pod('later', [ephemeral('data', smallClaim)]), { namespace: 'default' });
  await eventually(s.clock, () => claimNamed(s, 'later-data'), 'later-data');
  await s.clock.advance(5_000);
  assert.deepEqual((await claims(s)).map((c) => c.metadata.name), ['later-data']);
});

test('a deleted claim the pod still names is created again', async () => {
  await using s = await start();
  await s.cluster.client.create(refs.pods, pod('p3', [ephemeral('data', smallClaim)]), { namespace: 'default' });
  const first = await eventually(s.clock, () => claimNamed(s, 'p3-data'), 'p3-data');
  await s.cluster.client.delete(refs.persistentVolumeClaims, 'default', 'p3-data');
  // Plays the pvc-protection controller, not running here: the claim is in use by no scheduled pod.
  await s.cluster.client.patch(refs.persistentVolumeClaims, 'default', 'p3-data', 'merge', { metadata: { finalizers: null } });
  const second = await eventually(s.clock, async () => {
    const c = await claimNamed(s, 'p3-data');
    return c?.metadata.uid !== first.metadata.uid && c;
  }, 'p3-data again');
  assert.equal(second.metadata.ownerReferences?.[0]?.name, 'p3');
});
