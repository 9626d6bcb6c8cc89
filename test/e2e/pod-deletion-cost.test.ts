// controller.kubernetes.io/pod-deletion-cost with real kubectl: the API server refuses a value that
// is no int32 (PodDeletionCost, beta and on in 1.35), and a ReplicaSet scaling down deletes the
// pod with the lowest cost first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(2);

const key = 'controller.kubernetes.io/pod-deletion-cost';

describe('pod-deletion-cost with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  test('kubectl run with a cost that is no int32 is refused with upstream\'s message', async () => {
    const r = await dd.kubectl(['run', 'dc', '--image=nginx', `--annotations=${key}=+10`]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), `The Pod "dc" is invalid: metadata.annotations[${key}]: Invalid value: "+10": must be a 32bit integer`);
  });

  test('scaling a Deployment down deletes the pod annotated with the lowest cost; annotating "008" is refused', async () => {
    await dd.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await dd.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 90_000 });
    const names = (await dd.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(' ').sort();
    assert.equal(names.length, 3);
    const [cheap, dear, other] = names as [string, string, string];
    await dd.ok(['annotate', 'pod', cheap, `${key}=-100`]);
    await dd.ok(['annotate', 'pod', dear, `${key}=100`]);
    const refused = await dd.kubectl(['annotate', 'pod', other, `${key}=008`]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trim(), `The Pod "${other}" is invalid: metadata.annotations[${key}]: Invalid value: "008": must be a 32bit integer`);

    await dd.ok(['scale', 'deployment/web', '--replicas=2']);
    await dd.ok(['wait', '--for=delete', `pod/${cheap}`, '--timeout=60s'], { timeoutMs: 90_000 });
    const left = (await dd.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(' ').sort();
    assert.deepEqual(left, [dear, other].sort());
  });
});
