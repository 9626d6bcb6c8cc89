// ResourceQuota as a kubectl user meets it: a team's GPU budget from a real manifest, `kubectl get
// quota` and `describe quota` showing used/hard, and the second trainer refused in upstream's words;
// a service's change of type and a claim's expansion charged and refused the same way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';
import type { Drydock, KubectlResult } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: gpu
  count: 1
  gpus: {model: H100-80GB, count: 4, expose: device-plugin}
`;
const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/quota', name), 'utf8');

describe('ResourceQuota with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

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

  test('a service changing type and a claim expanding are charged, and refused past the quota', async () => {
    await dd.kubectl(['create', 'namespace', 'team-b']);
    const quota = 'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: team-b}\nspec: {hard: {services.nodeports: "1", services.loadbalancers: "0", requests.storage: 2Gi}}\n';
    const fast = 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: drydock.dev/local-path\nallowVolumeExpansion: true\n';
    const volume = 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: fast-1}\nspec: {storageClassName: fast, capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp/fast-1}}\n';
    const claim = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: team-b}\nspec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    let r = await dd.kubectl(['apply', '-f', '-'], { input: [quota, fast, volume, claim].join('---\n') });
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=jsonpath={.status.phase}=Bound', 'pvc/data', '-n', 'team-b', '--timeout=20s']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=jsonpath={.status.used.requests\\.storage}=1Gi', 'quota/q', '-n', 'team-b', '--timeout=20s']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['patch', 'pvc', 'data', '-n', 'team-b', '-p', '{"spec":{"resources":{"requests":{"storage":"3Gi"}}}}']);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): persistentvolumeclaims "data" is forbidden: exceeded quota: q, requested: requests.storage=2Gi, used: requests.storage=1Gi, limited: requests.storage=2Gi');
    r = await dd.kubectl(['create', 'service', 'clusterip', 'web', '--tcp=80:80', '-n', 'team-b']);
    assert.equal(r.code, 0, r.stderr);
    const retype = (type: string): Promise<KubectlResult> => dd.kubectl(['patch', 'svc', 'web', '-n', 'team-b', '-p', JSON.stringify({ spec: { type } })]);
    r = await retype('NodePort');
    assert.equal(r.stdout.trim(), 'service/web patched', r.stderr);
    r = await retype('LoadBalancer');
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): services "web" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
    // Back to ClusterIP: the node port and the external traffic policy go with the type.
    r = await retype('ClusterIP');
    assert.equal(r.stdout.trim(), 'service/web patched', r.stderr);
    r = await dd.kubectl(['get', 'svc', 'web', '-n', 'team-b', '-o', 'jsonpath={.spec.ports[0].nodePort}|{.spec.externalTrafficPolicy}']);
    assert.equal(r.stdout, '|');
  });
});
