// Services as a kubectl user meets them: `kubectl expose` gives a Deployment's pods an
// EndpointSlice and an Endpoints object (with its 1.33 deprecation warning), `describe svc` lists
// them, and scaling to zero leaves the placeholder slice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 2
`;

describe('Services with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = (args: string[]): Promise<string> => dd.ok(args);
  const podIPs = async (): Promise<string[]> => (await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.podIP}'])).split(' ').filter(Boolean).sort();

  test('expose: the EndpointSlice, the Endpoints and describe svc list the pod IPs on the target port', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '--port=80']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    assert.equal((await ok(['expose', 'deployment', 'web', '--port=8080', '--target-port=80'])).trim(), 'service/web exposed');
    const ips = await podIPs();
    let slices = '';
    for (let i = 0; i < 50 && !ips.every((ip) => slices.includes(ip)); i++) {
      slices = await ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
      await new Promise((r) => globalThis.setTimeout(r, 100));
    }
    const row = slices.trim().split('\n')[1]?.split(/\s{2,}/) ?? [];
    assert.deepEqual([row[0]?.startsWith('web-'), row[1], row[2], row[3]?.split(',').sort()], [true, 'IPv4', '80', ips]);
    const ep = await dd.kubectl(['get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[0].addresses[*].ip}']);
    assert.deepEqual(ep.stdout.split(' ').sort(), ips);
    assert.equal(ep.stderr.trim(), 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
    const line = (await ok(['describe', 'svc', 'web'])).split('\n').find((l) => l.startsWith('Endpoints:'));
    assert.deepEqual(line?.replace(/^Endpoints:\s+/, '').split(',').sort(), ips.map((ip) => `${ip}:80`));
  });

  test('services/proxy picks one of the ready endpoints at random, as ResourceLocation does, not always the first', async () => {
    const ips = await podIPs();
    assert.equal(ips.length, 2);
    const reached = new Set<string>();
    // Simulated containers do not listen, so each answer names the endpoint the proxy dialed.
    for (let i = 0; i < 40 && reached.size < 2; i++) {
      const r = await dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/web:8080/proxy/']);
      const dialed = /dial tcp ([\d.]+):80: connect: connection refused/.exec(r.stderr)?.[1];
      assert.ok(dialed, r.stderr);
      reached.add(dialed);
    }
    assert.deepEqual([...reached].sort(), ips);
  });

  test('scaled to zero: one placeholder slice with no endpoints, and no Endpoints subsets', async () => {
    await ok(['scale', 'deployment', 'web', '--replicas=0']);
    let slices = '';
    for (let i = 0; i < 50 && !/<unset>\s+<unset>/.test(slices); i++) {
      slices = await ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
      await new Promise((r) => globalThis.setTimeout(r, 100));
    }
    assert.match(slices, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\nweb-\w{5}\s+IPv4\s+<unset>\s+<unset>\s+/);
    assert.match((await dd.kubectl(['get', 'endpoints', 'web'])).stdout, /^NAME\s+ENDPOINTS\s+AGE\nweb\s+<none>\s+/);
  });
});
