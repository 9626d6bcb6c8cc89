// The kubernetes.io liveness-exec example (pods/probe/exec-liveness.yaml) as its reader runs it: the
// container's script touches /tmp/healthy, removes it at 30 s, the exec probe's `cat` fails three times
// with busybox's message, and the kubelet kills and restarts the container. The cluster runs 10x fast.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\nclock: scaled:10\n';

interface EventList {
  items: { reason: string; message: string; count?: number; type: string }[];
}

describe('the kubernetes.io liveness-exec example', () => {
  const dd = drydockForSuite({ config });

  test('cat reads the file the script touched; once removed the probe fails, the container is killed and restarted once', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('exec-liveness.yaml', fixture('exec-liveness.yaml'))]), 'pod/liveness-exec created\n');
    await dd.ok(['wait', '--for=condition=Ready', 'pod/liveness-exec', '--timeout=20s']);
    const early = await dd.kubectl(['exec', 'liveness-exec', '--', 'cat', '/tmp/healthy']);
    assert.deepEqual([early.code, early.stdout, early.stderr], [0, '', ''], 'the file is there, empty');
    let restarts = '';
    for (let i = 0; i < 150 && restarts !== '1'; i++) {
      await new Promise((res) => globalThis.setTimeout(res, 200));
      restarts = await dd.ok(['get', 'pod', 'liveness-exec', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}']);
    }
    assert.equal(restarts, '1');
    const events = JSON.parse(await dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=liveness-exec', '-o', 'json'])) as EventList;
    const unhealthy = events.items.filter((e) => e.reason === 'Unhealthy');
    assert.deepEqual(unhealthy.map((e) => [e.type, e.message, e.count]), [['Warning', "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n", 3]]);
    assert.deepEqual(events.items.filter((e) => e.reason === 'Killing').map((e) => [e.type, e.message]), [['Normal', 'Container liveness failed liveness probe, will be restarted']]);
    const describe = await dd.ok(['describe', 'pod', 'liveness-exec']);
    assert.match(describe, /\n {2}Warning {2}Unhealthy .* kubelet {12}Liveness probe failed: cat: can't open '\/tmp\/healthy': No such file or directory\n/);
    assert.match(describe, /\n {2}Normal {3}Killing .* kubelet {12}Container liveness failed liveness probe, will be restarted\n/);
    // The restarted container's script touched the file again in its fresh root filesystem.
    const again = await dd.kubectl(['exec', 'liveness-exec', '--', 'cat', '/tmp/healthy']);
    assert.deepEqual([again.code, again.stderr], [0, '']);
  });

  test('kubectl exec reads and changes the same live files the probe reads', async () => {
    const gone = await dd.kubectl(['exec', 'liveness-exec', '--', 'sh', '-c', 'rm /tmp/healthy; cat /tmp/healthy']);
    assert.deepEqual([gone.code, gone.stderr], [1, "cat: can't open '/tmp/healthy': No such file or directory\ncommand terminated with exit code 1\n"]);
    const back = await dd.kubectl(['exec', 'liveness-exec', '--', 'sh', '-c', 'touch /tmp/healthy && cat /tmp/healthy && echo ok']);
    assert.deepEqual([back.code, back.stdout], [0, 'ok\n']);
  });
});
