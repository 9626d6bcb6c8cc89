// RuntimeClass as a GPU user meets it on the default cluster: the GPU operator's `nvidia` class is
// there, a class with overhead and a node selector shapes the pods that name it, an unknown class is
// refused with upstream's message, and a CPU node, whose containerd has no `nvidia` runtime, cannot
// make the sandbox of a pod that names it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');

describe('RuntimeClass', () => {
  const dd = drydockForSuite();

  test('the default GPU cluster has the nvidia RuntimeClass', async () => {
    assert.match(await dd.ok(['get', 'runtimeclasses']), /^NAME\s+HANDLER\s+AGE\nnvidia\s+nvidia\s+\S+\n$/);
  });

  test('a class with overhead and a node selector: its pod runs on a GPU node with the overhead', async () => {
    const path = dd.writeFile('runtime-class-gpu.yaml', fixture('runtime-class-gpu.yaml'));
    assert.equal(await dd.ok(['apply', '-f', path]), 'runtimeclass.node.k8s.io/nvidia-fast created\npod/inference created\n');
    assert.equal(await dd.ok(['get', 'pod', 'inference', '-o', 'jsonpath={.spec.overhead.cpu} {.spec.overhead.memory} {.spec.nodeSelector}']), '250m 64Mi {"nvidia.com/gpu.present":"true"}');
    await dd.ok(['wait', '--for=condition=Ready', 'pod/inference', '--timeout=20s']);
    assert.match(await dd.ok(['get', 'pod', 'inference', '-o', 'jsonpath={.spec.nodeName}']), /^h100-\d$/);
  });

  test('an unknown class is refused', async () => {
    const r = await dd.kubectl(['run', 'sandboxed', '--image=nginx', '--overrides={"spec":{"runtimeClassName":"gvisor"}}']);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): pods "sandboxed" is forbidden: pod rejected: RuntimeClass "gvisor" not found');
  });

  test('a pod naming the nvidia class on a CPU node waits in ContainerCreating: its containerd has no nvidia runtime', async () => {
    assert.equal(await dd.ok(['get', 'node', 'cpu-0', '-o', 'jsonpath={.status.runtimeHandlers[*].name}']), ' runc');
    assert.equal(await dd.ok(['get', 'node', 'h100-0', '-o', 'jsonpath={.status.runtimeHandlers[*].name}']), ' nvidia nvidia-cdi nvidia-legacy runc');
    await dd.ok(['run', 'cuda-on-cpu', '--image=nvidia/cuda:12.4.1-base-ubuntu22.04', '--overrides={"spec":{"runtimeClassName":"nvidia","nodeSelector":{"kubernetes.io/hostname":"cpu-0"}}}', '--', 'nvidia-smi']);
    let events = '';
    for (let i = 0; i < 50 && !events.includes('FailedCreatePodSandBox'); i++) {
      events = await dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=cuda-on-cpu', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
      if (!events.includes('FailedCreatePodSandBox')) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.match(events, /^FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured$/m);
    assert.match(await dd.ok(['get', 'pod', 'cuda-on-cpu']), /cuda-on-cpu +0\/1 +ContainerCreating/);
  });
});
