// A Deployment scaled to the largest replica count there is: its controllers create pods without end,
// as upstream's do, and the API server keeps answering meanwhile, so the user can scale it back.
// Before, the controllers' writes ran as one endless chain of microtasks and kubectl could not even
// finish its TLS handshake.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 1
  capacity: {cpu: "8", memory: 32Gi}
`;

describe('a Deployment scaled to 2147483647 replicas', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock({ config: cluster });
  });
  after(async () => {
    await dd?.stop();
  });

  test('kubectl still answers while its pods are created, and scaling back to 0 works', async () => {
    const run = async (args: string[], timeoutMs = 20_000): Promise<string> => {
      const r = await dd.kubectl(args, { timeoutMs });
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
      return r.stdout;
    };
    await run(['create', 'deployment', 'typo', '--image=registry.k8s.io/pause:3.10', '--replicas=1']);
    assert.equal((await run(['scale', 'deployment', 'typo', '--replicas=2147483647'])).trim(), 'deployment.apps/typo scaled');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // The controllers are busy creating pods; a user's requests are still answered.
    assert.equal(await run(['get', 'deployment', 'typo', '-o', 'jsonpath={.spec.replicas}']), '2147483647');
    assert.equal((await run(['scale', 'deployment', 'typo', '--replicas=0'])).trim(), 'deployment.apps/typo scaled');
    assert.equal(await run(['get', 'deployment', 'typo', '-o', 'jsonpath={.spec.replicas}']), '0');
    assert.equal((await run(['get', '--raw', '/readyz'])).trim(), 'ok');
  });
});
