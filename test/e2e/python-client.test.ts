// Debian's python3-kubernetes (the system /usr/bin/python3, not the first python3 on PATH)
// against `drydock up` over HTTPS with the kubeconfig's CA: list (nodes too), create, watch, patch, exec,
// the node proxy to a kubelet, and port forwarding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

// Compiled tests run from dist/test/e2e; the script stays in the source tree.
const script = join(import.meta.dirname, '../../../test/e2e/python/smoke.py');
const python = '/usr/bin/python3';
const hasClient = spawnSync(python, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;

describe('python3-kubernetes smoke test', { skip: hasClient ? false : 'python3-kubernetes is not installed for /usr/bin/python3 (.ci/run installs it)' }, () => {
  const dd = drydockForSuite({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n' });

  test('lists namespaces, nodes, an idle ReplicaSet and a new autoscaler, creates and watches a pod, patches a config map, execs', () => {
    const run = spawnSync(python, [script, dd.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(out, {
      namespaces: ['default', 'kube-node-lease', 'kube-public', 'kube-system'],
      nodes: [['cpu-0', 'v1.35.0', '']],
      created: 'py-pod',
      restartPolicy: 'Always',
      events: [['ADDED', 'py-pod']],
      patched: { data: { mode: 'slow' }, labels: { team: 'ml' } },
      replicaSets: [['py-idle', 0]],
      autoscalers: [['py-hpa', 0, 0]],
      missing: [404, 'configmaps "missing" not found'],
      exec: ['py-pod\n', 3],
      kubeletHealth: 'ok',
      summaryPods: ['py-pod'],
      portForward: 'error forwarding port 80 to pod SANDBOX, uid : failed to execute portforward in network namespace "/var/run/netns/cni-ID": failed to connect to localhost:80 inside namespace "SANDBOX", IPv4: dial tcp4 127.0.0.1:80: connect: connection refused IPv6 dial tcp6 [::1]:80: connect: connection refused ',
    });
  });
});
