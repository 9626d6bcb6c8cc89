// In-place pod resize as a kubectl 1.33 user sees it: `kubectl patch --subresource=resize` on the
// baseline's example pod (cpu in place, memory by restart), Infeasible and Deferred resizes, a
// QoS-changing resize and a plain patch of resources refused with upstream's messages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n  capacity: {cpu: "16", memory: 64Gi}\n';
const pause = (ms: number): Promise<void> => new Promise((res) => globalThis.setTimeout(res, ms));
const patch = (resources: unknown): string => JSON.stringify({ spec: { containers: [{ name: 'app', resources }] } });

describe('in-place pod resize with kubectl 1.33', () => {
  let dd: Drydock;
  let uid = '';
  const jsonpath = async (name: string, path: string): Promise<string> => (await dd.kubectl(['get', 'pod', name, '-o', `jsonpath=${path}`])).stdout;
  /** Polls until `path` of pod `name` reads `want` (real time: the cluster runs on the real clock). */
  const until = async (name: string, path: string, want: string): Promise<string> => {
    let got = '';
    for (let i = 0; i < 100; i++) {
      got = await jsonpath(name, path);
      if (got === want) return got;
      await pause(100);
    }
    return got;
  };

  before(async () => {
    dd = await startDrydock({ config });
    const r = await dd.kubectl(['create', '-f', dd.writeFile('resize-pod.yaml', fixture('resize-pod.yaml'))]);
    assert.equal(r.stdout.trim(), 'pod/myapp created', r.stderr);
    assert.equal(await until('myapp', '{.status.phase}', 'Running'), 'Running');
    uid = await jsonpath('myapp', '{.metadata.uid}');
  });
  after(async () => {
    await dd?.stop();
  });

  test('raising cpu to 800m/1500m applies in place: status resources 800m, restartCount 0, same uid', async () => {
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { cpu: '800m' }, limits: { cpu: '1500m' } })]);
    assert.equal(r.stdout.trim(), 'pod/myapp patched', r.stderr);
    assert.equal(await until('myapp', '{.status.containerStatuses[0].resources.requests.cpu}', '800m'), '800m');
    assert.equal(await jsonpath('myapp', '{.status.containerStatuses[0].resources.limits.cpu} {.status.containerStatuses[0].restartCount} {.metadata.uid}'), `1500m 0 ${uid}`);
    const d = await dd.kubectl(['describe', 'pod', 'myapp']);
    assert.match(d.stdout, /Normal\s+ResizeCompleted\s+\S+\s+kubelet\s+Pod resize completed: \{"containers":\[\{"name":"app"/);
  });

  test('raising memory to 768Mi/1.5Gi restarts only that container (RestartContainer)', async () => {
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { memory: '768Mi' }, limits: { memory: '1.5Gi' } })]);
    assert.equal(r.stdout.trim(), 'pod/myapp patched', r.stderr);
    assert.equal(await until('myapp', '{.status.containerStatuses[0].restartCount}', '1'), '1');
    assert.equal(await until('myapp', '{.status.containerStatuses[0].resources.requests.memory}', '768Mi'), '768Mi');
    assert.equal(await jsonpath('myapp', '{.metadata.uid} {.status.containerStatuses[0].lastState.terminated.reason}'), `${uid} Completed`);
  });

  test('a cpu request above the node capacity is Infeasible and the pod keeps running at its old size', async () => {
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { cpu: '100' }, limits: { cpu: '100' } })]);
    assert.equal(r.stdout.trim(), 'pod/myapp patched', r.stderr);
    assert.equal(await until('myapp', '{.status.conditions[?(@.type=="PodResizePending")].reason}', 'Infeasible'), 'Infeasible');
    assert.equal(
      await jsonpath('myapp', '{.status.conditions[?(@.type=="PodResizePending")].message} {.status.phase} {.status.containerStatuses[0].resources.requests.cpu}'),
      "Node didn't have enough capacity: cpu, requested: 100000, capacity: 16000 Running 800m",
    );
    const conds = JSON.parse(await jsonpath('myapp', '{.status.conditions}')) as { type: string; status: string; observedGeneration?: number }[];
    const pending = conds.find((c) => c.type === 'PodResizePending');
    assert.deepEqual([pending?.status, pending?.observedGeneration, await jsonpath('myapp', '{.metadata.generation}')], ['True', 4, '4']);
    const back = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { cpu: '800m' }, limits: { cpu: '1500m' } })]);
    assert.equal(back.stdout.trim(), 'pod/myapp patched', back.stderr);
    assert.equal(await until('myapp', '{.status.conditions[?(@.type=="PodResizePending")].reason}', ''), '');
  });

  test('a resize that needs a busy node is Deferred until another pod is deleted, then applied', async () => {
    const busy = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'busy' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '15' } } }] } });
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: busy })).stdout.trim(), 'pod/busy created');
    assert.equal(await until('busy', '{.status.phase}', 'Running'), 'Running');
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { cpu: '2' }, limits: { cpu: '2' } })]);
    assert.equal(r.stdout.trim(), 'pod/myapp patched', r.stderr);
    assert.equal(await until('myapp', '{.status.conditions[?(@.type=="PodResizePending")].reason}', 'Deferred'), 'Deferred');
    assert.equal(await jsonpath('myapp', '{.status.conditions[?(@.type=="PodResizePending")].message}'), "Node didn't have enough resource: cpu, requested: 2000, used: 15000, capacity: 16000");
    await dd.kubectl(['delete', 'pod', 'busy', '--wait=false']);
    assert.equal(await until('myapp', '{.status.containerStatuses[0].resources.requests.cpu}', '2'), '2');
    assert.equal(await jsonpath('myapp', '{.status.conditions[?(@.type=="PodResizePending")].reason}{.status.containerStatuses[0].restartCount}'), '1');
  });

  test("the node's kubelet counts the resizes on its /metrics, as Prometheus scrapes it through the API server", async () => {
    const r = await dd.kubectl(['get', '--raw', '/api/v1/nodes/cpu-0/proxy/metrics']);
    assert.equal(r.code, 0, r.stderr);
    const samples = r.stdout.split('\n').filter((l) => /^kubelet_(container_requested_resizes_total|pod_infeasible_resizes_total|pod_in_progress_resizes|pod_pending_resizes|pod_deferred_accepted_resizes_total|pod_resize_duration_milliseconds_count)/.test(l));
    // The spec changes of the tests above: cpu up (800m), memory up, cpu up (100) and back down, cpu up (2).
    assert.deepEqual(samples.filter((l) => !l.startsWith('kubelet_pod_deferred_accepted_resizes_total')), [
      'kubelet_container_requested_resizes_total{operation="decrease",requirement="limits",resource="cpu"} 1',
      'kubelet_container_requested_resizes_total{operation="decrease",requirement="requests",resource="cpu"} 1',
      'kubelet_container_requested_resizes_total{operation="increase",requirement="limits",resource="cpu"} 3',
      'kubelet_container_requested_resizes_total{operation="increase",requirement="limits",resource="memory"} 1',
      'kubelet_container_requested_resizes_total{operation="increase",requirement="requests",resource="cpu"} 3',
      'kubelet_container_requested_resizes_total{operation="increase",requirement="requests",resource="memory"} 1',
      'kubelet_pod_in_progress_resizes 0',
      'kubelet_pod_infeasible_resizes_total{reason_detail="insufficient_node_allocatable"} 1',
      'kubelet_pod_pending_resizes{reason="deferred"} 0',
      'kubelet_pod_pending_resizes{reason="infeasible"} 0',
      // The two cpu resizes applied in place; the memory one restarted the container instead.
      'kubelet_pod_resize_duration_milliseconds_count{success="true"} 2',
    ]);
    assert.deepEqual(samples.filter((l) => l.startsWith('kubelet_pod_deferred_accepted_resizes_total')), ['kubelet_pod_deferred_accepted_resizes_total{retry_trigger="pod_terminated"} 1']);
    assert.match(r.stdout, /^# HELP kubelet_pod_resize_duration_milliseconds \[ALPHA\] Duration in milliseconds to actuate a pod resize$/m);
  });

  test('a QoS-changing resize is rejected', async () => {
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '--subresource=resize', '-p', patch({ requests: { cpu: '2', memory: '1.5Gi' }, limits: { cpu: '2', memory: '1.5Gi' } })]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'The Pod "myapp" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing');
  });

  test('a plain patch of resources is rejected with the upstream message', async () => {
    const r = await dd.kubectl(['patch', 'pod', 'myapp', '-p', patch({ requests: { cpu: '900m' } })]);
    assert.equal(r.code, 1);
    const head =
      'The Pod "myapp" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';
    assert.equal(r.stderr.slice(0, head.length), head);
  });
});
