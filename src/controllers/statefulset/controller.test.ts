// Scenario tests for the StatefulSet controller on an in-process cluster with kubelets and a
// VirtualClock: ordered and parallel creation, claims per ordinal, rolling updates from the highest
// ordinal down to the partition, scale-down order, retention policies and failed pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

async function startCluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 3, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true, log: () => {} });
  return { c, clock };
}

/** Pods that take 2 s to start, so ordering is visible on the clock. */
function statefulSet(name: string, replicas: number, extra: Partial<StatefulSet['spec']> = {}, image = 'db:1'): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { 'sim.drydock.dev/db': 'startupDelay: 2s' } },
        spec: { containers: [{ name: 'db', image, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...extra,
    },
  };
}

const pods = async (c: Cluster): Promise<Pod[]> => (await c.client.list<Pod>(refs.pods, { namespace: 'default' })).items.filter((p) => !p.metadata.deletionTimestamp);
const names = async (c: Cluster): Promise<string[]> => (await pods(c)).map((p) => p.metadata.name ?? '').sort();
const claims = async (c: Cluster): Promise<string[]> => (await c.client.list<PersistentVolumeClaim>(refs.persistentVolumeClaims, { namespace: 'default' })).items.map((p) => p.metadata.name ?? '').sort();
const getSet = (c: Cluster, name: string): Promise<StatefulSet> => c.client.get<StatefulSet>(refs.statefulSets, 'default', name);
const ready = (p: Pod): boolean => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') ?? false;

test('OrderedReady: db-0, db-1, db-2 are created one after another, each once its predecessor is Ready; each gets its own claim, hostname and labels', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.statefulSets, statefulSet('db', 3), { namespace: 'default' });
    const seen: string[][] = [];
    for (let t = 0; t < 12_000; t += 500) {
      await clock.advance(500);
      const now = await names(c);
      if (JSON.stringify(seen.at(-1)) !== JSON.stringify(now)) seen.push(now);
    }
    assert.deepEqual(seen, [['db-0'], ['db-0', 'db-1'], ['db-0', 'db-1', 'db-2']]);
    assert.deepEqual(await claims(c), ['data-db-0', 'data-db-1', 'data-db-2']);
    const pod = (await pods(c)).find((p) => p.metadata.name === 'db-1');
    assert.deepEqual([pod?.spec.hostname, pod?.spec.subdomain, pod?.metadata.labels?.['statefulset.kubernetes.io/pod-name'], pod?.metadata.labels?.['apps.kubernetes.io/pod-index']], ['db-1', 'db', 'db-1', '1']);
    assert.deepEqual(pod?.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim, { claimName: 'data-db-1' });
    const set = await getSet(c, 'db');
    assert.equal(set.status?.readyReplicas, 3);
    assert.equal(set.status?.currentRevision, set.status?.updateRevision);
    assert.equal(pod?.metadata.labels?.['controller-revision-hash'], set.status?.updateRevision);
  } finally {
    await c.stop();
  }
});

test('Parallel creates every pod at once; scale-down removes the highest ordinals; whenScaled: Delete takes their claims along', async () => {
  const { c, clock } = await startCluster();
  try {
    const set = statefulSet('db', 3, { podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } });
    await c.client.create(refs.statefulSets, set, { namespace: 'default' });
    await clock.advance(1_000);
    assert.deepEqual(await names(c), ['db-0', 'db-1', 'db-2']);
    await clock.advance(5_000);
    await c.client.patch(refs.statefulSets, 'default', 'db', 'merge', { spec: { replicas: 1 } });
    await clock.advance(10_000);
    assert.deepEqual(await names(c), ['db-0']);
    assert.deepEqual(await claims(c), ['data-db-0']);
  } finally {
    await c.stop();
  }
});

const owners = async (c: Cluster, claim: string): Promise<string[]> =>
  ((await c.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', claim)).metadata.ownerReferences ?? []).map((r) => `${r.kind}/${r.name} controller=${String(r.controller)}`);

test('whenDeleted and whenScaled both Delete: a scaled-away pod takes its claims, the rest stay the set\'s; a policy changed later rewrites the owners', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.statefulSets, statefulSet('db', 3), { namespace: 'default' });
    await clock.advance(12_000);
    assert.deepEqual(await owners(c, 'data-db-2'), []);
    await c.client.patch(refs.statefulSets, 'default', 'db', 'merge', { spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } } });
    await clock.advance(2_000);
    assert.deepEqual(await owners(c, 'data-db-2'), ['StatefulSet/db controller=true']);
    await c.client.patch(refs.statefulSets, 'default', 'db', 'merge', { spec: { replicas: 1 } });
    await clock.advance(15_000);
    assert.deepEqual(await names(c), ['db-0']);
    assert.deepEqual(await claims(c), ['data-db-0']);
    assert.deepEqual(await owners(c, 'data-db-0'), ['StatefulSet/db controller=true']);
    await c.client.patch(refs.statefulSets, 'default', 'db', 'merge', { spec: { replicas: 2 } });
    await clock.advance(6_000);
    assert.deepEqual(await claims(c), ['data-db-0', 'data-db-1']);
    assert.deepEqual(await owners(c, 'data-db-1'), ['StatefulSet/db controller=true']);
  } finally {
    await c.stop();
  }
});

test('a claim still owned by a scaled-away pod of the same name holds back the new pod until it is gone', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.statefulSets, statefulSet('db', 1, { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } }), { namespace: 'default' });
    await clock.advance(4_000);
    const claim = await c.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', 'data-db-0');
    const gone = { apiVersion: 'v1', kind: 'Pod', name: 'db-0', uid: 'an-earlier-db-0', controller: true, blockOwnerDeletion: true };
    await c.client.update(refs.persistentVolumeClaims, { ...claim, metadata: { ...claim.metadata, ownerReferences: [gone] } });
    await c.client.delete(refs.pods, 'default', 'db-0', { gracePeriodSeconds: 0 });
    await clock.advance(200);
    assert.deepEqual(await names(c), [], 'no db-0 while its claim belongs to the earlier pod');
    await clock.advance(10_000);
    assert.deepEqual(await names(c), ['db-0']);
    assert.notEqual((await c.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', 'data-db-0')).metadata.uid, claim.metadata.uid, 'a fresh claim');
  } finally {
    await c.stop();
  }
});

test('a rolling update replaces pods from the highest ordinal down, one at a time, and stops at the partition', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.statefulSets, statefulSet('db', 3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }), { namespace: 'default' });
    await clock.advance(12_000);
    const set = await getSet(c, 'db');
    await c.client.update(refs.statefulSets, { ...set, spec: { ...set.spec, template: { ...set.spec.template, spec: { ...set.spec.template.spec, containers: [{ name: 'db', image: 'db:2', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } } } });
    let worstReady = 3;
    for (let t = 0; t < 15_000; t += 250) {
      await clock.advance(250);
      worstReady = Math.min(worstReady, (await pods(c)).filter(ready).length);
    }
    assert.equal(worstReady, 2, 'one pod down at a time');
    const images = Object.fromEntries((await pods(c)).map((p) => [p.metadata.name, p.spec.containers[0]?.image]));
    assert.deepEqual(images, { 'db-0': 'db:1', 'db-1': 'db:2', 'db-2': 'db:2' });
    const status = (await getSet(c, 'db')).status;
    assert.deepEqual([status?.updatedReplicas, status?.currentReplicas, status?.currentRevision === status?.updateRevision], [2, 1, false]);
  } finally {
    await c.stop();
  }
});

test('a failed pod is deleted and recreated under the same name and claim', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.statefulSets, statefulSet('db', 1), { namespace: 'default' });
    await clock.advance(5_000);
    const [pod] = await pods(c);
    assert.ok(pod);
    await c.client.updateStatus<Pod>(refs.pods, { ...pod, status: { ...pod.status, phase: 'Failed' } });
    await clock.advance(8_000);
    const [again] = await pods(c);
    assert.equal(again?.metadata.name, 'db-0');
    assert.notEqual(again?.metadata.uid, pod.metadata.uid);
    assert.ok(again && ready(again));
    assert.deepEqual(await claims(c), ['data-db-0']);
  } finally {
    await c.stop();
  }
});
