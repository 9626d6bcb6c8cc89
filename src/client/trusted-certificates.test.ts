import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { defaultTrustedCertificates } from './trusted-certificates.ts';

const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('without a handed-over NODE_EXTRA_CA_CERTS a request keeps Node\'s own trust', () => {
  const saved = process.env.DRYDOCK_EXTRA_CA_CERTS;
  delete process.env.DRYDOCK_EXTRA_CA_CERTS;
  try {
    assert.equal(defaultTrustedCertificates(), undefined);
  } finally {
    if (saved !== undefined) process.env.DRYDOCK_EXTRA_CA_CERTS = saved;
  }
});

test('a handed-over file is trusted beside the bundled roots; an unreadable one warns as Node does and is left out', () => {
  const saved = process.env.DRYDOCK_EXTRA_CA_CERTS;
  const file = join(mkdtempSync(join(tmpdir(), 'drydock-ca-')), 'extra.pem');
  writeFileSync(file, pem);
  try {
    process.env.DRYDOCK_EXTRA_CA_CERTS = file;
    assert.deepEqual(defaultTrustedCertificates(), [...rootCertificates, pem]);
    const warnings: string[] = [];
    process.env.DRYDOCK_EXTRA_CA_CERTS = `${file}.missing`;
    assert.deepEqual(defaultTrustedCertificates((line) => warnings.push(line)), [...rootCertificates]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /^Warning: Ignoring extra certs from `.*extra\.pem\.missing`, load failed: /);
  } finally {
    if (saved === undefined) delete process.env.DRYDOCK_EXTRA_CA_CERTS;
    else process.env.DRYDOCK_EXTRA_CA_CERTS = saved;
  }
});
