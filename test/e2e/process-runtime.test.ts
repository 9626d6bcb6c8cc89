// A node pool with `runtime: process` as a kubectl user drives it: the container's command runs on the
// host, `kubectl logs` shows what it printed, and the pod ends with its exit code.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: host\n  count: 1\n  runtime: process\n';

describe('process runtime with kubectl', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock({ config });
  });
  after(async () => {
    await dd?.stop();
  });

  test('kubectl run of a command: it runs on the host, logs what it printed, and ends with its exit code', async () => {
    const r = await dd.kubectl(['run', 'hello', '--image=busybox', '--restart=Never', '--env=WHO=drydock', '--', 'sh', '-c', 'echo "hi from $HOSTNAME, $WHO"; exit 7']);
    assert.equal(r.stdout.trim(), 'pod/hello created', r.stderr);
    let state = '';
    for (let i = 0; i < 100 && !state.startsWith('7'); i++) {
      state = (await dd.kubectl(['get', 'pod', 'hello', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode} {.status.phase}'])).stdout;
      if (!state.startsWith('7')) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(state, '7 Failed');
    assert.equal((await dd.kubectl(['logs', 'hello'])).stdout, 'hi from hello, drydock\n');
  });
});
