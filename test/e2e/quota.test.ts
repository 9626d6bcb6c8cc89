// ResourceQuota as a kubectl user meets it: a team's GPU budget from a real manifest, `kubectl get
// quota` and `describe quota` showing used/hard, and the second trainer refused in upstream's words.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: gpu
  count: 1
  gpus: {model: H100-80GB, count: 4, expose: device-plugin}
`;
const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/quota', name), 'utf8');

describe('ResourceQuota with kubectl', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock({ config: cluster });
  });
  after(async () => {
    await dd?.stop();
  });

  test('the quota counts the trainer, refuses a second one, and describe shows used/hard', async () => {
    await dd.kubectl(['create', 'namespace', 'team-a']);
    let r = await dd.kubectl(['apply', '-f', '-'], { input: fixture('gpu-quota.yaml') });
    assert.equal(r.stdout.trim(), 'resourcequota/gpu-quota created', r.stderr);
    const trainer = fixture('trainer.yaml');
    // As upstream, admission weighs a quota by its status: until the controller has counted it, it holds nothing back.
    r = await dd.kubectl(['wait', '--for=jsonpath={.status.used.pods}=0', 'quota/gpu-quota', '-n', 'team-a', '--timeout=20s']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['apply', '-f', '-'], { input: trainer });
    assert.equal(r.stdout.trim(), 'pod/trainer-0 created', r.stderr);
    r = await dd.kubectl(['apply', '-f', '-'], { input: trainer.replace('trainer-0', 'trainer-1') });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": pods "trainer-1" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=2');
    r = await dd.kubectl(['get', 'quota', '-n', 'team-a']);
    assert.match(r.stdout, /^NAME\s+REQUEST\s+LIMIT\s+AGE\ngpu-quota\s+pods: 1\/5, requests\.cpu: 1\/4, requests\.nvidia\.com\/gpu: 2\/2\s+\S+\n$/);
    r = await dd.kubectl(['describe', 'quota', 'gpu-quota', '-n', 'team-a']);
    assert.match(r.stdout, /requests\.nvidia\.com\/gpu\s+2\s+2\n/);
  });
});
