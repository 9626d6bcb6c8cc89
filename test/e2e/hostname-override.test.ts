// spec.hostnameOverride with real kubectl (HostnameOverride, beta and on in 1.35): the name a
// container sees (`hostname`, HOSTNAME, /etc/hostname, the pod's line in /etc/hosts) is the override,
// over spec.hostname and spec.subdomain.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(1);

const pod = `apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  hostname: worker-0
  subdomain: trainers
  hostnameOverride: trainer-0.ml.example.com
  containers: [{name: c, image: busybox, command: [sleep, "3600"]}]
`;

describe('hostnameOverride with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  test('the container\'s hostname, HOSTNAME and /etc/hosts name the override, with no domain', async () => {
    await dd.ok(['apply', '-f', '-'], { input: pod });
    await dd.ok(['wait', '--for=condition=Ready', 'pod/trainer', '--timeout=60s'], { timeoutMs: 90_000 });
    assert.equal(await dd.ok(['exec', 'trainer', '--', 'hostname']), 'trainer-0.ml.example.com\n');
    assert.equal(await dd.ok(['exec', 'trainer', '--', 'cat', '/etc/hostname']), 'trainer-0.ml.example.com\n');
    const env = (await dd.ok(['exec', 'trainer', '--', 'env'])).split('\n');
    assert.ok(env.includes('HOSTNAME=trainer-0.ml.example.com'), env.join('\n'));
    const podIP = (await dd.ok(['get', 'pod', 'trainer', '-o', 'jsonpath={.status.podIP}'])).trim();
    const hosts = (await dd.ok(['exec', 'trainer', '--', 'cat', '/etc/hosts'])).trimEnd().split('\n');
    assert.equal(hosts.at(-1), `${podIP}\ttrainer-0.ml.example.com`);
  });
});
