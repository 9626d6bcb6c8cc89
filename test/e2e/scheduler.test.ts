// The classic GPU troubleshooting case with the real kubectl: 3 nodes with one nvidia.com/gpu
// each, 4 pods asking for one: three run, the fourth is Pending with the upstream message; and a
// node labeled with kubectl label taking the pod that selects the label.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const config = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: gpu
  count: 3
  capacity: {cpu: "16", memory: 64Gi, pods: "110"}
  gpus: {model: H100-80GB, count: 1, expose: device-plugin}
`;

const pod = (name: string): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'cuda', image: 'nvidia/cuda:12.4.0-base-ubuntu22.04', resources: { limits: { 'nvidia.com/gpu': '1' } } }] },
});

const node = (name: string): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { capacity: { cpu: '16', memory: '64Gi', pods: '110', 'nvidia.com/gpu': '1' }, allocatable: { cpu: '16', memory: '64Gi', pods: '110', 'nvidia.com/gpu': '1' } },
});

async function until(fn: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => globalThis.setTimeout(r, 200));
  }
  throw new Error('timed out');
}

describe('scheduler with kubectl', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock({ config });
    // Until the kubelet registers pool nodes on its own, create the same nodes by hand.
    const nodes = await dd.kubectl(['get', 'nodes', '-o', 'name']);
    if (nodes.stdout.trim() === '') for (const n of ['gpu-0', 'gpu-1', 'gpu-2']) await dd.kubectl(['create', '-f', '-'], { input: node(n) });
  });
  after(async () => {
    await dd?.stop();
  });

  test('nodes show their GPUs; three pods bind, the fourth is Pending with the upstream FitError', async () => {
    const cols = await dd.kubectl(['get', 'nodes', '-o', "custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu"]);
    assert.equal(cols.code, 0, cols.stderr);
    assert.deepEqual(cols.stdout.trim().split('\n').map((l) => l.split(/\s+/)), [['NAME', 'GPU'], ['gpu-0', '1'], ['gpu-1', '1'], ['gpu-2', '1']]);
    for (const p of ['train-0', 'train-1', 'train-2', 'train-3']) {
      const r = await dd.kubectl(['create', '-f', '-'], { input: pod(p) });
      assert.equal(r.code, 0, r.stderr);
    }
    const want = '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    let pendingName = '';
    await until(async () => {
      const r = await dd.kubectl(['get', 'pods', '-o', 'json']);
      const items = (JSON.parse(r.stdout) as { items: { metadata: { name: string }; spec: { nodeName?: string }; status?: { conditions?: { type: string; reason?: string; message?: string }[] } }[] }).items;
      const pending = items.filter((i) => !i.spec.nodeName);
      const cond = pending[0]?.status?.conditions?.find((c) => c.type === 'PodScheduled');
      pendingName = pending[0]?.metadata.name ?? '';
      return items.filter((i) => i.spec.nodeName).length === 3 && pending.length === 1 && cond?.reason === 'Unschedulable';
    });
    const msg = await dd.kubectl(['get', 'pod', pendingName, '-o', "jsonpath={.status.conditions[?(@.type=='PodScheduled')].message}"]);
    assert.equal(msg.stdout, want);
    const events = await dd.kubectl(['get', 'events', '--field-selector', `involvedObject.name=${pendingName},reason=FailedScheduling`, '-o', 'jsonpath={.items[0].message}|{.items[0].source.component}|{.items[0].type}']);
    assert.equal(events.stdout, `${want}|default-scheduler|Warning`);
  });

  test('a label set with kubectl label places a pod by nodeSelector, and the kubelet runs it', async () => {
    let r = await dd.kubectl(['label', 'node', 'gpu-1', 'disk=ssd']);
    assert.equal(r.stdout.trim(), 'node/gpu-1 labeled', r.stderr);
    r = await dd.kubectl(['run', 'on-ssd', '--image=nginx', '--overrides={"spec":{"nodeSelector":{"disk":"ssd"}}}']);
    assert.equal(r.code, 0, r.stderr);
    await until(async () => (await dd.kubectl(['get', 'pod', 'on-ssd', '-o', 'jsonpath={.status.phase}'])).stdout !== 'Pending');
    r = await dd.kubectl(['get', 'pod', 'on-ssd', '-o', 'jsonpath={.spec.nodeName} {.status.phase} {.status.reason}']);
    assert.equal(r.stdout.trim(), 'gpu-1 Running');
  });
});
