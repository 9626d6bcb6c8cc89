// kubernetes.io's sidecar examples (concepts/workloads/pods/sidecar-containers: application/deployment-
// sidecar.yaml and application/job/job-sidecar.yaml) and the shared-volume task's two-container pod, as
// their readers run them with real kubectl: containers of one pod write and follow files of one emptyDir.
// The cluster runs 10x fast, so a cluster second is 100 ms here.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\nclock: scaled:10\n';
const pause = (ms: number): Promise<void> => new Promise((res) => globalThis.setTimeout(res, ms));

const appeared = ["tail: can't open '/opt/logs.txt': No such file or directory", 'tail: /opt/logs.txt has appeared; following end of new file'];

describe("kubernetes.io's sidecar and shared-volume examples", () => {
  const dd = drydockForSuite({ config });

  test('the Deployment: kubectl logs deploy/myapp -c logshipper shows a logging line a cluster second', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('deployment-sidecar.yaml', fixture('deployment-sidecar.yaml'))]), 'deployment.apps/myapp created\n');
    await dd.ok(['rollout', 'status', 'deployment/myapp', '--timeout=30s']);
    await pause(600);
    const logs = (await dd.ok(['logs', 'deploy/myapp', '-c', 'logshipper', '--timestamps'])).trimEnd().split('\n');
    assert.deepEqual(logs.slice(0, 3).map((l) => l.replace(/^\S+ /, '')), [...appeared, 'logging']);
    const times = logs.filter((l) => l.endsWith(' logging')).map((l) => Date.parse(l.split(' ')[0] ?? ''));
    assert.ok(times.length >= 3, logs.join('\n'));
    for (let i = 1; i < times.length; i++) assert.equal((times[i] as number) - (times[i - 1] as number), 1000, 'one line a second of the cluster clock');
    await pause(300);
    const later = await dd.ok(['logs', 'deploy/myapp', '-c', 'logshipper']);
    assert.ok(later.split('\n').length > logs.length, 'the sidecar keeps shipping');
    // The app's own output goes to the file: its log is empty, and exec reads what it appended.
    assert.equal(await dd.ok(['logs', 'deploy/myapp', '-c', 'myapp']), '');
    const file = await dd.ok(['exec', 'deploy/myapp', '-c', 'myapp', '--', 'cat', '/opt/logs.txt']);
    assert.match(file, /^(logging\n){3,}$/);
    const last = await dd.kubectl(['exec', 'deploy/myapp', '-c', 'logshipper', '--', 'sh', '-c', 'tail -n 1 /opt/logs.txt; echo x > /opt/nope/f']);
    assert.deepEqual([last.code, last.stdout, last.stderr], [1, 'logging\n', "sh: can't create /opt/nope/f: nonexistent directory\ncommand terminated with exit code 1\n"]);
  });

  test('the Job: completes with the sidecar stopped after the app; the sidecar shipped the line', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('job-sidecar.yaml', fixture('job-sidecar.yaml'))]), 'job.batch/myjob created\n');
    // tail is PID 1 and ignores SIGTERM, as on a real node: the 30 s grace period (3 s here) ends it.
    await dd.ok(['wait', '--for=condition=complete', 'job/myjob', '--timeout=30s']);
    assert.deepEqual((await dd.ok(['logs', 'job/myjob', '-c', 'logshipper'])).trimEnd().split('\n'), [...appeared, 'logging']);
    assert.equal(await dd.ok(['logs', 'job/myjob', '-c', 'myjob']), '');
    const pod = JSON.parse(await dd.ok(['get', 'pods', '-l', 'job-name=myjob', '-o', 'json'])) as { items: { status: { phase: string; containerStatuses: { state: { terminated?: { exitCode: number } } }[]; initContainerStatuses: { state: { terminated?: { exitCode: number } } }[] } }[] };
    const status = pod.items[0]?.status;
    assert.deepEqual([status?.phase, status?.containerStatuses[0]?.state.terminated?.exitCode, status?.initContainerStatuses[0]?.state.terminated?.exitCode], ['Succeeded', 0, 137]);
  });

  test('two containers sharing a volume: nginx serves what the debian container wrote', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('two-container-pod.yaml', fixture('two-container-pod.yaml'))]), 'pod/two-containers created\n');
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Terminated'; i++) {
      await pause(100);
      phase = Object.keys(JSON.parse(await dd.ok(['get', 'pod', 'two-containers', '-o', 'jsonpath={.status.containerStatuses[?(@.name=="debian-container")].state}']) || '{}'))[0] === 'terminated' ? 'Terminated' : '';
    }
    assert.equal(phase, 'Terminated');
    assert.equal(await dd.ok(['exec', 'two-containers', '-c', 'nginx-container', '--', 'cat', '/usr/share/nginx/html/index.html']), 'Hello from the debian container\n');
  });
});
