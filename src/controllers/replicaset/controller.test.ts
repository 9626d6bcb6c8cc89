// Scenario tests for the ReplicaSet controller on an in-process cluster and a VirtualClock.
// No kubelets run, so tests mark pods Ready through the status subresource themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Event, Pod, ReplicaSet, ReplicationController } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock, formatTime } from '../../core/index.ts';
import type { KubeObject } from '../../core/index.ts';

async function startCluster(): Promise<{ cluster: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(7), components: true, log: () => {} });
  return { cluster, clock };
}

async function eventually<T>(clock: VirtualClock, check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await check();
    if (v) return v;
    await clock.advance(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function replicaSet(name: string, replicas: number, extra: Partial<ReplicaSet['spec']> = {}): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...extra,
    },
  };
}

async function podsOf(cluster: Cluster, app: string): Promise<Pod[]> {
  return (await cluster.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
}

async function markReady(cluster: Cluster, pod: Pod, at: number, nodeName = 'n1'): Promise<void> {
  // Bound and Ready, as the scheduler and a kubelet would leave it.
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name ?? '' }, target: { kind: 'Node', name: nodeName } };
  await cluster.client.create(refs.pods, binding, { namespace: 'default', name: pod.metadata.name ?? '', subresource: 'binding' });
  const latest = await cluster.client.get<Pod>(refs.pods, 'default', pod.metadata.name ?? '');
  await cluster.client.updateStatus<Pod>(refs.pods, {
    ...latest,
    status: { ...latest.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(at) }] },
  });
}

test('a ReplicaSet creates its pods from the template, owned and named <rs>-xxxxx, and reports status', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.replicaSets, replicaSet('web', 3), { namespace: 'default' });
    const pods = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'web');
      return p.length === 3 && p;
    }, '3 pods');
    for (const pod of pods) {
      assert.match(pod.metadata.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(pod.metadata.generateName, 'web-');
      const [owner] = pod.metadata.ownerReferences ?? [];
      assert.deepEqual({ ...owner, uid: '' }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: '', controller: true, blockOwnerDeletion: true });
    }
    const rs = await eventually(clock, async () => {
      const r = await cluster.client.get<ReplicaSet>(refs.replicaSets, 'default', 'web');
      return r.status?.replicas === 3 && r;
    }, 'status.replicas');
    assert.deepEqual(rs.status, { replicas: 3, fullyLabeledReplicas: 3, terminatingReplicas: 0, observedGeneration: 1 });
    const events = await eventually(clock, async () => {
      const e = (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((x) => x.reason === 'SuccessfulCreate');
      return e.length === 3 && e;
    }, 'events');
    assert.deepEqual(events.map((e) => e.message).sort(), pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    assert.equal(events[0]?.source?.component, 'replicaset-controller');
    assert.equal(events[0]?.involvedObject.kind, 'ReplicaSet');
  } finally {
    await cluster.stop();
  }
});

test('scaling down deletes not-ready pods before ready ones', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.replicaSets, replicaSet('api', 3), { namespace: 'default' });
    const pods = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'api');
      return p.length === 3 && p;
    }, '3 pods');
    const keeper = pods[1] as Pod;
    await markReady(cluster, keeper, clock.now());
    await eventually(clock, async () => (await cluster.client.get<ReplicaSet>(refs.replicaSets, 'default', 'api')).status?.readyReplicas === 1, 'ready');
    await cluster.client.patch(refs.replicaSets, 'default', 'api', 'merge', { spec: { replicas: 1 } });
    const left = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'api');
      return p.length === 1 && p;
    }, 'scale down');
    assert.equal(left[0]?.metadata.name, keeper.metadata.name);
    const deletes = await eventually(clock, async () => {
      const e = (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((x) => x.reason === 'SuccessfulDelete');
      return e.length === 2 && e;
    }, 'delete events');
    assert.match(deletes[0]?.message ?? '', /^Deleted pod: api-/);
  } finally {
    await cluster.stop();
  }
});

test('matching orphans are adopted and pods that stop matching are released and replaced', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(
      refs.pods,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      { namespace: 'default' },
    );
    await cluster.client.create(refs.replicaSets, replicaSet('db', 2), { namespace: 'default' });
    const pods = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'db');
      return p.length === 2 && p.every((x) => x.metadata.ownerReferences?.length) && p;
    }, 'adoption');
    assert.ok(pods.some((p) => p.metadata.name === 'stray'));
    await cluster.client.patch(refs.pods, 'default', 'stray', 'merge', { metadata: { labels: { app: 'other' } } });
    await eventually(clock, async () => {
      const stray = await cluster.client.get<Pod>(refs.pods, 'default', 'stray');
      return (stray.metadata.ownerReferences ?? []).length === 0 && (await podsOf(cluster, 'db')).length === 2;
    }, 'release and replacement');
  } finally {
    await cluster.stop();
  }
});

test('availableReplicas waits minReadySeconds on the clock', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.replicaSets, replicaSet('slow', 1, { minReadySeconds: 30 }), { namespace: 'default' });
    const [pod] = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'slow');
      return p.length === 1 && p;
    }, 'pod');
    await markReady(cluster, pod as Pod, clock.now());
    const get = (): Promise<ReplicaSet> => cluster.client.get<ReplicaSet>(refs.replicaSets, 'default', 'slow');
    await eventually(clock, async () => (await get()).status?.readyReplicas === 1, 'ready');
    assert.equal((await get()).status?.availableReplicas, undefined);
    await clock.advance(31_000);
    await eventually(clock, async () => (await get()).status?.availableReplicas === 1, 'available');
  } finally {
    await cluster.stop();
  }
});

test('a ReplicationController is kept at its count as a ReplicaSet is: v1 owner, its own events, no terminatingReplicas', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(
      refs.pods,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      { namespace: 'default' },
    );
    const rc: ReplicationController = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy', namespace: 'default' },
      spec: { replicas: 3, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    await cluster.client.create(refs.replicationControllers, rc, { namespace: 'default' });
    const pods = await eventually(clock, async () => {
      const p = await podsOf(cluster, 'legacy');
      return p.length === 3 && p.every((x) => x.metadata.ownerReferences?.length) && p;
    }, '3 owned pods');
    assert.ok(pods.some((p) => p.metadata.name === 'stray'), 'the matching orphan is adopted');
    for (const pod of pods) assert.deepEqual({ ...pod.metadata.ownerReferences?.[0], uid: '' }, { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: '', controller: true, blockOwnerDeletion: true });
    const get = (): Promise<ReplicationController> => cluster.client.get<ReplicationController>(refs.replicationControllers, 'default', 'legacy');
    const counted = await eventually(clock, async () => ((await get()).status?.replicas === 3 ? get() : undefined), 'status');
    assert.deepEqual(counted.status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    const events = (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((x) => x.reason === 'SuccessfulCreate');
    assert.deepEqual([events.length, events[0]?.source?.component, events[0]?.involvedObject.kind], [2, 'replication-controller', 'ReplicationController']);

    await cluster.client.patch(refs.replicationControllers, 'default', 'legacy', 'merge', { spec: { replicas: 1 } }, { subresource: 'scale' });
    await eventually(clock, async () => (await podsOf(cluster, 'legacy')).length === 1 && (await get()).status?.replicas === 1, 'scaled to 1');
    const scale = await cluster.client.get<KubeObject>(refs.replicationControllers, 'default', 'legacy', { subresource: 'scale' });
    assert.deepEqual([scale.spec, scale.status], [{ replicas: 1 }, { replicas: 1, selector: 'app=legacy' }]);
  } finally {
    await cluster.stop();
  }
});
