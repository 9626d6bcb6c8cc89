// Scenario tests for GangScheduling on the VirtualClock (controllers.md §10, scenarios 15-18).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Event, Pod, Workload } from '../../api/index.ts';
import { Cluster, addNodes, clusterConfigFrom, nodePoolsConfigMap, nodePoolsNamespace, parsePoolStates, poolStatesData } from '../../cluster/index.ts';
import type { PoolsConfigMap } from '../../cluster/index.ts';
import { refs } from '../../api/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import { Scheduler } from '../scheduler.ts';
import { startScenario } from '../scenario-harness.test.ts';
import type { Scenario } from '../scenario-harness.test.ts';
import { summarizePodGroup } from './gang-volcano-status.ts';
import { volcanoPodGroups } from './gang-groups.ts';
import type { VolcanoPodGroup } from './gang-groups.ts';

const gpu = { 'nvidia.com/gpu': '1' };
const gpuNode = { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1' };

async function workload(s: Scenario, name: string, minCount: number): Promise<void> {
  const w: Workload = { apiVersion: 'scheduling.k8s.io/v1alpha1', kind: 'Workload', metadata: { name, namespace: 'default' }, spec: { podGroups: [{ name: 'workers', policy: { gang: { minCount } } }] } };
  await s.client.create(refs.workloads, w, { namespace: 'default' });
}

const worker = (s: Scenario, i: number): Promise<Pod> => s.addPod(`worker-${i}`, { requests: gpu, workloadRef: { name: 'ddp', podGroup: 'workers' } });

async function nodesOf(s: Scenario, n: number): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = [];
  for (let i = 0; i < n; i++) out.push((await s.pod(`worker-${i}`)).spec.nodeName);
  return out;
}

async function messages(s: Scenario, pod: string, reason: string): Promise<string[]> {
  return (await s.events(pod)).filter((e) => e.reason === reason).map((e) => e.message ?? '');
}

// The baseline case on real simulated GPU nodes (kubelets with device-plugin GPUs), so nodes stay Ready
// through the 5-minute deadline; the 4th node comes through kube-system/drydock-node-pools.
async function gpuCluster(gpuNodes: number): Promise<Scenario> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({
    config: clusterConfigFrom({ nodePools: [{ name: 'gpu', count: gpuNodes, capacity: { cpu: '16', memory: '64Gi' }, gpus: { model: 'H100-80GB', count: 1, expose: 'device-plugin' } }] }),
    clock,
    random: new SeededRandom(11),
    components: true,
  });
  const client = cluster.client;
  const s = {
    cluster, client, clock,
    addPod: async (name: string, spec: Partial<Pod['spec']> & { requests?: Record<string, string> }, meta: Partial<Pod['metadata']> = {}) => {
      const { requests, ...rest } = spec;
      const pod: Pod = { metadata: { name, namespace: 'default', ...meta }, spec: { containers: [{ name: 'c', image: 'pytorch/pytorch', ...(requests ? { resources: { requests, limits: requests } } : {}) }], ...rest } };
      return client.create<Pod>(refs.pods, pod, { namespace: 'default' });
    },
    pod: (name: string) => client.get<Pod>(refs.pods, 'default', name),
    until: async (pred: () => Promise<boolean> | boolean, maxMs = 60_000) => {
      for (let t = 0; t <= maxMs; t += 100) {
        if (await pred()) return;
        await clock.advance(100);
      }
      throw new Error('condition not reached');
    },
    events: async (podName: string) => (await client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === podName),
    [Symbol.asyncDispose]: () => cluster.stop(),
  };
  return s as unknown as Scenario;
}

async function addGpuNode(s: Scenario): Promise<void> {
  const cm = await s.client.get<PoolsConfigMap>(refs.configMaps, nodePoolsNamespace, nodePoolsConfigMap);
  const states = parsePoolStates(cm);
  const gpu = states.get('gpu');
  assert.ok(gpu);
  states.set('gpu', addNodes(gpu, 1).state);
  await s.client.update(refs.configMaps, { ...cm, data: poolStatesData(states) });
}

/** A gang of 4 on 3 GPUs: one pod cannot fit anywhere; the other three wait at Permit holding their GPU in the cache, none bound. */
async function gangOfFourOnThree(s: Awaited<ReturnType<typeof gpuCluster>>): Promise<void> {
  await workload(s, 'ddp', 4);
  for (let i = 0; i < 4; i++) await worker(s, i);
  await s.until(async () => {
    for (let i = 0; i < 4; i++) if ((await messages(s, `worker-${i}`, 'FailedScheduling')).length > 0) return true;
    return false;
  });
}

test('a gang of 4 on 3 GPUs: nobody binds, the 3 reserved pods time out after 5m0s; a 4th GPU node binds all 4 together', async () => {
  await using s = await gpuCluster(3);
  await gangOfFourOnThree(s);
  await s.clock.advance(1000);
  assert.deepEqual(await nodesOf(s, 4), [undefined, undefined, undefined, undefined]);
  const failed: string[] = [];
  for (let i = 0; i < 4; i++) failed.push(...(await messages(s, `worker-${i}`, 'FailedScheduling')));
  assert.equal(failed.length, 1);
  assert.match(failed[0] ?? '', /^0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu\. /);

  // At the shared deadline every waiting pod is rejected with the upstream message.
  await s.clock.advance(5 * 60_000);
  const timeouts: string[] = [];
  for (let i = 0; i < 4; i++) timeouts.push(...(await messages(s, `worker-${i}`, 'FailedScheduling')).filter((m) => m.includes('timeout')));
  assert.deepEqual(timeouts, Array(3).fill('0/1 nodes are available: 1 rejected due to timeout after waiting 5m0s at plugin GangScheduling.'));
  assert.deepEqual(await nodesOf(s, 4), [undefined, undefined, undefined, undefined]);

  // A fourth GPU node: the whole gang binds at the same virtual instant.
  await addGpuNode(s);
  await s.until(async () => (await nodesOf(s, 4)).every((n) => n !== undefined));
  assert.deepEqual([...(await nodesOf(s, 4))].sort(), ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
  const boundAt = new Set<string>();
  for (let i = 0; i < 4; i++) for (const e of await s.events(`worker-${i}`)) if (e.reason === 'Scheduled') boundAt.add(String(e.eventTime));
  assert.equal(boundAt.size, 1, `Scheduled events at ${[...boundAt].join(', ')}`);
});

test('deleting a gang that waits at Permit frees its GPUs at once: a new gang of 3 binds without waiting out the deadline', async () => {
  await using s = await gpuCluster(3);
  await gangOfFourOnThree(s);
  for (let i = 0; i < 4; i++) await s.client.delete(refs.pods, 'default', `worker-${i}`);

  const w: Workload = { metadata: { name: 'retry', namespace: 'default' }, spec: { podGroups: [{ name: 'workers', policy: { gang: { minCount: 3 } } }] } };
  await s.client.create(refs.workloads, w, { namespace: 'default' });
  for (let i = 0; i < 3; i++) await s.addPod(`retry-${i}`, { requests: gpu, workloadRef: { name: 'retry', podGroup: 'workers' } });
  const nodes = async (): Promise<(string | undefined)[]> => Promise.all([0, 1, 2].map(async (i) => (await s.pod(`retry-${i}`)).spec.nodeName));
  await s.until(async () => (await nodes()).every((n) => n !== undefined), 10_000);
  assert.deepEqual([...(await nodes())].sort(), ['gpu-0', 'gpu-1', 'gpu-2']);
  for (let i = 0; i < 3; i++) assert.deepEqual(await messages(s, `retry-${i}`, 'FailedScheduling'), []);
});

test('gang pods are held in PreEnqueue until the Workload and minCount pods exist', async () => {
  await using s = await startScenario();
  // A second scheduler under its own name, so the test can look into its queue.
  await using sched = ownScheduler(s);
  const w0 = (i: number): Promise<Pod> => s.addPod(`worker-${i}`, { schedulerName: 'gang', requests: gpu, workloadRef: { name: 'ddp', podGroup: 'workers' } });
  for (let i = 0; i < 3; i++) await s.addNode(`gpu-${i}`, gpuNode);
  await w0(0);
  await w0(1);
  await s.clock.advance(2000);
  const pod0 = await s.pod('worker-0');
  const uid = pod0.metadata.uid ?? '';
  assert.equal(pod0.spec.nodeName, undefined);
  assert.deepEqual(await messages(s, 'worker-0', 'FailedScheduling'), [], 'PreEnqueue records no event');
  assert.equal(sched.queue.where(uid), 'gated');
  assert.deepEqual(gateReasons(sched, pod0), ['waiting for pods\'s workload "ddp" to appear in scheduling queue']);

  await workload(s, 'ddp', 3);
  await s.clock.advance(1000);
  assert.equal(sched.queue.where(uid), 'gated');
  assert.deepEqual(gateReasons(sched, pod0), ['waiting for minCount pods from a gang to appear in scheduling queue']);

  await w0(2);
  await s.until(async () => (await nodesOf(s, 3)).every((n) => n !== undefined));
});

test('a pod naming a missing pod group is held with the upstream reason; basic groups pass', async () => {
  await using s = await startScenario();
  await using sched = ownScheduler(s);
  await s.addNode('gpu-0', gpuNode);
  const w: Workload = { metadata: { name: 'svc', namespace: 'default' }, spec: { podGroups: [{ name: 'web', policy: { basic: {} } }] } };
  await s.client.create(refs.workloads, w, { namespace: 'default' });
  const stray = await s.addPod('stray', { schedulerName: 'gang', workloadRef: { name: 'svc', podGroup: 'db' } });
  await s.addPod('web', { schedulerName: 'gang', workloadRef: { name: 'svc', podGroup: 'web' } });
  await s.until(async () => (await s.pod('web')).spec.nodeName === 'gpu-0');
  assert.deepEqual(gateReasons(sched, stray), ['pod group "db" doesn\'t exist for a workload "svc"']);
  assert.equal(sched.queue.where(stray.metadata.uid ?? ''), 'gated');
});

test('pod group replica keys are independent gangs: one schedules while the other waits for its pods', async () => {
  await using s = await startScenario();
  await using sched = ownScheduler(s);
  for (let i = 0; i < 3; i++) await s.addNode(`gpu-${i}`, gpuNode);
  await workload(s, 'ddp', 2);
  const member = (name: string, key: string): Promise<Pod> => s.addPod(name, { schedulerName: 'gang', requests: gpu, workloadRef: { name: 'ddp', podGroup: 'workers', podGroupReplicaKey: key } });
  await member('a-0', 'r1');
  await member('b-0', 'r2');
  await member('a-1', 'r1');
  await s.until(async () => !!(await s.pod('a-0')).spec.nodeName && !!(await s.pod('a-1')).spec.nodeName);
  const b0 = await s.pod('b-0');
  assert.equal(b0.spec.nodeName, undefined);
  assert.deepEqual(gateReasons(sched, b0), ['waiting for minCount pods from a gang to appear in scheduling queue']);
});

test('volcano: pods with schedulerName volcano and the group annotation gang-schedule; the PodGroup goes Pending -> Running', async () => {
  await using s = await startScenario();
  for (let i = 0; i < 3; i++) await s.addNode(`gpu-${i}`, gpuNode);
  const pg: VolcanoPodGroup = { apiVersion: 'scheduling.volcano.sh/v1beta1', kind: 'PodGroup', metadata: { name: 'ddp', namespace: 'default' }, spec: { minMember: 4 } };
  await s.client.create(volcanoPodGroups, pg, { namespace: 'default' });
  for (let i = 0; i < 4; i++) await s.addPod(`worker-${i}`, { requests: gpu, schedulerName: 'volcano' }, { annotations: { 'scheduling.k8s.io/group-name': 'ddp' } });
  const group = (): Promise<VolcanoPodGroup> => s.client.get<VolcanoPodGroup>(volcanoPodGroups, 'default', 'ddp');
  await s.until(async () => (await group()).status?.conditions?.some((c) => (c as { type: string }).type === 'Unschedulable') ?? false);
  const st = (await group()).status;
  assert.equal(st?.phase, 'Pending');
  const cond = st?.conditions?.[0] as { reason: string; message: string };
  assert.equal(cond.reason, 'NotEnoughResources');
  assert.ok(cond.message.startsWith('4/4 tasks in gang unschedulable: pod group is not ready'), cond.message);
  assert.deepEqual(await nodesOf(s, 4), [undefined, undefined, undefined, undefined]);

  await s.addNode('gpu-3', gpuNode);
  await s.until(async () => (await group()).status?.phase === 'Running');
  assert.equal((await nodesOf(s, 4)).filter(Boolean).length, 4);
});

test('podgroup status summary: Pending until minMember are bound, then Running, Completed when done', () => {
  const p = (nodeName: string | undefined, phase: string, rejected = false): Pod => ({
    metadata: { name: 'x' },
    spec: { containers: [], ...(nodeName ? { nodeName } : {}) },
    status: { phase: phase as 'Pending', ...(rejected ? { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } : {}) },
  });
  const cases: [Pod[], string, number, string | undefined][] = [
    [[p(undefined, 'Pending', true), p(undefined, 'Pending'), p(undefined, 'Pending')], 'Pending', 0, '3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable; Pending: 1 Unschedulable, 2 Schedulable'],
    [[p('n1', 'Pending'), p('n2', 'Running'), p('n3', 'Running')], 'Running', 2, undefined],
    [[p('n1', 'Succeeded'), p('n2', 'Succeeded'), p('n3', 'Succeeded')], 'Completed', 0, undefined],
  ];
  for (const [members, phase, running, msg] of cases) {
    const s = summarizePodGroup(3, members);
    assert.deepEqual([s.phase, s.running, s.unschedulable], [phase, running, msg]);
  }
});

function ownScheduler(s: Scenario): Scheduler & AsyncDisposable {
  const sched = new Scheduler({ client: s.client, clock: s.clock, random: new SeededRandom(3), config: { profiles: [{ schedulerName: 'gang' }] } });
  sched.start();
  return Object.assign(sched, { [Symbol.asyncDispose]: () => sched.stop() });
}

function gateReasons(sched: Scheduler, pod: Pod): readonly string[] {
  const st = sched.profiles.get('gang')?.runPreEnqueue(pod);
  return st && 'reasons' in st ? st.reasons : [];
}
