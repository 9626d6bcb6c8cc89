// The certificate signing request flow a cluster admin walks through for a new user: the CSR is
// approved, kube-controller-manager's signer issues a client certificate from the cluster CA, and
// the API server takes that certificate as the user's identity; a request the signer cannot serve
// is marked Failed in upstream's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { refs } from '../api/index.ts';
import type { CertificateSigningRequest } from '../api/index.ts';
import { RealClock, SeededRandom } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../test/fixtures/certificates/${name}`, import.meta.url), 'utf8');

async function issued(cluster: Cluster, name: string): Promise<CertificateSigningRequest> {
  for (let i = 0; i < 200; i++) {
    const csr = await cluster.client.get<CertificateSigningRequest>(refs.certificateSigningRequests, undefined, name);
    if (csr.status?.certificate || csr.status?.conditions?.some((c) => c.type === 'Failed')) return csr;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`${name} was not signed`);
}

const whoami = (cluster: Cluster, cert: string | undefined, key: string | undefined): Promise<{ status: number; body: string }> =>
  send(cluster, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, cert, key);

/** A request over HTTPS with a client certificate (or none, and no token). */
function send(cluster: Cluster, method: string, path: string, payload: unknown, cert: string | undefined, key: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(payload);
    const req = request(`${cluster.url}${path}`, { method, ca: cluster.certificateAuthority, ...(cert && key ? { cert, key } : {}), headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const approve = (cluster: Cluster, csr: CertificateSigningRequest): Promise<unknown> =>
  cluster.client.update(refs.certificateSigningRequests, { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }] } }, { subresource: 'approval' });

test('an approved CSR gets a client certificate from the cluster CA, which then authenticates its subject', async () => {
  await using cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock: new RealClock(), random: new SeededRandom(4), components: true, port: 0 });
  const manifest = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice' }, spec: { request: Buffer.from(fixture('alice.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', expirationSeconds: 86400, usages: ['client auth'] } };
  const created = await cluster.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, manifest);
  await approve(cluster, created);
  const signed = await issued(cluster, 'alice');
  const pem = Buffer.from(signed.status?.certificate ?? '', 'base64').toString('utf8');
  const cert = new X509Certificate(pem);
  assert.equal(cert.subject, 'CN=alice\nO=ml-team');
  assert.ok(cert.verify(new X509Certificate(cluster.certificateAuthority).publicKey), 'signed by the cluster CA');
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
  assert.equal(lifetime, 86_400_000 + 5 * 60_000, 'the requested day, backdated five minutes');

  const review = await whoami(cluster, pem, fixture('alice.key'));
  assert.equal(review.status, 201, review.body);
  assert.deepEqual(JSON.parse(review.body).status.userInfo, { username: 'alice', groups: ['ml-team', 'system:authenticated'] });
  assert.equal((await whoami(cluster, undefined, undefined)).status, 401, 'without the certificate (or a token) there is no identity');
  assert.equal((await whoami(cluster, fixture('self-signed.crt'), fixture('alice.key'))).status, 401, 'a certificate the cluster CA did not issue names no one');

  // Allowed to write approvals, alice still may not approve: that takes the approve verb on the signer.
  await cluster.client.create(refs.clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'csr-approval-writer' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] }] });
  await cluster.client.create(refs.clusterRoleBindings, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'alice-approval-writer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'csr-approval-writer' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] });
  const approval = await send(cluster, 'PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/approval', signed, pem, fixture('alice.key'));
  assert.equal(approval.status, 403);
  assert.equal(JSON.parse(approval.body).message, 'certificatesigningrequests.certificates.k8s.io "alice" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"');
});

test('no one may ask the kube-apiserver-client signer for a system:masters certificate', async () => {
  await using cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock: new RealClock(), random: new SeededRandom(4), components: false });
  const manifest = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'mallory' }, spec: { request: Buffer.from(fixture('masters.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] } };
  await assert.rejects(cluster.client.create(refs.certificateSigningRequests, manifest), /certificatesigningrequests\.certificates\.k8s\.io "mallory" is forbidden: use of kubernetes\.io\/kube-apiserver-client signer with system:masters group is not allowed/);
});

test('a request that does not fit the signer is marked Failed (SignerValidationFailure)', async () => {
  await using cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock: new RealClock(), random: new SeededRandom(4), components: true, port: 0 });
  const manifest = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'server' }, spec: { request: Buffer.from(fixture('alice.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['server auth'] } };
  await approve(cluster, await cluster.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, manifest));
  const failed = await issued(cluster, 'server');
  const condition = failed.status?.conditions?.find((c) => c.type === 'Failed');
  assert.deepEqual([condition?.status, condition?.reason, condition?.message, failed.status?.certificate], ['True', 'SignerValidationFailure', 'invalid usage for client certificate: server auth', undefined]);
  const kubelet = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'kubelet' }, spec: { request: Buffer.from(fixture('alice.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] } };
  await approve(cluster, await cluster.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, kubelet));
  assert.equal((await issued(cluster, 'kubelet')).status?.conditions?.find((c) => c.type === 'Failed')?.message, 'subject organization is not system:nodes');
});

test("a node's serving certificate carries the names it asked for; a client request with names is refused", async () => {
  await using cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock: new RealClock(), random: new SeededRandom(4), components: true, port: 0 });
  const request = Buffer.from(fixture('node-serving.csr')).toString('base64');
  const serving = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'serving' }, spec: { request, signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] } };
  await approve(cluster, await cluster.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, serving));
  const cert = new X509Certificate(Buffer.from((await issued(cluster, 'serving')).status?.certificate ?? '', 'base64').toString('utf8'));
  assert.deepEqual([cert.subject, cert.subjectAltName, cert.keyUsage], ['CN=system:node:gpu-0\nO=system:nodes', 'DNS:gpu-0, IP Address:10.0.0.10', ['1.3.6.1.5.5.7.3.1']]);
  const client = { ...serving, metadata: { name: 'client-with-names' }, spec: { ...serving.spec, signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] } };
  await approve(cluster, await cluster.client.create<CertificateSigningRequest>(refs.certificateSigningRequests, client));
  assert.equal((await issued(cluster, 'client-with-names')).status?.conditions?.find((c) => c.type === 'Failed')?.message, 'DNS subjectAltNames are not allowed');
});
