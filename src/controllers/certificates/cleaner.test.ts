// The csrcleaner on the cluster's clock: a denied request goes an hour after its denial, a pending
// one after a day. Only the cleaner runs: a whole cluster's timers over 25 virtual hours took minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { refs } from '../../api/index.ts';
import type { CertificateSigningRequest } from '../../api/index.ts';
import { VirtualClock } from '../../core/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { CsrCleaner } from './cleaner.ts';

const request = Buffer.from(readFileSync(new URL('../../../test/fixtures/certificates/alice.csr', import.meta.url), 'utf8')).toString('base64');
const csr = (name: string): CertificateSigningRequest => ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { request, signerName: 'example.com/signer', usages: ['client auth'] } });

test('denied requests are deleted an hour after the denial, pending ones after a day', async () => {
  const clock = new VirtualClock();
  await using c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, components: false });
  const cleaner = new CsrCleaner({ client: c.client, clock, log: () => {} });
  cleaner.start();
  try {
    const names = async (): Promise<string[]> => (await c.client.list<CertificateSigningRequest>(refs.certificateSigningRequests)).items.map((x) => x.metadata.name ?? '').sort();
    await c.client.create(refs.certificateSigningRequests, csr('waiting'));
    const denied = await c.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, csr('refused'));
    await c.client.update(refs.certificateSigningRequests, { ...denied, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'KubectlDeny' }] } }, { subresource: 'approval' });
    await clock.advance(3_600_000);
    assert.deepEqual(await names(), ['refused', 'waiting'], 'an hour to the minute is not past the deadline');
    await clock.advance(3_600_000);
    assert.deepEqual(await names(), ['waiting']);
    await clock.advance(23 * 3_600_000);
    assert.deepEqual(await names(), []);
  } finally {
    cleaner.stop();
  }
});

test('a cluster runs the cleaner as kube-controller-manager does', async () => {
  await using c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock: new VirtualClock(), components: true });
  assert.ok(c.components?.running.some((r) => r.name === 'certificatesigningrequest-cleaner-controller'));
});
