// RuntimeClass as a GPU user meets it on the default cluster: the GPU operator's `nvidia` class is
// there, a class with overhead and a node selector shapes the pods that name it, and an unknown
// class is refused with upstream's message.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');

describe('RuntimeClass', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
  });
  after(async () => {
    await dd?.stop();
  });

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
});
