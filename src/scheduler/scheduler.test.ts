import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import { SeededRandom } from '../core/index.ts';
import { unschedulable } from './framework.ts';
import { inTreeRegistry } from './plugins/registry.ts';
import { Scheduler } from './scheduler.ts';
import { startScenario } from './scenario-harness.test.ts';

test('GPU pods: three bind to the three one-GPU nodes, the fourth gets the upstream FitError', async () => {
  await using s = await startScenario();
  for (const n of ['gpu-0', 'gpu-1', 'gpu-2']) await s.addNode(n, { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1' });
  for (const p of ['p0', 'p1', 'p2', 'p3']) await s.addPod(p, { requests: { 'nvidia.com/gpu': '1' } });
  await s.until(async () => (await s.events('p3')).some((e) => e.reason === 'FailedScheduling'));
  const nodes = [];
  for (const p of ['p0', 'p1', 'p2', 'p3']) nodes.push((await s.pod(p)).spec.nodeName ?? '');
  assert.deepEqual(nodes.slice(0, 3).sort(), ['gpu-0', 'gpu-1', 'gpu-2']);
  assert.equal(nodes[3], '');
  // The cluster's gpu.nvidia.com DeviceClass maps nvidia.com/gpu (DRAExtendedResource), so the pod
  // has an in-memory extended-resource claim and DynamicResources' PostFilter reports on it.
  const msg = '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
  const cond = await s.scheduledCondition('p3');
  assert.deepEqual({ status: cond?.status, reason: cond?.reason, message: cond?.message }, { status: 'False', reason: 'Unschedulable', message: msg });
  // As Go writes it: the zero probe time as null, and the generation the condition was written against.
  const written = cond as { lastProbeTime?: unknown; observedGeneration?: number } | undefined;
  assert.deepEqual([written?.lastProbeTime, written?.observedGeneration], [null, 1]);
  const ev = (await s.events('p3')).find((e) => e.reason === 'FailedScheduling');
  assert.equal(ev?.message, msg);
  assert.equal(ev?.type, 'Warning');
  assert.equal(ev?.source?.component, 'default-scheduler');
  const scheduled = (await s.events('p0')).find((e) => e.reason === 'Scheduled');
  assert.equal(scheduled?.message, `Successfully assigned default/p0 to ${nodes[0]}`);
  // A new node requeues the pending pod (NodeResourcesFit registers Node/Add).
  await s.addNode('gpu-3', { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1' });
  await s.until(async () => (await s.pod('p3')).spec.nodeName === 'gpu-3');
});

test('taint + cpu through real plugins, with a DynamicResources-style PostFilter before preemption', async () => {
  const registry = { ...inTreeRegistry, DynamicResources: () => ({ name: 'DynamicResources', postFilter: async () => ({ status: unschedulable('no new claims to deallocate') }) }) };
  await using s = await startScenario();
  // A second scheduler in the same cluster, under its own name, with the extra plugin.
  const sched = new Scheduler({ client: s.client, clock: s.clock, random: new SeededRandom(1), registry, config: { profiles: [{ schedulerName: 'dra-scheduler' }] } });
  sched.start();
  try {
    await s.addNode('a', { cpu: '4', memory: '8Gi' }, { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] });
    await s.addNode('b', { cpu: '4', memory: '8Gi' });
    await s.addNode('c', { cpu: '4', memory: '8Gi' });
    await s.addPod('big', { schedulerName: 'dra-scheduler', requests: { cpu: '5' } });
    await s.addPod('filler-b', { nodeName: 'b', requests: { cpu: '3' } });
    await s.addPod('filler-c', { nodeName: 'c', requests: { cpu: '3' } });
    await s.addPod('p', { schedulerName: 'dra-scheduler', requests: { cpu: '2' } });
    await s.until(async () => (await s.scheduledCondition('p'))?.reason === 'Unschedulable');
    assert.equal((await s.scheduledCondition('p'))?.message,
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
    // cpu 5 > allocatable 4: unresolvable, so preemption calls every node not helpful.
    await s.until(async () => (await s.scheduledCondition('big'))?.reason === 'Unschedulable');
    assert.equal((await s.scheduledCondition('big'))?.message,
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
  } finally {
    await sched.stop();
  }
});

test('preemption evicts the lower-priority pod gracefully and nominates its node', async () => {
  await using s = await startScenario();
  await s.client.create(refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as never);
  await s.addNode('n1', { cpu: '2', memory: '4Gi' });
  await s.addPod('low', { requests: { cpu: '2' } });
  await s.until(async () => (await s.pod('low')).spec.nodeName === 'n1');
  await s.addPod('high', { priorityClassName: 'high', requests: { cpu: '2' } });
  await s.until(async () => (await s.pod('high')).status?.nominatedNodeName === 'n1');
  const low = await s.pod('low');
  assert.ok(low.metadata.deletionTimestamp, 'victim is being deleted gracefully');
  const dt = low.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  assert.deepEqual([dt?.reason, dt?.message], ['PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']);
  const preempted = (await s.events('low')).find((e) => e.reason === 'Preempted');
  assert.equal(preempted?.message, `Preempted by pod ${(await s.pod('high')).metadata.uid ?? ''} on node n1`);
  // The kubelet would finish the deletion; without one, force it.
  await s.client.delete(refs.pods, 'default', 'low', { gracePeriodSeconds: 0 });
  await s.until(async () => (await s.pod('high')).spec.nodeName === 'n1');
});

test('a pod naming an unknown scheduler stays Pending untouched', async () => {
  await using s = await startScenario();
  await s.addNode('n1', { cpu: '2', memory: '4Gi' });
  await s.addPod('other', { schedulerName: 'my-scheduler' });
  await s.addPod('mine', {});
  await s.until(async () => (await s.pod('mine')).spec.nodeName === 'n1');
  await s.clock.advance(5_000);
  const other = await s.pod('other');
  assert.equal(other.spec.nodeName, undefined);
  assert.equal(other.status?.conditions?.find((c) => c.type === 'PodScheduled'), undefined);
  assert.deepEqual(await s.events('other'), []);
});

test('scheduling gates hold a pod without an attempt until removed', async () => {
  await using s = await startScenario();
  await s.addNode('n1', { cpu: '2', memory: '4Gi' });
  await s.addPod('gated', { schedulingGates: [{ name: 'example.com/wait' }] });
  await s.clock.advance(3_000);
  assert.equal((await s.pod('gated')).spec.nodeName, undefined);
  assert.equal((await s.events('gated')).some((e) => e.reason === 'FailedScheduling'), false);
  await s.client.patch(refs.pods, 'default', 'gated', 'merge', { spec: { schedulingGates: null } });
  await s.until(async () => (await s.pod('gated')).spec.nodeName === 'n1');
});

test('MostAllocated bin-packs GPU pods onto one node; LeastAllocated spreads them', async () => {
  for (const [type, wantDistinct] of [['MostAllocated', 1], ['LeastAllocated', 2]] as const) {
    await using s = await startScenario({ scheduler: { profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type, resources: [{ name: 'nvidia.com/gpu', weight: 1 }] } } }] }] } });
    await s.addNode('g1', { cpu: '64', memory: '256Gi', 'nvidia.com/gpu': '8' });
    await s.addNode('g2', { cpu: '64', memory: '256Gi', 'nvidia.com/gpu': '8' });
    await s.addPod('first', { requests: { 'nvidia.com/gpu': '2' } });
    await s.until(async () => !!(await s.pod('first')).spec.nodeName);
    await s.addPod('second', { requests: { 'nvidia.com/gpu': '2' } });
    await s.until(async () => !!(await s.pod('second')).spec.nodeName);
    const nodes = new Set([(await s.pod('first')).spec.nodeName, (await s.pod('second')).spec.nodeName]);
    assert.equal(nodes.size, wantDistinct, type);
  }
});

test('required pod anti-affinity keeps replicas on distinct nodes and reports the upstream reason', async () => {
  await using s = await startScenario();
  for (const n of ['n1', 'n2']) await s.addNode(n, { cpu: '8', memory: '8Gi' });
  const anti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }] } };
  for (const p of ['w1', 'w2', 'w3']) await s.addPod(p, { affinity: anti }, { labels: { app: 'web' } });
  await s.until(async () => (await s.scheduledCondition('w3'))?.reason === 'Unschedulable' || (await s.scheduledCondition('w2'))?.reason === 'Unschedulable' || (await s.scheduledCondition('w1'))?.reason === 'Unschedulable');
  const pods = await Promise.all(['w1', 'w2', 'w3'].map((p) => s.pod(p)));
  const bound = pods.filter((p) => p.spec.nodeName).map((p) => p.spec.nodeName);
  assert.deepEqual(bound.sort(), ['n1', 'n2']);
  const pending = pods.find((p) => !p.spec.nodeName);
  assert.equal(pending?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message,
    "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
});

test("a topology key named as an Object.prototype member is a label the nodes lack, as any other", async () => {
  await using s = await startScenario();
  for (const n of ['n1', 'n2']) await s.addNode(n, { cpu: '8', memory: '8Gi' });
  const affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'constructor' }] } };
  await s.addPod('w1', { affinity }, { labels: { app: 'web' } });
  await s.until(async () => (await s.scheduledCondition('w1'))?.reason === 'Unschedulable');
  assert.match((await s.scheduledCondition('w1'))?.message ?? '', /^0\/2 nodes are available: 2 node\(s\) didn't match pod affinity rules\./);
});

test('ScheduleAnyway topology spread outweighs bin-packing: replicas alternate zones, then fill the emptiest node', async () => {
  await using s = await startScenario({ scheduler: { profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } }] }] } });
  await s.addNode('a', { cpu: '8', memory: '8Gi' }, { labels: { 'topology.kubernetes.io/zone': 'z1' } });
  await s.addNode('b', { cpu: '8', memory: '8Gi' }, { labels: { 'topology.kubernetes.io/zone': 'z1' } });
  await s.addNode('c', { cpu: '8', memory: '8Gi' }, { labels: { 'topology.kubernetes.io/zone': 'z2' } });
  const spread = ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({ maxSkew: 1, topologyKey, whenUnsatisfiable: 'ScheduleAnyway' as const, labelSelector: { matchLabels: { app: 'web' } } }));
  const placed: string[] = [];
  for (const name of ['w1', 'w2', 'w3', 'w4']) {
    await s.addPod(name, { requests: { cpu: '100m' }, topologySpreadConstraints: spread }, { labels: { app: 'web' } });
    await s.until(async () => !!(await s.pod(name)).spec.nodeName);
    placed.push((await s.pod(name)).spec.nodeName ?? '');
  }
  // Without the spread, MostAllocated would stack all four on one node.
  const perNode = Object.fromEntries(['a', 'b', 'c'].map((n) => [n, placed.filter((p) => p === n).length]));
  assert.deepEqual(perNode, { a: 1, b: 1, c: 2 }, placed.join(','));
});
