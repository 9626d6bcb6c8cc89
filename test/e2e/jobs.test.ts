// Jobs as a kubectl user meets them: one that completes (`kubectl wait --for=condition=complete`),
// one that fails with BackoffLimitExceeded, and the baseline sidecar Job completing with its
// sidecar stopped last. Pods run on the simulated kubelet (simple command forms).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');

const cluster = cpuNodesConfig(1);

interface JobJson {
  status?: { succeeded?: number; failed?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

interface ContainerStatusJson {
  name: string;
  state?: { terminated?: { exitCode: number; finishedAt?: string } };
}

interface PodJson {
  metadata: { name: string; finalizers?: string[] };
  status?: { phase?: string; initContainerStatuses?: ContainerStatusJson[]; containerStatuses?: ContainerStatusJson[] };
}

describe('Jobs with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  test('a Job that exits 0 completes and kubectl wait --for=condition=complete returns', async () => {
    let r = await dd.kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'sh', '-c', 'sleep 1']);
    assert.equal(r.stdout.trim(), 'job.batch/hello created', r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=complete', 'job/hello', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'job.batch/hello condition met', r.stderr);
    r = await dd.kubectl(['get', 'job', 'hello', '-o', 'json']);
    const job = JSON.parse(r.stdout) as JobJson;
    assert.equal(job.status?.succeeded, 1);
    assert.deepEqual(job.status?.conditions?.map((c) => `${c.type} ${c.reason}`), ['SuccessCriteriaMet CompletionsReached', 'Complete CompletionsReached']);
    r = await dd.kubectl(['get', 'job', 'hello', '--no-headers']);
    assert.match(r.stdout, /^hello\s+Complete\s+1\/1\s/);
    r = await dd.kubectl(['get', 'pods', '-l', 'job-name=hello', '-o', 'json']);
    const pods = (JSON.parse(r.stdout) as { items: PodJson[] }).items;
    assert.equal(pods.length, 1);
    assert.equal(pods[0]?.status?.phase, 'Succeeded');
    assert.deepEqual(pods[0]?.metadata.finalizers ?? [], []);
    r = await dd.kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=Job,involvedObject.name=hello', '-o', 'jsonpath={range .items[*]}{.reason} {.message}{"\\n"}{end}']);
    assert.deepEqual(r.stdout.trim().split('\n').sort(), [`Completed Job completed`, `SuccessfulCreate Created pod: ${pods[0]?.metadata.name}`]);
  });

  test('an Indexed Job whose workers echo $JOB_COMPLETION_INDEX completes, each pod\'s log naming its index and hostname', async () => {
    await dd.ok(['apply', '-f', join(import.meta.dirname, '../../../test/fixtures/indexed-job.yaml')]);
    const r = await dd.kubectl(['wait', '--for=condition=complete', 'job/shards', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'job.batch/shards condition met', r.stderr);
    const pods = (JSON.parse(await dd.ok(['get', 'pods', '-l', 'job-name=shards', '-o', 'json'])) as { items: (PodJson & { metadata: { annotations?: Record<string, string> } })[] }).items;
    const logs = await Promise.all(pods.map(async (p) => [p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], await dd.ok(['logs', p.metadata.name])]));
    // An Indexed Job's pod has the hostname <job>-<index>, which the runtime puts in HOSTNAME.
    assert.deepEqual(logs.sort(), [['0', 'shard 0 of 3 on shards-0\n'], ['1', 'shard 1 of 3 on shards-1\n'], ['2', 'shard 2 of 3 on shards-2\n']]);
  });

  test("the Indexed Job docs' example: bash's array maps each index to a word in an emptyDir, busybox's rev prints it reversed; the downward-API variant reverses the index file", async () => {
    const indexedLogs = async (namespace: string): Promise<string[][]> => {
      const r = await dd.kubectl(['wait', '-n', namespace, '--for=condition=complete', 'job/indexed-job', '--timeout=60s']);
      assert.equal(r.stdout.trim(), 'job.batch/indexed-job condition met', r.stderr);
      const pods = (JSON.parse(await dd.ok(['get', 'pods', '-n', namespace, '-l', 'job-name=indexed-job', '-o', 'json'])) as { items: (PodJson & { metadata: { annotations?: Record<string, string> } })[] }).items;
      const logs = await Promise.all(pods.map(async (p) => [p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '', await dd.ok(['logs', '-n', namespace, p.metadata.name, '-c', 'worker'])]));
      return logs.sort(([a], [b]) => Number(a) - Number(b));
    };
    await dd.ok(['create', 'namespace', 'static']);
    await dd.ok(['apply', '-n', 'static', '-f', join(import.meta.dirname, '../../../test/fixtures/indexed-job-docs.yaml')]);
    assert.deepEqual(await indexedLogs('static'), [['0', 'oof\n'], ['1', 'rab\n'], ['2', 'zab\n'], ['3', 'xuq\n'], ['4', 'zyx\n']]);
    await dd.ok(['create', 'namespace', 'vol']);
    await dd.ok(['apply', '-n', 'vol', '-f', join(import.meta.dirname, '../../../test/fixtures/indexed-job-vol-docs.yaml')]);
    // The index file has no newline, so rev prints none, and the log ends without one.
    assert.deepEqual(await indexedLogs('vol'), ['0', '1', '2', '3', '4'].map((i) => [i, i]));
  });

  test('a Job whose pods exit 1 fails with BackoffLimitExceeded after backoffLimit + 1 pods', async () => {
    const manifest = `apiVersion: batch/v1
kind: Job
metadata: {name: broken}
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: main, image: busybox, command: ["sh", "-c", "exit 1"]}
`;
    let r = await dd.kubectl(['apply', '-f', '-'], { input: manifest });
    assert.equal(r.stdout.trim(), 'job.batch/broken created', r.stderr);
    // The replacement waits out the 10 s pod-failure backoff.
    r = await dd.kubectl(['wait', '--for=condition=failed', 'job/broken', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.stdout.trim(), 'job.batch/broken condition met', r.stderr);
    r = await dd.kubectl(['get', 'job', 'broken', '-o', 'json']);
    const job = JSON.parse(r.stdout) as JobJson;
    assert.equal(job.status?.failed, 2);
    const failed = job.status?.conditions?.find((c) => c.type === 'Failed');
    assert.deepEqual([failed?.reason, failed?.message], ['BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
    r = await dd.kubectl(['get', 'job', 'broken', '--no-headers']);
    assert.match(r.stdout, /^broken\s+Failed\s+0\/1\s/);
    r = await dd.kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=Job,involvedObject.name=broken,reason=BackoffLimitExceeded', '-o', 'jsonpath={.items[*].type}']);
    assert.equal(r.stdout, 'Warning');
  });

  test('the sidecar Job completes when the worker exits, with its sidecar stopped last', async () => {
    const path = dd.writeFile('sidecar-job.yaml', fixture('sidecar-job.yaml'));
    let r = await dd.kubectl(['apply', '-f', path]);
    assert.equal(r.stdout.trim(), 'job.batch/sidecar-job created', r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=complete', 'job/sidecar-job', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'job.batch/sidecar-job condition met', r.stderr);
    r = await dd.kubectl(['get', 'pods', '-l', 'job-name=sidecar-job', '-o', 'json']);
    const [pod] = (JSON.parse(r.stdout) as { items: PodJson[] }).items;
    assert.equal(pod?.status?.phase, 'Succeeded');
    const byName = new Map([...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])].map((c) => [c.name, c.state?.terminated]));
    assert.equal(byName.get('db-migration')?.exitCode, 0);
    assert.equal(byName.get('worker')?.exitCode, 0);
    const sidecar = byName.get('log-agent');
    assert.ok(sidecar, 'the sidecar has terminated');
    assert.ok(Date.parse(sidecar.finishedAt ?? '') >= Date.parse(byName.get('worker')?.finishedAt ?? ''), 'the sidecar stops after the worker');
    r = await dd.kubectl(['get', 'job', 'sidecar-job', '--no-headers']);
    assert.match(r.stdout, /^sidecar-job\s+Complete\s+1\/1\s/);
  });
});
