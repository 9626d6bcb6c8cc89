// Scenario tests for the Deployment controller (with the ReplicaSet controller) on an
// in-process cluster and a VirtualClock. No kubelets run: tests mark pods Ready themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Event, Pod, ReplicaSet } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock, formatTime, isApiError } from '../../core/index.ts';

async function startCluster(): Promise<{ cluster: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(11), components: true, log: () => {} });
  return { cluster, clock };
}

async function eventually<T>(clock: VirtualClock, check: () => Promise<T | undefined | false>, what: string, step = 10): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await check();
    if (v) return v;
    await clock.advance(step);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function deployment(name: string, replicas: number, image = 'nginx:1'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
}

/**
 * Marks every live, not-ready pod Ready (what kubelets would do). A pod the scheduler or a controller
 * wrote since the list is left for the caller's next round, as a kubelet's status manager retries.
 */
async function readyAll(cluster: Cluster, now: number): Promise<void> {
  const pods = (await cluster.client.list<Pod>(refs.pods, { namespace: 'default' })).items;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
    try {
      await cluster.client.updateStatus<Pod>(refs.pods, {
        ...pod,
        status: { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(now) }] },
      });
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'Conflict') throw error;
    }
  }
}

const getDeployment = (cluster: Cluster, name: string): Promise<Deployment> => cluster.client.get<Deployment>(refs.deployments, 'default', name);
const replicaSets = async (cluster: Cluster): Promise<ReplicaSet[]> => (await cluster.client.list<ReplicaSet>(refs.replicaSets, { namespace: 'default' })).items;
const events = async (cluster: Cluster, reason: string): Promise<string[]> =>
  (await cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === reason).map((e) => e.message ?? '');

function isRolledOut(d: Deployment): boolean {
  const s = d.status ?? {};
  return (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) && s.updatedReplicas === d.spec.replicas && s.availableReplicas === d.spec.replicas && s.replicas === d.spec.replicas;
}

test('a Deployment creates <name>-<hash> with pod-template-hash, reaches Available and NewReplicaSetAvailable', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.deployments, deployment('web', 2), { namespace: 'default' });
    const [rs] = await eventually(clock, async () => {
      const r = await replicaSets(cluster);
      return r.length === 1 && r;
    }, 'replica set');
    const hash = rs?.metadata.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[456789bcdf]{1,10}$/);
    assert.equal(rs?.metadata.name, `web-${hash}`);
    assert.deepEqual(rs?.spec.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.equal(rs?.spec.template?.metadata?.labels?.['pod-template-hash'], hash);
    assert.deepEqual(rs?.metadata.annotations, { 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3', 'deployment.kubernetes.io/revision': '1' });
    assert.equal(rs?.spec.replicas, 2);
    const d = await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      const dep = await getDeployment(cluster, 'web');
      return isRolledOut(dep) && getCond(dep, 'Progressing')?.reason === 'NewReplicaSetAvailable' && dep;
    }, 'rollout');
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.deepEqual(
      d.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "web-${hash}" has successfully progressed.`],
        ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ].sort((a, b) => order(d, a[0] ?? '') - order(d, b[0] ?? '')),
    );
    assert.equal(d.status?.readyReplicas, 2);
    assert.equal(d.status?.unavailableReplicas, undefined);
    assert.deepEqual(await events(cluster, 'ScalingReplicaSet'), [`Scaled up replica set web-${hash} from 0 to 2`]);
  } finally {
    await cluster.stop();
  }
});

function getCond(d: Deployment, type: string): { reason?: string; status: string; message?: string } | undefined {
  return d.status?.conditions?.find((c) => c.type === type);
}

function order(d: Deployment, type: string): number {
  return d.status?.conditions?.findIndex((c) => c.type === type) ?? -1;
}

test('a template change rolls out a new revision within maxSurge/maxUnavailable, and rolling back reuses the old ReplicaSet', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.deployments, deployment('api', 4), { namespace: 'default' });
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      return isRolledOut(await getDeployment(cluster, 'api'));
    }, 'first rollout');
    await cluster.client.patch(refs.deployments, 'default', 'api', 'strategic', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } });
    let maxPods = 0;
    let minAvailable = Infinity;
    await eventually(clock, async () => {
      const pods = (await cluster.client.list<Pod>(refs.pods, { namespace: 'default' })).items.filter((p) => !p.metadata.deletionTimestamp);
      maxPods = Math.max(maxPods, pods.length);
      const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
      minAvailable = Math.min(minAvailable, ready);
      await readyAll(cluster, clock.now());
      const d = await getDeployment(cluster, 'api');
      return isRolledOut(d) && getCond(d, 'Progressing')?.reason === 'NewReplicaSetAvailable';
    }, 'second rollout');
    assert.ok(maxPods <= 5, `at most replicas + maxSurge pods (saw ${maxPods})`);
    assert.ok(minAvailable >= 3, `at least replicas - maxUnavailable ready (saw ${minAvailable})`);
    const rss = await replicaSets(cluster);
    const byRevision = new Map(rss.map((r) => [r.metadata.annotations?.['deployment.kubernetes.io/revision'], r]));
    assert.equal(byRevision.get('1')?.spec.replicas, 0);
    assert.equal(byRevision.get('2')?.spec.replicas, 4);
    assert.equal(byRevision.get('2')?.spec.template?.spec.containers[0]?.image, 'nginx:2');
    const scaling = await events(cluster, 'ScalingReplicaSet');
    const newName = byRevision.get('2')?.metadata.name ?? '';
    const oldName = byRevision.get('1')?.metadata.name ?? '';
    assert.equal(scaling[1], `Scaled up replica set ${newName} from 0 to 1`);
    assert.ok(scaling.includes(`Scaled down replica set ${oldName} from 4 to 3`), scaling.join('\n'));

    // kubectl rollout undo: patch the template back to revision 1's (without the hash label).
    const template = structuredClone(byRevision.get('1')?.spec.template);
    delete template?.metadata?.labels?.['pod-template-hash'];
    await cluster.client.patch(refs.deployments, 'default', 'api', 'json', [{ op: 'replace', path: '/spec/template', value: template }]);
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      const d = await getDeployment(cluster, 'api');
      return isRolledOut(d) && getCond(d, 'Progressing')?.reason === 'NewReplicaSetAvailable' && (await replicaSets(cluster)).find((r) => r.metadata.name === oldName)?.spec.replicas === 4;
    }, 'rollback');
    const reused = (await replicaSets(cluster)).find((r) => r.metadata.name === oldName);
    assert.equal(reused?.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(reused?.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal((await replicaSets(cluster)).length, 2);
    assert.equal((await getDeployment(cluster, 'api')).metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
  } finally {
    await cluster.stop();
  }
});

test('scaling a Deployment resizes its ReplicaSet and records the event', async () => {
  const { cluster, clock } = await startCluster();
  try {
    await cluster.client.create(refs.deployments, deployment('sc', 2), { namespace: 'default' });
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      return isRolledOut(await getDeployment(cluster, 'sc'));
    }, 'rollout');
    await cluster.client.patch(refs.deployments, 'default', 'sc', 'merge', { spec: { replicas: 3 } }, { subresource: 'scale' }).catch(async () => {
      await cluster.client.patch(refs.deployments, 'default', 'sc', 'merge', { spec: { replicas: 3 } });
    });
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      return isRolledOut(await getDeployment(cluster, 'sc'));
    }, 'scaled');
    const [rs] = await replicaSets(cluster);
    assert.equal(rs?.spec.replicas, 3);
    assert.equal(rs?.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    assert.ok((await events(cluster, 'ScalingReplicaSet')).includes(`Scaled up replica set ${rs?.metadata.name} from 2 to 3`));
  } finally {
    await cluster.stop();
  }
});

test('a rollout that never becomes ready reports ProgressDeadlineExceeded after progressDeadlineSeconds', async () => {
  const { cluster, clock } = await startCluster();
  try {
    const d = deployment('stuck', 1);
    d.spec.progressDeadlineSeconds = 30;
    await cluster.client.create(refs.deployments, d, { namespace: 'default' });
    const [rs] = await eventually(clock, async () => {
      const r = await replicaSets(cluster);
      return r.length === 1 && r;
    }, 'replica set');
    await clock.advance(20_000);
    assert.equal(getCond(await getDeployment(cluster, 'stuck'), 'Progressing')?.reason, 'ReplicaSetUpdated');
    const timedOut = await eventually(clock, async () => {
      const dep = await getDeployment(cluster, 'stuck');
      return getCond(dep, 'Progressing')?.reason === 'ProgressDeadlineExceeded' && dep;
    }, 'deadline', 1000);
    assert.deepEqual(getCond(timedOut, 'Progressing'), {
      ...getCond(timedOut, 'Progressing'),
      status: 'False',
      message: `ReplicaSet "${rs?.metadata.name}" has timed out progressing.`,
    });
    assert.ok(clock.now() - Date.UTC(2026, 0, 1) >= 30_000);
    assert.equal(getCond(timedOut, 'Available')?.reason, 'MinimumReplicasUnavailable');
  } finally {
    await cluster.stop();
  }
});

test('Recreate scales the old ReplicaSet to zero before creating the new one', async () => {
  const { cluster, clock } = await startCluster();
  try {
    const d = deployment('rc', 2);
    d.spec.strategy = { type: 'Recreate' };
    await cluster.client.create(refs.deployments, d, { namespace: 'default' });
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      return isRolledOut(await getDeployment(cluster, 'rc'));
    }, 'rollout');
    await cluster.client.patch(refs.deployments, 'default', 'rc', 'strategic', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } });
    await eventually(clock, async () => {
      await readyAll(cluster, clock.now());
      const dep = await getDeployment(cluster, 'rc');
      return isRolledOut(dep) && (await replicaSets(cluster)).length === 2;
    }, 'recreate');
    const scaling = await events(cluster, 'ScalingReplicaSet');
    assert.match(scaling[1] ?? '', /^Scaled down replica set rc-\w+ from 2 to 0$/);
    assert.match(scaling[2] ?? '', /^Scaled up replica set rc-\w+ from 0 to 2$/);
  } finally {
    await cluster.stop();
  }
});
