// Scenario tests for the garbage collector: background, foreground and orphan propagation
// on an in-process cluster (with the Deployment and ReplicaSet controllers) and a VirtualClock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Pod, ReplicaSet } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../../core/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { SharedInformers } from '../../client/index.ts';
import type { Client } from '../../client/index.ts';
import { ReplicaSetController } from '../replicaset/controller.ts';
import { GarbageCollector } from './controller.ts';

async function startCluster(): Promise<{ cluster: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(3), components: true, log: () => {} });
  return { cluster, clock };
}

async function eventually<T>(clock: VirtualClock, check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await check();
    if (v) return v;
    await clock.advance(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const deployment: Deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};

const list = async <T extends KubeObject>(cluster: Cluster, ref: typeof refs.pods): Promise<T[]> => (await cluster.client.list<T>(ref, { namespace: 'default' })).items;

async function exists(cluster: Cluster, ref: typeof refs.pods, name: string): Promise<KubeObject | undefined> {
  try {
    return await cluster.client.get(ref, 'default', name);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return undefined;
    throw error;
  }
}

async function deploymentWithPods(cluster: Cluster, clock: VirtualClock): Promise<void> {
  await cluster.client.create(refs.deployments, deployment, { namespace: 'default' });
  await eventually(clock, async () => (await list(cluster, refs.pods)).length === 2 && (await list(cluster, refs.replicaSets)).length === 1, 'pods');
}

test('background deletion removes the ReplicaSets and pods after the Deployment', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await deploymentWithPods(cluster, clock);
    await cluster.client.delete(refs.deployments, 'default', 'web', { propagationPolicy: 'Background' });
    assert.equal(await exists(cluster, refs.deployments, 'web'), undefined);
    await eventually(clock, async () => (await list(cluster, refs.replicaSets)).length === 0 && (await list(cluster, refs.pods)).length === 0, 'cascade');
  } finally {
    await cluster.stop();
  }
});

test('foreground deletion keeps the Deployment with foregroundDeletion until its dependents are gone', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await deploymentWithPods(cluster, clock);
    const pending = (await cluster.client.delete(refs.deployments, 'default', 'web', { propagationPolicy: 'Foreground' })) as Deployment;
    assert.ok(pending.metadata.deletionTimestamp);
    assert.deepEqual(pending.metadata.finalizers, ['foregroundDeletion']);
    const seen: string[] = [];
    await eventually(clock, async () => {
      const d = await exists(cluster, refs.deployments, 'web');
      const rss = await list<ReplicaSet>(cluster, refs.replicaSets);
      const pods = await list<Pod>(cluster, refs.pods);
      seen.push(`${d ? 'D' : '-'}${rss.length}${pods.length}`);
      return !d;
    }, 'deployment gone');
    // The Deployment outlives its ReplicaSet, which outlives its pods.
    assert.equal(seen.at(-1), '-00');
    assert.ok(!seen.some((s) => s.startsWith('-') && s !== '-00'), seen.join(' '));
    assert.equal((await list(cluster, refs.replicaSets)).length, 0);
  } finally {
    await cluster.stop();
  }
});

test('orphan deletion strips the owner reference from the ReplicaSet and keeps it', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await deploymentWithPods(cluster, clock);
    await cluster.client.delete(refs.deployments, 'default', 'web', { propagationPolicy: 'Orphan' });
    await eventually(clock, async () => !(await exists(cluster, refs.deployments, 'web')), 'deployment gone');
    const [rs] = await list<ReplicaSet>(cluster, refs.replicaSets);
    assert.ok(rs);
    assert.deepEqual(rs.metadata.ownerReferences ?? [], []);
    await clock.advance(1000);
    assert.equal((await list(cluster, refs.pods)).length, 2);
  } finally {
    await cluster.stop();
  }
});

test('any resource found through discovery is collected when its owner disappears', async () => {
  const { cluster, clock } = await startCluster();
  try {
    const owner = await cluster.client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } }, { namespace: 'default' });
    const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' };
    await cluster.client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'child', ownerReferences: [ownerRef] } }, { namespace: 'default' });
    const stranger = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-4000-8000-000000000000' };
    await cluster.client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'half', ownerReferences: [ownerRef, stranger] } }, { namespace: 'default' });
    await clock.advance(500);
    assert.ok(await exists(cluster, refs.configMaps, 'child'));
    // "half" keeps its live owner and loses the reference to the one that never existed.
    const half = await eventually(clock, async () => {
      const h = await exists(cluster, refs.configMaps, 'half');
      return h?.metadata.ownerReferences?.length === 1 && h;
    }, 'dangling reference removed');
    assert.equal(half.metadata.ownerReferences?.[0]?.name, 'owner');
    await cluster.client.delete(refs.configMaps, 'default', 'owner');
    await eventually(clock, async () => !(await exists(cluster, refs.configMaps, 'child')) && !(await exists(cluster, refs.configMaps, 'half')), 'children collected');
  } finally {
    await cluster.stop();
  }
});

test('the collector watches through the shared informers: one watch of pods and ReplicaSets for it and the ReplicaSet controller', async () => {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(3), components: false, log: () => {} });
  const watches = new Map<string, number>();
  const client = new Proxy(cluster.client, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== 'watch') return typeof value === 'function' ? value.bind(target) as unknown : value;
      return (...args: Parameters<Client['watch']>) => {
        watches.set(args[0].resource, (watches.get(args[0].resource) ?? 0) + 1);
        return target.watch(...args);
      };
    },
  });
  const informers = new SharedInformers();
  const options = { client, clock, log: () => {}, informers };
  const replicaSets = new ReplicaSetController(options);
  const collector = new GarbageCollector(options);
  replicaSets.start();
  collector.start();
  try {
    const rs = await cluster.client.create<ReplicaSet>(refs.replicaSets, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: deployment.spec?.template ?? {} },
    } as ReplicaSet, { namespace: 'default' });
    await eventually(clock, async () => (await list(cluster, refs.pods)).length === 2, 'pods');
    assert.equal(watches.get('pods'), 1);
    assert.equal(watches.get('replicasets'), 1);
    // The collector hears the pods through the ReplicaSet controller's informer: they go with their owner.
    await cluster.client.delete(refs.replicaSets, 'default', rs.metadata.name ?? '');
    await eventually(clock, async () => (await list(cluster, refs.pods)).length === 0, 'pods collected');
  } finally {
    collector.stop();
    replicaSets.stop();
    await cluster.stop();
  }
});
