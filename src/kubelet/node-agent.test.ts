// Node leases as the node lifecycle controller and a user watching kube-node-lease see them: every
// node renews within its 10 s interval (plus upstream's 4% jitter), and nodes that registered together
// do not renew in one burst.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { CSINode, Event, Lease, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

test('nodes registered together renew their leases out of phase, each within 10.4 s', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 20, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  const renewals = new Map<string, number[]>();
  const list = await c.client.list<Lease>(refs.leases, { namespace: 'kube-node-lease' });
  for (const l of list.items) renewals.set(l.metadata.name ?? '', [Date.parse(l.spec?.renewTime ?? '')]);
  const watch = c.client.watch<Lease>(refs.leases, { namespace: 'kube-node-lease', resourceVersion: list.metadata.resourceVersion ?? '' }, (e) => {
    const lease = e.object as Lease;
    renewals.get(lease.metadata.name ?? '')?.push(Date.parse(lease.spec?.renewTime ?? ''));
  });
  const start = clock.now();
  await clock.advance(45_000);
  watch.stop();

  assert.equal(renewals.size, 20);
  const firstRenewals = new Set<number>();
  for (const [name, times] of renewals) {
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
    assert.ok(times.length >= 5, `${name} renewed ${times.length - 1} times in 45 s`);
    assert.ok(Math.max(...gaps) <= 10_400, `${name}: a gap of ${Math.max(...gaps)} ms between renewals`);
    firstRenewals.add((times[1] ?? 0) - start);
  }
  // Twenty nodes renewing at one instant is what a burst looks like; out of phase, they spread over the interval.
  assert.ok(firstRenewals.size >= 15, `first renewals at only ${firstRenewals.size} distinct times`);
  assert.ok(Math.max(...firstRenewals) - Math.min(...firstRenewals) >= 5_000, 'first renewals spread over at least half the interval');
});

test('a kubelet records its start and its node conditions as events about the Node; NodeNotReady and NodeReady only on a change', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  const kubeletEvents = async (): Promise<string[]> => {
    const events = await c.client.list<Event>(refs.events, { namespace: 'default', fieldSelector: 'involvedObject.kind=Node,involvedObject.name=cpu-0,source=kubelet' });
    return events.items.map((e) => `${e.reason}: ${e.message}`);
  };
  await clock.advance(100);
  assert.deepEqual(await kubeletEvents(), [
    'Starting: Starting kubelet.',
    'NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
    'NodeHasSufficientMemory: Node cpu-0 status is now: NodeHasSufficientMemory',
    'NodeHasNoDiskPressure: Node cpu-0 status is now: NodeHasNoDiskPressure',
    'NodeHasSufficientPID: Node cpu-0 status is now: NodeHasSufficientPID',
  ], 'a new node\'s first Ready is no transition');
  const events = await c.client.list<Event>(refs.events, { namespace: 'default', fieldSelector: 'reason=Starting' });
  assert.deepEqual(events.items[0]?.involvedObject, { kind: 'Node', name: 'cpu-0', uid: 'cpu-0' }, 'the kubelet names its node by name, as uid too');
  // Ready turned Unknown behind the kubelet's back: its next status report (every 5 minutes on a
  // healthy node, on a 10 s tick) sets it True again, a transition, so NodeReady is recorded.
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'strategic', { status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }] } }, { subresource: 'status' });
  for (let i = 0; i < 32; i++) await clock.advance(10_000);
  assert.ok((await kubeletEvents()).includes('NodeReady: Node cpu-0 status is now: NodeReady'), (await kubeletEvents()).join('\n'));
});

test("the kubelet's status reports keep the conditions other setters wrote (node-problem-detector's, a user's), where they stand", async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  await clock.advance(100);
  const gpuCondition = { type: 'example.com/GPUHealthy', status: 'False', reason: 'XidError', message: 'Xid 79 on GPU 0' };
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'strategic', { status: { conditions: [gpuCondition] } }, { subresource: 'status' });
  const conditions = async (): Promise<string[]> => ((await c.client.get<Node>(refs.nodes, undefined, 'cpu-0')).status?.conditions ?? []).map((x) => `${x.type}=${x.status}`);
  const before = await conditions();
  const heartbeat = async (): Promise<string | undefined> => (await c.client.get<Node>(refs.nodes, undefined, 'cpu-0')).status?.conditions?.find((x) => x.type === 'Ready')?.lastHeartbeatTime;
  const firstHeartbeat = await heartbeat();
  // Past the 5-minute report: the kubelet wrote its conditions again.
  for (let i = 0; i < 32; i++) await clock.advance(10_000);
  assert.notEqual(await heartbeat(), firstHeartbeat, 'the kubelet reported its status');
  assert.deepEqual(await conditions(), before);
  // A strategic merge puts a condition the live list lacks first, as upstream's mergeSortedSlice does.
  assert.deepEqual(before, ['example.com/GPUHealthy=False', 'MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True']);
});

test('an extended resource advertised in the Node\'s capacity is allocatable at the kubelet\'s next 10 s status check, and pods get it', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  await clock.advance(100);
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'json', [{ op: 'add', path: '/status/capacity/example.com~1dongle', value: '4' }], { subresource: 'status' });
  await clock.advance(10_500);
  const node = await c.client.get<Node>(refs.nodes, undefined, 'cpu-0');
  assert.equal(node.status?.allocatable?.['example.com/dongle'], '4');
  const pod = (name: string, dongles: number): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { 'example.com/dongle': String(dongles) }, limits: { 'example.com/dongle': String(dongles) } } }] } });
  await c.client.create(refs.pods, pod('three', 3));
  await c.client.create(refs.pods, pod('two', 2));
  await clock.advance(2_000);
  const phase = async (name: string): Promise<string | undefined> => (await c.client.get<Pod>(refs.pods, 'default', name)).status?.phase;
  assert.equal(await phase('three'), 'Running');
  assert.equal(await phase('two'), 'Pending');
});

test('a healthy node writes no status between its 5-minute reports', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 3, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  await clock.advance(100);
  const list = await c.client.list<Node>(refs.nodes, {});
  const writes: string[] = [];
  const watch = c.client.watch<Node>(refs.nodes, { resourceVersion: list.metadata.resourceVersion ?? '' }, (e) => writes.push(`${e.type} ${e.object.metadata.name}`));
  await clock.advance(120_000);
  watch.stop();
  assert.deepEqual(writes, []);
});

test('a pod placed by a label set on the Node after it registered passes the kubelet\'s admission', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  await clock.advance(100);
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'merge', { metadata: { labels: { disk: 'ssd' } } });
  await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ssd', namespace: 'default' }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] } } as Pod);
  await clock.advance(2_000);
  const pod = await c.client.get<Pod>(refs.pods, 'default', 'ssd');
  assert.equal(pod.status?.phase, 'Running', JSON.stringify(pod.status));
});

test('each kubelet writes its CSINode: no drivers, the migrated in-tree plugins, owned by its Node', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 2, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  const csiNodes = await c.client.list<CSINode>(refs.csiNodes);
  assert.deepEqual(csiNodes.items.map((n) => n.metadata.name), ['cpu-0', 'cpu-1']);
  const node = await c.client.get<Node>(refs.nodes, undefined, 'cpu-0');
  const csiNode = csiNodes.items[0];
  assert.equal(csiNode?.spec.drivers, null);
  assert.deepEqual(csiNode?.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'cpu-0', uid: node.metadata.uid }]);
  assert.equal(csiNode?.metadata.annotations?.['storage.alpha.kubernetes.io/migrated-plugins'], 'kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume');
});

test('a cordon and an uncordon are NodeNotSchedulable and NodeSchedulable events at the kubelet\'s next status check', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  const schedulingEvents = async (): Promise<string[]> => {
    const events = await c.client.list<Event>(refs.events, { namespace: 'default', fieldSelector: 'involvedObject.name=cpu-0,source=kubelet' });
    return events.items.filter((e) => e.reason?.includes('Schedulable')).map((e) => `${e.reason}: ${e.message}`);
  };
  await clock.advance(11_000);
  assert.deepEqual(await schedulingEvents(), [], 'a new schedulable node records nothing');
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'strategic', { spec: { unschedulable: true } });
  await clock.advance(11_000);
  assert.deepEqual(await schedulingEvents(), ['NodeNotSchedulable: Node cpu-0 status is now: NodeNotSchedulable']);
  await c.client.patch(refs.nodes, undefined, 'cpu-0', 'strategic', { spec: { unschedulable: false } });
  await clock.advance(11_000);
  assert.deepEqual(await schedulingEvents(), ['NodeNotSchedulable: Node cpu-0 status is now: NodeNotSchedulable', 'NodeSchedulable: Node cpu-0 status is now: NodeSchedulable']);
});
