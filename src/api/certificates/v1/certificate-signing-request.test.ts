// CertificateSigningRequest: the request parsed and its signature checked, upstream's validation
// words, the requester written by the server, what each subresource may change, and the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatFieldError } from '../../../core/index.ts';
import { certificateSigningRequestDefinition as def } from './certificate-signing-request.ts';
import type { CertificateSigningRequest } from './certificate-signing-request.ts';
import { parseCertificateRequest } from './pkcs10.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../../../test/fixtures/certificates/${name}`, import.meta.url), 'utf8');
const ctx = { now: Date.parse('2026-12-05T01:00:00Z') };
const text = (errs: readonly Parameters<typeof formatFieldError>[0][] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function csr(spec: Partial<CertificateSigningRequest['spec']> = {}): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'alice', resourceVersion: '4' },
    spec: { request: Buffer.from(fixture('alice.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...spec },
  };
}

test('PKCS#10: the subject, and the self-signature checked', () => {
  const parsed = parseCertificateRequest(fixture('alice.csr'));
  assert.ok(!('error' in parsed));
  assert.deepEqual([parsed.commonName, parsed.organizations, parsed.signatureError], ['alice', ['ml-team'], undefined]);
  const node = parseCertificateRequest(fixture('node.csr'));
  assert.ok(!('error' in node) && node.commonName === 'system:node:gpu-0');
  const serving = parseCertificateRequest(fixture('node-serving.csr'));
  assert.ok(!('error' in serving));
  assert.deepEqual([serving.dnsNames, serving.ipAddresses, serving.emailAddresses], [['gpu-0'], ['10.0.0.10'], []], 'the subjectAltNames asked for');
  const v6 = parseCertificateRequest(fixture('node-serving-ipv6.csr'));
  assert.ok(!('error' in v6) && v6.ipAddresses[0] === 'fd00::10');
  const pem = fixture('alice.csr');
  const body = pem.split('\n').slice(1, -2).join('');
  const der = Buffer.from(body, 'base64');
  der.writeUInt8(der.readUInt8(der.length - 5) ^ 0xff, der.length - 5);
  const tampered = parseCertificateRequest(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
  assert.ok(!('error' in tampered) && tampered.signatureError === 'x509: ECDSA verification failure');
  assert.deepEqual(parseCertificateRequest('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), { error: 'PEM block type must be CERTIFICATE REQUEST' });
});

test('CertificateSigningRequest: validation in upstream words', () => {
  assert.deepEqual(text(def.validateCreate?.(csr(), ctx)), []);
  const bad = csr({ request: Buffer.from('hi').toString('base64'), signerName: 'example', usages: ['client auth', 'bogus', 'client auth'], expirationSeconds: 60 });
  assert.deepEqual(text(def.validateCreate?.(bad, ctx)), [
    'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST',
    'spec.usages[1]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
    'spec.usages[2]: Duplicate value: "client auth"',
    "spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
    'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
  ]);
  assert.deepEqual(text(def.validateCreate?.(csr({ signerName: 'kubernetes.io/legacy-unknown' }), ctx)), ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
  assert.deepEqual(text(def.validateCreate?.(csr({ signerName: 'localhost/x' }), ctx)), ['spec.signerName: Invalid value: "localhost": should be a domain with at least two segments separated by dots']);
});

test('the server writes the requester; approval changes conditions only, status the certificate only', () => {
  const created = csr({ username: 'mallory', groups: ['system:masters'] });
  created.status = { conditions: [{ type: 'Approved', status: 'True' }] };
  def.prepareForCreate?.(created, { ...ctx, user: { username: 'alice', groups: ['ml-team', 'system:authenticated'] } });
  assert.deepEqual([created.spec.username, created.spec.groups, created.status], ['alice', ['ml-team', 'system:authenticated'], {}]);

  const approve = structuredClone(created);
  approve.spec.usages = ['server auth'];
  approve.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }], certificate: 'Zm9v' };
  def.prepareForUpdate?.(approve, created, { ...ctx, subresource: 'approval' });
  assert.deepEqual(approve.spec.usages, ['client auth'], 'spec stays');
  assert.equal(approve.status?.certificate, undefined, 'approval does not set the certificate');
  assert.equal(approve.status?.conditions?.[0]?.lastTransitionTime, '2026-12-05T01:00:00Z');
  assert.deepEqual(text(def.validateUpdate?.(approve, created, { ...ctx, subresource: 'approval' })), []);

  const sneaky = structuredClone(created);
  sneaky.status = { conditions: [{ type: 'Approved', status: 'True' }] };
  def.prepareForUpdate?.(sneaky, created, { ...ctx, subresource: 'status' });
  assert.deepEqual(text(def.validateStatusUpdate?.(sneaky, created, ctx)), ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
  const plain = structuredClone(created);
  plain.status = { conditions: [{ type: 'Denied', status: 'True' }] };
  def.prepareForUpdate?.(plain, created, ctx);
  assert.deepEqual(plain.status, {}, 'a plain update keeps the stored status');
});

test('the table: requestor, requested duration and the condition summary', () => {
  const obj = csr({ username: 'alice', expirationSeconds: 86400 });
  obj.metadata.creationTimestamp = '2026-12-05T00:59:00Z';
  obj.status = { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Zm9v' };
  assert.deepEqual(def.table?.cells(obj, ctx.now), ['alice', '60s', 'kubernetes.io/kube-apiserver-client', 'alice', '24h', 'Approved,Issued']);
  obj.status = { conditions: [{ type: 'Denied', status: 'True' }, { type: 'Failed', status: 'True' }] };
  assert.equal(def.table?.cells(obj, ctx.now)[5], 'Denied,Failed');
  assert.equal(def.table?.cells(csr(), ctx.now)[5], 'Pending');
});
