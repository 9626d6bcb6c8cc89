import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from './http-client.ts';
import { kubernetesUserAgent } from './client.ts';

const namespaces = { group: '', version: 'v1', resource: 'namespaces' };

test('requests carry the User-Agent of the program the client identifies as', async () => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers['user-agent'] ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const client = new HttpClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    await client.get(namespaces, undefined, 'default');
    await client.withUserAgent(kubernetesUserAgent('kube-controller-manager', 'v1.35.0')).get(namespaces, undefined, 'default');
    await client.get(namespaces, undefined, 'default');
    assert.deepEqual(seen, ['drydock/v1.35.0', 'kube-controller-manager/v1.35.0 (linux/amd64) kubernetes/0000000', 'drydock/v1.35.0']);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
