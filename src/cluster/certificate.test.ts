import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createServingCertificate } from './certificate.ts';

test('the serving certificate parses for every serial shape: leading zero bytes, high bit set, all zeros', () => {
  for (const serial of ['00000000000000ab', '0080000000000000', '8000000000000001', '0000000000000000', '7fffffffffffffff']) {
    const cert = createServingCertificate({ nowMs: Date.UTC(2026, 0, 1), serial: Buffer.from(serial, 'hex'), hosts: ['127.0.0.1', '::1', 'localhost'] });
    const x509 = new X509Certificate(cert.certPem);
    assert.equal(x509.serialNumber.replace(/^0+(?=.)/, ''), serial.replace(/^0+(?=.)/, '').toUpperCase(), serial);
    assert.ok(x509.checkPrivateKey(createPrivateKey(cert.keyPem)));
    assert.ok(x509.verify(x509.publicKey), 'self-signed');
    assert.equal(x509.subjectAltName, 'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
  }
});
