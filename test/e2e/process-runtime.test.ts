// A node pool with `runtime: process` as a kubectl user drives it: the container's command runs on the
// host, `kubectl logs` shows what it printed, the pod ends with its exit code, and `kubectl exec` runs
// on the host too.
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

  test('kubectl exec runs a host process beside the container\'s, with its environment and standard input', async () => {
    await dd.ok(['run', 'sleeper', '--image=busybox', '--env=WHO=drydock', '--', 'sleep', '30']);
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Running'; i++) {
      phase = (await dd.kubectl(['get', 'pod', 'sleeper', '-o', 'jsonpath={.status.phase}'])).stdout;
      if (phase !== 'Running') await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    const r = await dd.kubectl(['exec', 'sleeper', '--', 'sh', '-c', 'echo "$WHO in $(pwd) as $HOSTNAME"; exit 5']);
    assert.equal(r.stdout, 'drydock in / as sleeper\n');
    assert.equal(r.code, 5);
    assert.equal(await dd.ok(['exec', '-i', 'sleeper', '--', 'cat'], { input: 'piped through\n' }), 'piped through\n');
    const missing = await dd.kubectl(['exec', 'sleeper', '--', 'no-such-tool']);
    assert.match(missing.stderr, /OCI runtime exec failed: exec failed: unable to start container process: exec: "no-such-tool": executable file not found in \$PATH: unknown/);
  });
});
