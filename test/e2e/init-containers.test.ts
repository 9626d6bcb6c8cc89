// The init containers example of kubernetes.io with real kubectl: each init container's
// `until nslookup <svc>.$(cat .../serviceaccount/namespace).svc.cluster.local; do ...; sleep 2; done`
// keeps the pod in Init:0/2, logging busybox 1.28's "can't resolve" and "waiting for ..." every 2 s of
// cluster time, until the Services exist; then both complete and the app container starts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
// Ten cluster seconds a second: the 2 s sleeps pass quickly.
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\nclock: scaled:10\n';
const pause = (ms: number): Promise<void> => new Promise((res) => globalThis.setTimeout(res, ms));

// busybox:1.28's nslookup (the C library's resolver); the cluster has no kube-dns Service to name its server.
const header = 'Server:    10.96.0.10\nAddress 1: 10.96.0.10\n\n';
const notFound = (name: string): string => `${header}nslookup: can't resolve '${name}'\n`;

describe('init containers waiting for Services (kubernetes.io example)', () => {
  const dd = drydockForSuite({ config });

  test('the pod waits in Init:0/2 while myservice does not resolve, logging each try 2 s apart', async () => {
    await dd.ok(['apply', '-f', dd.writeFile('myapp.yaml', fixture('init-containers-myapp.yaml'))]);
    await pause(1500);
    const status = await dd.ok(['get', 'pod', 'myapp-pod', '--no-headers', '-o', 'custom-columns=STATUS:.status.initContainerStatuses[0].state.running.startedAt,PHASE:.status.phase']);
    assert.match(status, /^\S+Z\s+Pending\n$/, status);
    const table = await dd.ok(['get', 'pod', 'myapp-pod']);
    assert.match(table.split('\n')[1] ?? '', /^myapp-pod\s+0\/1\s+Init:0\/2\s+0\s/, table);
    const logs = await dd.ok(['logs', 'myapp-pod', '-c', 'init-myservice']);
    const tries = logs.split('waiting for myservice\n');
    assert.ok(tries.length >= 4, logs);
    assert.equal(tries[0], notFound('myservice.default.svc.cluster.local'), "busybox 1.28's nslookup cannot resolve it");
    const stamped = await dd.ok(['logs', 'myapp-pod', '-c', 'init-myservice', '--timestamps']);
    const waits = stamped.split('\n').filter((l) => l.endsWith(' waiting for myservice')).map((l) => Date.parse(l.split(' ')[0] ?? ''));
    assert.deepEqual(waits.slice(1, 3).map((t, i) => t - (waits[i] ?? 0)), [2000, 2000], stamped);
  });

  test('once the Services exist both init containers complete and the app starts', async () => {
    await dd.ok(['apply', '-f', dd.writeFile('services.yaml', fixture('init-containers-services.yaml'))]);
    await dd.ok(['wait', '--for=condition=Ready', 'pod/myapp-pod', '--timeout=30s']);
    const ip = await dd.ok(['get', 'service', 'myservice', '-o', 'jsonpath={.spec.clusterIP}']);
    const logs = await dd.ok(['logs', 'myapp-pod', '-c', 'init-myservice']);
    const name = 'myservice.default.svc.cluster.local';
    assert.ok(logs.endsWith(`waiting for myservice\n${header}Name:      ${name}\nAddress 1: ${ip} ${name}\n`), logs);
    const pod = JSON.parse(await dd.ok(['get', 'pod', 'myapp-pod', '-o', 'json'])) as { status: { initContainerStatuses: { name: string; state: { terminated?: { exitCode: number; reason: string } } }[] } };
    assert.deepEqual(
      pod.status.initContainerStatuses.map((s) => [s.name, s.state.terminated?.exitCode, s.state.terminated?.reason]),
      [['init-myservice', 0, 'Completed'], ['init-mydb', 0, 'Completed']],
    );
    assert.equal(await dd.ok(['logs', 'myapp-pod']), 'The app is running!\n');
  });
});
