// Scenario tests for the DaemonSet controller on an in-process cluster with kubelets and a
// VirtualClock: a pod per eligible node, rolling updates within maxUnavailable / maxSurge, history
// and rollback, nodes joining, taints, and failed daemon pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { ControllerRevision, DaemonSet, Event, Node, Pod } from '../../api/index.ts';
import type { PoolsConfigMap } from '../../cluster/index.ts';
import { Cluster, addNodes, clusterConfigFrom, nodePoolsConfigMap, nodePoolsNamespace, parsePoolStates, poolStatesData } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

async function startCluster(nodes = 3): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: nodes, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(7), components: true, log: () => {} });
  return { c, clock };
}

function daemonSet(name: string, image: string, extra: Partial<DaemonSet['spec']> = {}, annotations: Record<string, string> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name }, annotations }, spec: { containers: [{ name: 'agent', image }] } },
      ...extra,
    },
  };
}

const pods = async (c: Cluster, app: string): Promise<Pod[]> => (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: `app=${app}` })).items;
const live = (list: Pod[]): Pod[] => list.filter((p) => !p.metadata.deletionTimestamp);
const nodesOf = (list: Pod[]): string[] => live(list).map((p) => p.spec.nodeName ?? '?').sort();
const getDs = (c: Cluster, name: string): Promise<DaemonSet> => c.client.get<DaemonSet>(refs.daemonSets, 'default', name);
const rolledOut = (ds: DaemonSet): boolean => {
  const s = ds.status;
  return !!s && (s.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0) && (s.updatedNumberScheduled ?? 0) === s.desiredNumberScheduled && (s.numberAvailable ?? 0) === s.desiredNumberScheduled;
};

test('one daemon pod per node, pinned by a metadata.name node affinity, with the daemon tolerations; status counts every node', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.daemonSets, daemonSet('agent', 'fluent/fluent-bit:3.0'), { namespace: 'default' });
    await clock.advance(3_000);
    const list = await pods(c, 'agent');
    assert.deepEqual(nodesOf(list), ['cpu-0', 'cpu-1', 'cpu-2']);
    const pod = list.find((p) => p.spec.nodeName === 'cpu-1');
    assert.deepEqual(pod?.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms, [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['cpu-1'] }] }]);
    assert.deepEqual(pod?.spec.tolerations?.map((t) => `${t.key}:${t.effect}`), [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    assert.equal(pod?.metadata.labels?.['pod-template-generation'], '1');
    const ds = await getDs(c, 'agent');
    assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '1');
    assert.deepEqual(ds.status, { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });
    const revisions = (await c.client.list<ControllerRevision>(refs.controllerRevisions, { namespace: 'default' })).items;
    assert.deepEqual(revisions.map((r) => [r.revision, r.metadata.labels?.['controller-revision-hash'] === pod?.metadata.labels?.['controller-revision-hash']]), [[1, true]]);
  } finally {
    await c.stop();
  }
});

test('a rolling update replaces one node at a time (maxUnavailable 1); undo rolls back and renumbers the old revision', async () => {
  const { c, clock } = await startCluster();
  try {
    // Each new pod takes 2 s to come up, so the one-at-a-time order is visible.
    const slow = { 'sim.drydock.dev/agent': 'startupDelay: 2s' };
    await c.client.create(refs.daemonSets, daemonSet('agent', 'agent:1', {}, slow), { namespace: 'default' });
    await clock.advance(5_000);
    const ds = await getDs(c, 'agent');
    await c.client.update(refs.daemonSets, { ...ds, spec: { ...ds.spec, template: { ...ds.spec.template, spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } });
    let maxUnavailable = 0;
    for (let t = 0; t < 20_000; t += 250) {
      await clock.advance(250);
      const list = live(await pods(c, 'agent'));
      const ready = list.filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length;
      maxUnavailable = Math.max(maxUnavailable, 3 - ready);
    }
    assert.equal(maxUnavailable, 1);
    const updated = await getDs(c, 'agent');
    assert.ok(rolledOut(updated), JSON.stringify(updated.status));
    assert.equal(updated.metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
    assert.deepEqual(live(await pods(c, 'agent')).map((p) => p.spec.containers[0]?.image), ['agent:2', 'agent:2', 'agent:2']);
    // kubectl rollout undo: the previous revision's data patched onto the DaemonSet.
    const revisions = (await c.client.list<ControllerRevision>(refs.controllerRevisions, { namespace: 'default' })).items;
    const first = revisions.find((r) => r.revision === 1);
    assert.ok(first);
    await c.client.patch(refs.daemonSets, 'default', 'agent', 'strategic', first.data);
    await clock.advance(20_000);
    assert.deepEqual(live(await pods(c, 'agent')).map((p) => p.spec.containers[0]?.image), ['agent:1', 'agent:1', 'agent:1']);
    const after = (await c.client.list<ControllerRevision>(refs.controllerRevisions, { namespace: 'default' })).items;
    assert.deepEqual(after.map((r) => [r.metadata.name === first.metadata.name, r.revision]).sort(), [[false, 2], [true, 3]]);
  } finally {
    await c.stop();
  }
});

test('with maxSurge the new pod starts beside the old one, which goes once the new one is available', async () => {
  const { c, clock } = await startCluster(2);
  try {
    const strategy = { updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } };
    await c.client.create(refs.daemonSets, daemonSet('agent', 'agent:1', strategy, { 'sim.drydock.dev/agent': 'startupDelay: 2s' }), { namespace: 'default' });
    await clock.advance(5_000);
    const old = (await pods(c, 'agent')).map((p) => `Deleted pod: ${p.metadata.name ?? ''}`).sort();
    const ds = await getDs(c, 'agent');
    await c.client.update(refs.daemonSets, { ...ds, spec: { ...ds.spec, template: { ...ds.spec.template, spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } });
    let minReady = 2;
    let maxPods = 0;
    for (let t = 0; t < 15_000; t += 250) {
      await clock.advance(250);
      const list = live(await pods(c, 'agent'));
      maxPods = Math.max(maxPods, list.length);
      minReady = Math.min(minReady, list.filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length);
    }
    assert.equal(minReady, 2, 'never below full availability');
    assert.equal(maxPods, 3, 'one surge pod at a time');
    assert.deepEqual(live(await pods(c, 'agent')).map((p) => p.spec.containers[0]?.image), ['agent:2', 'agent:2']);
    // Each old pod is deleted once: one SuccessfulDelete each, never a count of 2.
    const deletes = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === 'SuccessfulDelete');
    assert.deepEqual(deletes.map((e) => `${e.message ?? ''} x${e.count ?? 1}`).sort(), old.map((m) => `${m} x1`));
  } finally {
    await c.stop();
  }
});

test('a node that joins gets a pod; NoSchedule keeps new pods off but the running one stays; NoExecute evicts it', async () => {
  const { c, clock } = await startCluster(2);
  try {
    await c.client.create(refs.daemonSets, daemonSet('agent', 'agent:1'), { namespace: 'default' });
    await clock.advance(3_000);
    // What `drydock node add --pool cpu` writes.
    const cm = await c.client.get<PoolsConfigMap>(refs.configMaps, nodePoolsNamespace, nodePoolsConfigMap);
    const states = parsePoolStates(cm);
    const cpu = states.get('cpu');
    assert.ok(cpu);
    states.set('cpu', addNodes(cpu, 1).state);
    await c.client.update(refs.configMaps, { ...cm, data: poolStatesData(states) });
    await clock.advance(3_000);
    assert.deepEqual(nodesOf(await pods(c, 'agent')), ['cpu-0', 'cpu-1', 'cpu-2']);
    const taint = async (name: string, effect: 'NoSchedule' | 'NoExecute'): Promise<void> => {
      const node = await c.client.get<Node>(refs.nodes, undefined, name);
      await c.client.update(refs.nodes, { ...node, spec: { ...node.spec, taints: [{ key: 'dedicated', value: 'x', effect }] } });
    };
    await taint('cpu-1', 'NoSchedule');
    await clock.advance(3_000);
    assert.deepEqual(nodesOf(await pods(c, 'agent')), ['cpu-0', 'cpu-1', 'cpu-2']);
    const ds = await getDs(c, 'agent');
    assert.deepEqual([ds.status?.desiredNumberScheduled, ds.status?.currentNumberScheduled, ds.status?.numberMisscheduled], [2, 2, 1]);
    await taint('cpu-1', 'NoExecute');
    await clock.advance(5_000);
    assert.deepEqual(nodesOf(await pods(c, 'agent')), ['cpu-0', 'cpu-2']);
  } finally {
    await c.stop();
  }
});

test('a failed daemon pod is deleted and replaced, with a FailedDaemonPod event', async () => {
  const { c, clock } = await startCluster(1);
  try {
    await c.client.create(refs.daemonSets, daemonSet('agent', 'agent:1'), { namespace: 'default' });
    await clock.advance(3_000);
    const [pod] = await pods(c, 'agent');
    assert.ok(pod);
    await c.client.updateStatus<Pod>(refs.pods, { ...pod, status: { ...pod.status, phase: 'Failed' } });
    await clock.advance(5_000);
    const list = live(await pods(c, 'agent'));
    assert.equal(list.length, 1);
    assert.notEqual(list[0]?.metadata.name, pod.metadata.name);
    const events = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === 'FailedDaemonPod');
    assert.deepEqual(events.map((e) => e.message), [`Found failed daemon pod default/${pod.metadata.name ?? ''} on node cpu-0, will try to kill it`]);
  } finally {
    await c.stop();
  }
});
