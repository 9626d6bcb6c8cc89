// The disruption controller with evictions, in process: a budget's status follows its pods, an
// eviction spends an allowed disruption at once (a second one in the same moment is refused in
// upstream's words), and the budget recovers once the replacement pod is Ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Event, Job, Pod, PodDisruptionBudget } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import type { ResourceRef } from '../../api/index.ts';

const evict = (c: Cluster, name: string): Promise<unknown> =>
  c.client.create({ ...refs.pods } as ResourceRef, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } }, { namespace: 'default', name, subresource: 'eviction' });

test('maxUnavailable 1 over a 3-replica Deployment: one eviction at a time, refused while spent, allowed again once the replacement is Ready', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 3, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(4), components: true, log: () => {} });
  try {
    const d: Deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } } };
    await c.client.create(refs.deployments, d, { namespace: 'default' });
    const pdb: PodDisruptionBudget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'default' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
    await c.client.create(refs.podDisruptionBudgets, pdb, { namespace: 'default' });
    await clock.advance(5_000);
    const status = async (): Promise<PodDisruptionBudget['status']> => (await c.client.get<PodDisruptionBudget>(refs.podDisruptionBudgets, 'default', 'web')).status;
    const s = await status();
    assert.deepEqual([s?.expectedPods, s?.desiredHealthy, s?.currentHealthy, s?.disruptionsAllowed, s?.conditions?.[0]?.reason], [3, 2, 3, 1, 'SufficientPods']);
    const pods = (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: 'app=web' })).items.map((p) => p.metadata.name ?? '');
    await evict(c, pods[0] ?? '');
    await assert.rejects(evict(c, pods[1] ?? ''), (e: Error & { code?: number; details?: { causes?: { message: string }[] } }) => {
      assert.equal(e.message, "Cannot evict pod as it would violate the pod's disruption budget.");
      assert.equal(e.code, 429);
      // 3 while the controller has not yet seen the evicted pod terminating, 2 once it has (the eviction's
      // DisruptionTarget write and the delete both wake it): upstream reads the budget's status as it stands.
      assert.match(e.details?.causes?.map((x) => x.message).join() ?? '', /^The disruption budget web needs 2 healthy pods and has [23] currently$/);
      return true;
    });
    // The evicted pod is listed as disrupted until the controller sees it terminating, then dropped
    // (upstream's buildDisruptedPodMap); either way the budget stays spent.
    const spent = await status();
    assert.equal(spent?.disruptionsAllowed, 0);
    assert.ok([pods[0], ''].includes(Object.keys(spent?.disruptedPods ?? {}).join()), JSON.stringify(spent?.disruptedPods));
    await clock.advance(10_000);
    const recovered = await status();
    assert.deepEqual([recovered?.currentHealthy, recovered?.disruptionsAllowed, recovered?.disruptedPods], [3, 1, undefined]);
    await evict(c, pods[1] ?? '');
  } finally {
    await c.stop();
  }
});

const events = async (c: Cluster, reason: string): Promise<string[]> => (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === reason).map((e) => `${e.type ?? ''} ${e.involvedObject.name ?? ''}: ${e.message ?? ''}`);

test('maxUnavailable over a bare pod: the pod is left out of the count with an UnmanagedPods warning, and nothing may be disrupted', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(4), components: true, log: () => {} });
  try {
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', labels: { app: 'solo' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as Pod, { namespace: 'default' });
    await clock.advance(3_000);
    await c.client.create(refs.podDisruptionBudgets, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'solo' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'solo' } } } } as PodDisruptionBudget, { namespace: 'default' });
    await clock.advance(3_000);
    const s = (await c.client.get<PodDisruptionBudget>(refs.podDisruptionBudgets, 'default', 'solo')).status;
    assert.deepEqual([s?.expectedPods, s?.desiredHealthy, s?.currentHealthy, s?.disruptionsAllowed, s?.observedGeneration], [0, 0, 1, 0, 1]);
    assert.deepEqual(s?.conditions?.map((x) => [x.type, x.status, x.reason, x.message]), [['DisruptionAllowed', 'False', 'InsufficientPods', '']]);
    const warning = 'Warning solo: Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: solo,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.';
    assert.deepEqual([...new Set(await events(c, 'UnmanagedPods'))], [warning]);
    await assert.rejects(evict(c, 'solo'), (e: Error & { details?: { causes?: { message: string }[] } }) => {
      assert.equal(e.details?.causes?.[0]?.message, 'The disruption budget solo needs 0 healthy pods and has 1 currently');
      return true;
    });
  } finally {
    await c.stop();
  }
});

test('a budget selecting no pods says NoPods; a pod whose controller no finder knows fails it safe with SyncFailed', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(4), components: true, log: () => {} });
  try {
    await c.client.create(refs.podDisruptionBudgets, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'batch' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'batch' } } } } as PodDisruptionBudget, { namespace: 'default' });
    await clock.advance(2_000);
    assert.deepEqual([...new Set(await events(c, 'NoPods'))], ['Normal batch: No matching pods found']);
    const job: Job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'work' }, spec: { template: { metadata: { labels: { app: 'batch' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx' }] } } } };
    await c.client.create(refs.jobs, job, { namespace: 'default' });
    await clock.advance(3_000);
    const s = (await c.client.get<PodDisruptionBudget>(refs.podDisruptionBudgets, 'default', 'batch')).status;
    const worker = (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: 'app=batch' })).items[0]?.metadata.name ?? '';
    assert.deepEqual([s?.disruptionsAllowed, s?.conditions?.[0]?.status, s?.conditions?.[0]?.reason, s?.conditions?.[0]?.message], [0, 'False', 'SyncFailed', `found no controllers for pod "${worker}"`]);
    assert.deepEqual([...new Set(await events(c, 'CalculateExpectedPodCountFailed'))], [`Warning batch: Failed to calculate the number of expected pods: found no controllers for pod "${worker}"`]);
    await assert.rejects(evict(c, worker), /Cannot evict pod as it would violate the pod's disruption budget/);
  } finally {
    await c.stop();
  }
});

test('an evicted pod carries DisruptionTarget EvictionByEvictionAPI while it terminates; a stale uid precondition is a Conflict', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(4), components: true, log: () => {} });
  try {
    const slow = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'slow', annotations: { 'sim.drydock.dev/main': 'stopDelay: 20s' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } as Pod;
    await c.client.create(refs.pods, slow, { namespace: 'default' });
    await clock.advance(2_000);
    const stale = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'slow', namespace: 'default' }, deleteOptions: { preconditions: { uid: 'not-the-pod' } } };
    await assert.rejects(c.client.create({ ...refs.pods } as ResourceRef, stale, { namespace: 'default', name: 'slow', subresource: 'eviction' }), (e: Error) => {
      assert.match(e.message, /^Operation cannot be fulfilled on Pod "slow": the UID in the precondition \(not-the-pod\) does not match the UID in record \(.+\)\. The object might have been deleted and then recreated$/);
      return true;
    });
    await evict(c, 'slow');
    await clock.advance(2_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'slow');
    assert.ok(p.metadata.deletionTimestamp, 'terminating');
    const conditions = (p.status?.conditions ?? []) as { type: string; reason?: string; message?: string; observedGeneration?: number }[];
    assert.deepEqual(conditions[0], { ...conditions[0], type: 'DisruptionTarget', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', observedGeneration: 1 });
    assert.deepEqual(conditions.map((x) => x.type), ['DisruptionTarget', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
  } finally {
    await c.stop();
  }
});
