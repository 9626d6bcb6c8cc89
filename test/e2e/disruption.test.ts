// PodDisruptionBudgets as `kubectl drain` meets them: a budget with no room makes the drain retry
// with upstream's message; with room for one pod the drain evicts and finishes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 3
`;

describe('PodDisruptionBudgets with kubectl drain', () => {
  const dd = drydockForSuite({ config: cluster });

  test('no room: drain retries with the budget message; room for one: drain evicts and completes', async () => {
    await dd.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await dd.ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    await dd.ok(['create', 'pdb', 'web', '--selector=app=web', '--min-available=3']);
    let allowed = '';
    for (let i = 0; i < 50 && allowed !== '0'; i++) {
      allowed = (await dd.ok(['get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'])).trim();
      await new Promise((r) => globalThis.setTimeout(r, 100));
    }
    const node = (await dd.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].spec.nodeName}'])).trim();
    let r = await dd.kubectl(['drain', node, '--timeout=3s']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Cannot evict pod as it would violate the pod's disruption budget\./);
    await dd.ok(['patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":2}}']);
    for (let i = 0; i < 50 && allowed !== '1'; i++) {
      allowed = (await dd.ok(['get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'])).trim();
      await new Promise((r) => globalThis.setTimeout(r, 100));
    }
    r = await dd.kubectl(['drain', node, '--timeout=60s'], { timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`node/${node} drained`));
    assert.match(r.stdout, /pod\/web-\S+ evicted/);
  });
});
