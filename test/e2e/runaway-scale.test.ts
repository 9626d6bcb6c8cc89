// A Deployment or a StatefulSet scaled to the largest replica count there is: their controllers create
// pods without end, as upstream's do, and the API server keeps answering meanwhile, so the user can scale
// them back. Before, the controllers' writes ran as one endless chain of microtasks and kubectl could not
// even finish its TLS handshake; the StatefulSet controller first made an array of 2,147,483,647 entries.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(1);

describe('a workload scaled to 2147483647 replicas', () => {
  const dd = drydockForSuite({ config: cluster });

  const run = async (args: string[], options: { timeoutMs?: number; input?: string } = {}): Promise<string> => {
    const r = await dd.kubectl(args, { timeoutMs: 20_000, ...options });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
    return r.stdout;
  };

  test('a Deployment: kubectl still answers while its pods are created, and scaling back to 0 works', async () => {
    await run(['create', 'deployment', 'typo', '--image=registry.k8s.io/pause:3.10', '--replicas=1']);
    assert.equal((await run(['scale', 'deployment', 'typo', '--replicas=2147483647'])).trim(), 'deployment.apps/typo scaled');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // The controllers are busy creating pods; a user's requests are still answered.
    assert.equal(await run(['get', 'deployment', 'typo', '-o', 'jsonpath={.spec.replicas}']), '2147483647');
    assert.equal((await run(['scale', 'deployment', 'typo', '--replicas=0'])).trim(), 'deployment.apps/typo scaled');
    assert.equal(await run(['get', 'deployment', 'typo', '-o', 'jsonpath={.spec.replicas}']), '0');
    assert.equal((await run(['get', '--raw', '/readyz'])).trim(), 'ok');
  });

  test('a StatefulSet with Parallel pod management: the same, its controller tracking no more ordinals than it creates', async () => {
    const set = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: wide}
spec:
  replicas: 2147483647
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: wide}}
  template:
    metadata: {labels: {app: wide}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}
`;
    assert.equal((await run(['apply', '-f', '-'], { input: set })).trim(), 'statefulset.apps/wide created');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.ok(Number(await run(['get', 'statefulset', 'wide', '-o', 'jsonpath={.status.replicas}'])) > 0, 'pods are being created');
    assert.equal((await run(['scale', 'statefulset', 'wide', '--replicas=0'])).trim(), 'statefulset.apps/wide scaled');
    assert.equal((await run(['get', '--raw', '/readyz'])).trim(), 'ok');
  });
});
