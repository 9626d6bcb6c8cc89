// The cipher suite a client gets is the one kube-apiserver's Go TLS stack would pick.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { VirtualClock } from '../core/index.ts';
import { Cluster, defaultClusterConfig } from './index.ts';

function negotiated(cluster: Cluster, options: ConnectionOptions): Promise<{ name: string; version: string }> {
  const url = new URL(cluster.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: cluster.certificateAuthority, servername: 'localhost', ...options }, () => {
      const cipher = socket.getCipher();
      socket.end();
      resolve({ name: cipher.name, version: cipher.version });
    });
    socket.on('error', reject);
  });
}

test('TLS: AES-128-GCM as Go picks it, ChaCha20 for a client that asks for it first, TLS 1.2 still served', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false, port: 0 });
  // Node's and OpenSSL's default client order lists TLS_AES_256_GCM_SHA384 first.
  assert.deepEqual(await negotiated(cluster, {}), { name: 'TLS_AES_128_GCM_SHA256', version: 'TLSv1.3' });
  assert.equal((await negotiated(cluster, { ciphers: 'TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256' })).name, 'TLS_CHACHA20_POLY1305_SHA256');
  assert.equal((await negotiated(cluster, { maxVersion: 'TLSv1.2' })).name, 'ECDHE-ECDSA-AES128-GCM-SHA256');
});
