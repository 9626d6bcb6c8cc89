// Nodes as a kubectl user meets them: VERSION per kubelet, cordon/uncordon/drain (eviction),
// and `drydock node add|fail|heal|remove` against the running cluster, with the node-lifecycle
// controller's reaction to a failed kubelet. The cluster runs on a x20 clock so the 50 s grace
// period passes in a few seconds.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { drydockForSuite } from './harness.ts';
import type { Drydock, KubectlResult } from './harness.ts';


const config = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
clock: scaled:20
nodePools:
- name: cpu
  count: 2
- name: old
  count: 1
  kubeletVersion: v1.33.0
`;

interface NodeJson {
  metadata: { name: string };
  spec?: { unschedulable?: boolean; taints?: { key: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[]; nodeInfo?: { kubeletVersion?: string } };
}

describe('nodes with kubectl and drydock node', () => {
  const dd = drydockForSuite({ config });

  const drydock = (args: readonly string[]): Promise<KubectlResult> => dd.node(args);

  const rows = async (): Promise<string[][]> => {
    const r = await dd.kubectl(['get', 'nodes']);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim().split('\n').map((line) => line.trim().split(/\s+/));
  };
  const nodeJson = async (name: string): Promise<NodeJson | undefined> => {
    const r = await dd.kubectl(['get', 'node', name, '-o', 'json']);
    return r.code === 0 ? (JSON.parse(r.stdout) as NodeJson) : undefined;
  };
  /** Polls until `check` holds (the cluster acts asynchronously); fails with the last value seen. */
  const eventually = async <T>(what: string, get: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 30_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await get();
      if (check(v)) return v;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
      await delay(100);
    }
  };
  const ready = (n: NodeJson | undefined) => n?.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = (n: NodeJson | undefined) => (n?.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

  test('get nodes shows every node Ready with its kubelet version', async () => {
    const [header, ...nodes] = await rows();
    assert.deepEqual(header, ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    assert.deepEqual(
      nodes.map(([name, status, roles, , version]) => [name, status, roles, version]),
      [
        ['cpu-0', 'Ready', '<none>', 'v1.35.0'],
        ['cpu-1', 'Ready', '<none>', 'v1.35.0'],
        ['old-0', 'Ready', '<none>', 'v1.33.0'],
      ],
    );
  });

  test('nodes/proxy reaches the kubelet: healthz, its pods, a stats summary and resource metrics that agree with kubectl top', async () => {
    const overrides = { spec: { nodeName: 'cpu-1', containers: [{ name: 'busy', image: 'nginx', resources: { limits: { memory: '1Gi' } } }] } };
    await dd.ok(['run', 'busy', '--image=nginx', `--overrides=${JSON.stringify(overrides)}`, '--annotations=sim.drydock.dev/busy=cpu: 250m\nmemory: 150Mi']);
    await eventually('busy running', () => dd.kubectl(['get', 'pod', 'busy', '-o', 'jsonpath={.status.phase}']), (r) => r.stdout === 'Running');
    assert.equal(await dd.ok(['get', '--raw', '/api/v1/nodes/cpu-1/proxy/healthz']), 'ok');
    const pods = JSON.parse(await dd.ok(['get', '--raw', '/api/v1/nodes/cpu-1/proxy/pods'])) as { kind: string; items: { metadata: { name: string } }[] };
    assert.deepEqual([pods.kind, pods.items.map((p) => p.metadata.name)], ['PodList', ['busy']]);
    interface Usage { usageNanoCores?: number; workingSetBytes?: number; availableBytes?: number }
    interface Summary { node: { nodeName: string; cpu: Usage; memory: Usage }; pods: { podRef: { name: string }; containers: { name: string; cpu: Usage; memory: Usage }[] }[] }
    const summary = JSON.parse(await dd.ok(['get', '--raw', '/api/v1/nodes/cpu-1/proxy/stats/summary'])) as Summary;
    const [pod] = summary.pods;
    assert.equal(pod?.podRef.name, 'busy');
    const container = pod?.containers[0];
    assert.deepEqual([container?.name, container?.cpu.usageNanoCores, container?.memory.workingSetBytes, container?.memory.availableBytes], ['busy', 250_000_000, 150 * 2 ** 20, (1024 - 150) * 2 ** 20]);
    assert.deepEqual([summary.node.nodeName, summary.node.cpu.usageNanoCores, summary.node.memory.workingSetBytes], ['cpu-1', 250_000_000, 150 * 2 ** 20]);
    // metrics-server's source: the same figures in the Prometheus text format.
    const resource = await dd.ok(['get', '--raw', '/api/v1/nodes/cpu-1/proxy/metrics/resource']);
    assert.match(resource, /^container_memory_working_set_bytes\{container="busy",namespace="default",pod="busy"\} 1\.572864e\+08 \d{13}$/m);
    assert.match(resource, /^# HELP node_cpu_usage_seconds_total \[STABLE\] Cumulative cpu time consumed by the node in core-seconds$/m);
    const top = await eventually('kubectl top', () => dd.kubectl(['top', 'pod', 'busy', '--no-headers']), (r) => r.code === 0);
    assert.deepEqual(top.stdout.trim().split(/\s+/), ['busy', '250m', '150Mi']);
    // Paths the kubelet does not serve, ports it does not listen on, and nodes that do not exist fail as upstream's proxy does.
    const missing = await dd.kubectl(['get', '--raw', '/api/v1/nodes/cpu-1/proxy/no-such-path']);
    assert.match(missing.stderr, /Error from server \(NotFound\): the server could not find the requested resource/);
    const otherPort = await dd.kubectl(['get', '--raw', '/api/v1/nodes/cpu-1:9100/proxy/metrics']);
    assert.match(otherPort.stderr, /Error from server \(ServiceUnavailable\): error trying to reach service: dial tcp 10\.\d+\.\d+\.\d+:9100: connect: connection refused/);
    assert.match((await dd.kubectl(['get', '--raw', '/api/v1/nodes/nope/proxy/healthz'])).stderr, /Error from server \(NotFound\): nodes "nope" not found/);
    // A simulated container listens on no port: the pod proxy's dial is refused, a service without endpoints has none.
    const podProxy = await dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/busy:8080/proxy/']);
    assert.match(podProxy.stderr, /Error from server \(ServiceUnavailable\): error trying to reach service: dial tcp [\d.]+:8080: connect: connection refused/);
    await dd.ok(['create', 'service', 'clusterip', 'lonely', '--tcp=80:8080']);
    const noEndpoints = await eventually('endpoints of lonely', () => dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/lonely:80/proxy/']), (r) => !r.stderr.includes('NotFound'));
    assert.match(noEndpoints.stderr, /Error from server \(ServiceUnavailable\): no endpoints available for service "lonely"/);
    assert.match((await dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/lonely:81/proxy/'])).stderr, /no service port 81 found for service "lonely"/);
    await dd.ok(['delete', 'pod', 'busy', '--wait=false']);
    await dd.ok(['delete', 'service', 'lonely']);
  });

  test('cordon shows Ready,SchedulingDisabled and adds the unschedulable taint; uncordon undoes both', async () => {
    const c = await dd.kubectl(['cordon', 'cpu-1']);
    assert.equal(c.code, 0, c.stderr);
    assert.equal(c.stdout.trim(), 'node/cpu-1 cordoned');
    assert.deepEqual((await rows()).find((r) => r[0] === 'cpu-1')?.slice(0, 2), ['cpu-1', 'Ready,SchedulingDisabled']);
    await eventually('the unschedulable taint', () => nodeJson('cpu-1'), (n) => taints(n).includes('node.kubernetes.io/unschedulable:NoSchedule'));
    const u = await dd.kubectl(['uncordon', 'cpu-1']);
    assert.equal(u.stdout.trim(), 'node/cpu-1 uncordoned');
    await eventually('no taints', () => nodeJson('cpu-1'), (n) => taints(n).length === 0);
  });

  test('drain evicts the pods of a node and waits until they are gone', async () => {
    for (const name of ['a', 'b']) {
      const r = await dd.kubectl(['run', name, '--image=nginx', '--overrides={"spec":{"nodeName":"cpu-0"}}']);
      assert.equal(r.code, 0, r.stderr);
    }
    await eventually('pods running on cpu-0', () => dd.kubectl(['get', 'pods', '--field-selector', 'spec.nodeName=cpu-0', '-o', 'jsonpath={.items[*].status.phase}']), (r) => r.stdout === 'Running Running');
    const d = await dd.kubectl(['drain', 'cpu-0', '--force', '--ignore-daemonsets', '--timeout=60s']);
    assert.equal(d.code, 0, d.stderr);
    const lines = d.stdout.trim().split('\n');
    assert.equal(lines[0], 'node/cpu-0 cordoned');
    assert.equal(lines.at(-1), 'node/cpu-0 drained');
    assert.deepEqual(lines.filter((l) => l.startsWith('pod/')).sort(), ['pod/a evicted', 'pod/b evicted']);
    const left = await dd.kubectl(['get', 'pods', '--field-selector', 'spec.nodeName=cpu-0', '-o', 'name']);
    assert.equal(left.stdout, '');
    assert.equal((await dd.kubectl(['uncordon', 'cpu-0'])).code, 0);
  });

  test('drydock node add continues the pool index and the new node becomes Ready', async () => {
    const r = await drydock(['add', '--pool', 'cpu']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'node/cpu-2 added\n', '']);
    const row = (await rows()).find((x) => x[0] === 'cpu-2');
    assert.deepEqual([row?.[1], row?.[4]], ['Ready', 'v1.35.0']);
  });

  test('drydock node reports unknown pools and nodes in one line with exit code 2', async () => {
    const pool = await drydock(['add', '--pool', 'gpu']);
    assert.deepEqual([pool.code, pool.stderr], [2, 'drydock: unknown pool "gpu" (pools: cpu, old)\n']);
    const node = await drydock(['fail', 'cpu-9']);
    assert.deepEqual([node.code, node.stderr], [2, 'drydock: node "cpu-9" not found in any pool\n']);
  });

  test('a failed node goes NotReady/Unknown after the grace period and is tainted unreachable; heal restores it', async () => {
    await dd.ok(['run', 'stranded', '--image=nginx', '--overrides={"spec":{"nodeName":"cpu-0"}}']);
    await eventually('stranded running', () => dd.kubectl(['get', 'pod', 'stranded', '-o', 'jsonpath={.status.phase}']), (r) => r.stdout === 'Running');
    const f = await drydock(['fail', 'cpu-0']);
    assert.deepEqual([f.code, f.stdout], [0, 'node/cpu-0 failed\n']);
    // Its kubelet is down: what the API server would reach it for is refused, in the words of each request.
    const logs = await dd.kubectl(['logs', 'stranded', '--tail=5']);
    assert.match(logs.stderr, /^Error from server: Get "https:\/\/(10\.[\d.]+):10250\/containerLogs\/default\/stranded\/stranded\?tailLines=5": dial tcp \1:10250: connect: connection refused$/m);
    assert.match((await dd.kubectl(['exec', 'stranded', '--', 'true'])).stderr, /error dialing backend: dial tcp 10\.[\d.]+:10250: connect: connection refused/);
    assert.match((await dd.kubectl(['get', '--raw', '/api/v1/nodes/cpu-0/proxy/healthz'])).stderr, /\(ServiceUnavailable\): error trying to reach service: dial tcp 10\.[\d.]+:10250: connect: connection refused/);
    // metrics-server cannot scrape it either: the node and its pods drop out of kubectl top.
    assert.match((await dd.kubectl(['top', 'node', 'cpu-0'])).stderr, /Error from server \(NotFound\): nodemetrics\.metrics\.k8s\.io "cpu-0" not found/);
    assert.match((await dd.kubectl(['top', 'pod', 'stranded'])).stderr, /podmetrics\.metrics\.k8s\.io "default\/stranded" not found/);
    const failed = await eventually('Ready=Unknown on cpu-0', () => nodeJson('cpu-0'), (n) => ready(n)?.status === 'Unknown');
    assert.deepEqual([ready(failed)?.reason, ready(failed)?.message], ['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    assert.deepEqual((await rows()).find((x) => x[0] === 'cpu-0')?.slice(0, 2), ['cpu-0', 'NotReady']);
    await eventually('unreachable taints', () => nodeJson('cpu-0'), (n) => taints(n).join() === 'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule');
    assert.equal(ready(await nodeJson('cpu-1'))?.status, 'True', 'the other nodes stay Ready');

    const h = await drydock(['heal', 'cpu-0']);
    assert.deepEqual([h.code, h.stdout], [0, 'node/cpu-0 healed\n']);
    const healed = await eventually('cpu-0 Ready without taints', () => nodeJson('cpu-0'), (n) => ready(n)?.status === 'True' && taints(n).length === 0);
    assert.equal(ready(healed)?.reason, 'KubeletReady');
    assert.equal(await dd.ok(['get', '--raw', '/api/v1/nodes/cpu-0/proxy/healthz']), 'ok');
    await dd.ok(['delete', 'pod', 'stranded', '--wait=false', '--ignore-not-found']);
  });

  test('drydock node remove stops the kubelet and deletes the Node', async () => {
    const r = await drydock(['remove', 'cpu-2']);
    assert.deepEqual([r.code, r.stdout], [0, 'node/cpu-2 removed\n']);
    assert.equal(await nodeJson('cpu-2'), undefined);
    const again = await drydock(['remove', 'cpu-2']);
    assert.deepEqual([again.code, again.stderr], [2, 'drydock: node "cpu-2" not found in any pool\n']);
  });
});
