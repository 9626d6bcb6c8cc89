// Scenario tests on the VirtualClock: a node whose lease stops renewing goes Unknown after the
// grace period, gets the unreachable taints, its pods are marked not ready and evicted at 300 s;
// healing removes the taints; the not-ready taint a node is created with (TaintNodesByCondition) goes
// once it is Ready. The kubelet is played by the test through the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Event, Lease, Node, Pod } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import type { Client } from '../../client/index.ts';
import { VirtualClock, formatMicroTime, formatTime, isApiError } from '../../core/index.ts';
import type { Timer } from '../../core/index.ts';
import { NodeLifecycleController } from './controller.ts';
import { TaintEvictionController } from './taint-eviction.ts';

const readyConditions = (t: string): NonNullable<Node['status']> => ({
  conditions: [
    { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: t, lastTransitionTime: t },
    { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: t, lastTransitionTime: t },
    { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: t, lastTransitionTime: t },
    { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: t, lastTransitionTime: t },
  ],
});

/** A stand-in kubelet: registers, posts Ready, renews its Lease every 10 s until failed. */
class FakeKubelet {
  readonly #client: Client;
  readonly #clock: VirtualClock;
  readonly name: string;
  #timer: Timer | undefined;
  constructor(client: Client, clock: VirtualClock, name: string) {
    this.#client = client;
    this.#clock = clock;
    this.name = name;
  }
  async register(): Promise<void> {
    const t = formatTime(this.#clock.now());
    const node = await this.#client.create<Node>(refs.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: this.name, labels: { 'topology.kubernetes.io/zone': 'z1' } } });
    await this.#client.updateStatus<Node>(refs.nodes, { ...node, status: readyConditions(t) });
    const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: 'kube-node-lease' }, spec: { holderIdentity: this.name, leaseDurationSeconds: 40, renewTime: formatMicroTime(this.#clock.now()) } };
    await this.#client.create(refs.leases, lease);
    this.#schedule();
  }
  #schedule(): void {
    this.#timer = this.#clock.after(10_000, () => {
      void this.#renew().then(() => this.#schedule());
    });
  }
  async #renew(): Promise<void> {
    const lease = await this.#client.get<Lease>(refs.leases, 'kube-node-lease', this.name);
    await this.#client.update(refs.leases, { ...lease, spec: { ...lease.spec, renewTime: formatMicroTime(this.#clock.now()) } });
  }
  fail(): void {
    this.#timer?.cancel();
  }
  async heal(): Promise<void> {
    await this.#renew();
    const node = await this.#client.get<Node>(refs.nodes, undefined, this.name);
    const t = formatTime(this.#clock.now());
    await this.#client.updateStatus<Node>(refs.nodes, { ...node, status: readyConditions(t) });
    this.#schedule();
  }
}

async function setup(nodeNames: readonly string[]) {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  const kubelets = new Map<string, FakeKubelet>();
  for (const name of nodeNames) {
    const k = new FakeKubelet(client, clock, name);
    await k.register();
    kubelets.set(name, k);
  }
  const log = (): void => {};
  const lifecycle = new NodeLifecycleController({ client, clock, log });
  const eviction = new TaintEvictionController({ client, clock, log });
  lifecycle.start();
  eviction.start();
  const start = clock.now();
  return {
    clock,
    client,
    kubelets,
    /** Advances the clock to `s` seconds after setup. */
    at: (s: number) => clock.advance(start + s * 1000 - clock.now()),
    elapsed: (iso: string | undefined) => (Date.parse(iso ?? '') - start) / 1000,
    node: (name: string) => client.get<Node>(refs.nodes, undefined, name),
    pod: async (name: string) => {
      try {
        return await client.get<Pod>(refs.pods, 'default', name);
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') return undefined;
        throw error;
      }
    },
    async runningPod(name: string, nodeName: string, extra: Partial<Pod['spec']> = {}): Promise<void> {
      const pod = await client.create<Pod>(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], ...extra } }, { namespace: 'default' });
      const t = formatTime(clock.now());
      await client.updateStatus(refs.pods, { ...pod, status: { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }] } });
    },
    async [Symbol.asyncDispose]() {
      lifecycle.stop();
      eviction.stop();
      for (const k of kubelets.values()) k.fail();
      await cluster.stop();
    },
  };
}

const condition = (node: Node, type: string) => node.status?.conditions?.find((c) => c.type === type);
const taintKeys = (node: Node) => (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

test('a node whose lease stops renewing goes Unknown after the 50 s grace period, is tainted, and its pods are evicted at 300 s', async () => {
  await using s = await setup(['n1', 'n2']);
  await s.runningPod('web', 'n1');
  await s.at(30);
  s.kubelets.get('n1')?.fail(); // last renewal at 30 s

  await s.at(80);
  assert.equal(condition(await s.node('n1'), 'Ready')?.status, 'True', 'still within the grace period');
  await s.at(86);
  const n1 = await s.node('n1');
  for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const c = condition(n1, type);
    assert.deepEqual([c?.status, c?.reason, c?.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'], type);
  }
  const unknownAt = s.elapsed(condition(n1, 'Ready')?.lastTransitionTime);
  // Monitor passes run every 5 s: the first one more than 50 s after the renewal seen at 30 s.
  assert.equal(unknownAt, 85);
  assert.equal(condition(await s.node('n2'), 'Ready')?.status, 'True');

  const web = await s.pod('web');
  assert.equal(web?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');

  await s.at(unknownAt + 6);
  const tainted = await s.node('n1');
  assert.deepEqual(taintKeys(tainted), ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
  const noExecuteAt = s.elapsed(tainted.spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded);
  // The NoExecute taint comes with the next 5 s monitor pass, which sees Ready=Unknown.
  assert.equal(noExecuteAt, 90);

  // The pod tolerates unreachable:NoExecute for 300 s (DefaultTolerationSeconds admission).
  await s.at(noExecuteAt + 299);
  assert.equal((await s.pod('web'))?.metadata.deletionTimestamp, undefined);
  await s.at(noExecuteAt + 301);
  const evicted = await s.pod('web');
  assert.ok(evicted?.metadata.deletionTimestamp, 'marked for deletion');
  const target = evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  assert.deepEqual([target?.status, target?.reason, target?.message], ['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']);

  const events = await s.client.list<Event>(refs.events, { namespace: 'default' });
  const seen = events.items.map((e) => `${e.involvedObject.name} ${e.reason}: ${e.message}`);
  for (const want of ['n1 NodeNotReady: Node n1 status is now: NodeNotReady', 'web NodeNotReady: Node is not ready', 'web TaintManagerEviction: Marking for deletion Pod default/web', 'n1 RegisteredNode: Node n1 event: Registered Node n1 in Controller']) {
    assert.ok(seen.includes(want), `missing event "${want}" in ${JSON.stringify(seen)}`);
  }
});

test('a pod that tolerates unreachable forever stays; healing removes the taints', async () => {
  await using s = await setup(['n1', 'n2']);
  await s.runningPod('forever', 'n1', { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }] });
  await s.runningPod('short', 'n1', { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }] });
  s.kubelets.get('n1')?.fail();
  await s.at(70);
  assert.deepEqual(taintKeys(await s.node('n1')), ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
  await s.at(100);
  assert.ok((await s.pod('short'))?.metadata.deletionTimestamp, 'the 20 s toleration ran out');
  await s.at(500);
  assert.equal((await s.pod('forever'))?.metadata.deletionTimestamp, undefined);

  await s.kubelets.get('n1')?.heal();
  await s.at(506);
  const healed = await s.node('n1');
  assert.equal(condition(healed, 'Ready')?.status, 'True');
  assert.deepEqual(taintKeys(healed), []);
});

test('a kubelet that reports Ready=False gets the not-ready taints', async () => {
  await using s = await setup(['n1', 'n2']);
  const node = await s.node('n1');
  const t = formatTime(s.clock.now());
  const conditions = (node.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'False' as const, reason: 'KubeletNotReady', message: 'container runtime is down', lastTransitionTime: t } : c));
  await s.client.updateStatus(refs.nodes, { ...node, status: { ...node.status, conditions } });
  await s.at(11);
  assert.deepEqual(taintKeys(await s.node('n1')), ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule']);
});

test('when every node is unreachable the controller assumes its own disruption and adds no NoExecute taint', async () => {
  await using s = await setup(['solo']);
  await s.runningPod('web', 'solo');
  s.kubelets.get('solo')?.fail();
  await s.at(400);
  const solo = await s.node('solo');
  assert.equal(condition(solo, 'Ready')?.status, 'Unknown');
  assert.deepEqual(taintKeys(solo), ['node.kubernetes.io/unreachable:NoSchedule']);
  assert.equal((await s.pod('web'))?.metadata.deletionTimestamp, undefined);
});

test('cordon adds the unschedulable taint and uncordon removes it', async () => {
  await using s = await setup(['n1']);
  const node = await s.node('n1');
  await s.client.update(refs.nodes, { ...node, spec: { ...node.spec, unschedulable: true } });
  await s.at(1);
  assert.deepEqual(taintKeys(await s.node('n1')), ['node.kubernetes.io/unschedulable:NoSchedule']);
  const cordoned = await s.node('n1');
  await s.client.update(refs.nodes, { ...cordoned, spec: { ...cordoned.spec, unschedulable: false } });
  await s.at(2);
  assert.deepEqual(taintKeys(await s.node('n1')), []);
});

test('the not-ready taint a node is created with goes once the controller sees it Ready, and not before', async () => {
  await using s = await setup(['n1']);
  const t = formatTime(s.clock.now());
  const notReady = readyConditions(t).conditions?.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' as const, reason: 'KubeletNotReady', message: 'container runtime network not ready' } : c));
  await s.client.create<Node>(refs.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2', labels: { 'topology.kubernetes.io/zone': 'z1' } }, status: { conditions: notReady ?? [] } });
  await s.at(1);
  const noSchedule = (node: Node) => taintKeys(node).filter((k) => k.endsWith(':NoSchedule'));
  assert.deepEqual(noSchedule(await s.node('n1')), [], 'registered Ready: the taint is lifted');
  assert.deepEqual(noSchedule(await s.node('n2')), ['node.kubernetes.io/not-ready:NoSchedule']);
  const n2 = await s.node('n2');
  await s.client.updateStatus(refs.nodes, { ...n2, status: readyConditions(formatTime(s.clock.now())) });
  await s.at(2);
  assert.deepEqual(noSchedule(await s.node('n2')), []);
});
