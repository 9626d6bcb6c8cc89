// The kubernetes.io liveness-exec example (pods/probe/exec-liveness.yaml) as its reader runs it: the
// container's script touches /tmp/healthy, removes it at 30 s, the exec probe's `cat` fails three times
// with busybox's message, and the kubelet kills and restarts the container. The cluster runs 10x fast.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\nclock: scaled:10\n';

interface EventList {
  items: { reason: string; message: string; count?: number; type: string }[];
}

/**
 * The container's starts as `get -w` reports them. Each instance has /tmp/healthy for its first 30
 * cluster seconds, 3 s of wall time at 10x, so a test looks at an instance the moment it is seen
 * running: polling, and on a loaded machine a kubectl call, can take that long on its own.
 */
function containerStarts(dd: Drydock): { running: (restartCount: number) => Promise<void>; stop: () => void } {
  const watch = dd.spawnKubectl(['get', 'pod', 'liveness-exec', '-w', '-o', 'jsonpath={.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].state.running.startedAt}{"\\n"}']);
  const seen = new Set<number>();
  const waiters = new Map<number, () => void>();
  let partial = '';
  watch.stdout?.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [count, startedAt] = line.trim().split(' ');
      if (!startedAt) continue;
      seen.add(Number(count));
      waiters.get(Number(count))?.();
    }
  });
  const running = async (restartCount: number): Promise<void> => {
    let timer: ReturnType<typeof globalThis.setTimeout> | undefined;
    const seenRunning = seen.has(restartCount) ? Promise.resolve(true) : new Promise<boolean>((res) => waiters.set(restartCount, () => res(true)));
    const ok = await Promise.race([seenRunning, new Promise<boolean>((res) => (timer = globalThis.setTimeout(() => res(false), 60_000)))]);
    globalThis.clearTimeout(timer);
    assert.ok(ok, `the container running with restartCount ${restartCount}`);
  };
  return { running, stop: () => watch.kill() };
}

describe('the kubernetes.io liveness-exec example', () => {
  const dd = drydockForSuite({ config });

  test('cat reads the file the script touched; once removed the probe fails, the container is killed and restarted once', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('exec-liveness.yaml', fixture('exec-liveness.yaml'))]), 'pod/liveness-exec created\n');
    const starts = containerStarts(dd);
    try {
      await starts.running(0);
      const early = await dd.kubectl(['exec', 'liveness-exec', '--', 'cat', '/tmp/healthy']);
      assert.deepEqual([early.code, early.stdout, early.stderr], [0, '', ''], 'the file is there, empty');
      // Read at once, before the restarted instance removes its file and its probe fails again.
      await starts.running(1);
      const [list, again] = await Promise.all([dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=liveness-exec', '-o', 'json']), dd.kubectl(['exec', 'liveness-exec', '--', 'cat', '/tmp/healthy'])]);
      // The restarted container's script touched the file again in its fresh root filesystem.
      assert.deepEqual([again.code, again.stderr], [0, '']);
      assertFirstRestart(JSON.parse(list) as EventList);
    } finally {
      starts.stop();
    }
    const describe = await dd.ok(['describe', 'pod', 'liveness-exec']);
    assert.match(describe, /\n {2}Warning {2}Unhealthy .* kubelet {12}Liveness probe failed: cat: can't open '\/tmp\/healthy': No such file or directory\n/);
    assert.match(describe, /\n {2}Normal {3}Killing .* kubelet {12}Container liveness failed liveness probe, will be restarted\n/);
  });

  test('kubectl exec reads and changes the same live files the probe reads', async () => {
    // On an instance just started, whose script has not removed the file yet.
    const starts = containerStarts(dd);
    try {
      await starts.running(Number(await dd.ok(['get', 'pod', 'liveness-exec', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}'])) + 1);
    } finally {
      starts.stop();
    }
    const gone = await dd.kubectl(['exec', 'liveness-exec', '--', 'sh', '-c', 'rm /tmp/healthy; cat /tmp/healthy']);
    assert.deepEqual([gone.code, gone.stderr], [1, "cat: can't open '/tmp/healthy': No such file or directory\ncommand terminated with exit code 1\n"]);
    const back = await dd.kubectl(['exec', 'liveness-exec', '--', 'sh', '-c', 'touch /tmp/healthy && cat /tmp/healthy && echo ok']);
    assert.deepEqual([back.code, back.stdout], [0, 'ok\n']);
  });
});

function assertFirstRestart(events: EventList): void {
  const unhealthy = events.items.filter((e) => e.reason === 'Unhealthy');
  assert.deepEqual(unhealthy.map((e) => [e.type, e.message, e.count]), [['Warning', "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n", 3]]);
  assert.deepEqual(events.items.filter((e) => e.reason === 'Killing').map((e) => [e.type, e.message]), [['Normal', 'Container liveness failed liveness probe, will be restarted']]);
}
