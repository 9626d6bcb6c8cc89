import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServingCertificate } from './certificate.ts';
import { readIdentity, servingFor, writeIdentity } from './identity.ts';

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-identity-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a data directory gives back the token and certificate written to it, for the same hosts only', () =>
  withDir((dir) => {
    assert.equal(readIdentity(dir), undefined);
    const hosts = ['127.0.0.1', 'localhost'];
    const { certPem, keyPem } = createServingCertificate({ nowMs: Date.parse('2026-12-05T00:00:00Z'), serial: Buffer.from([7]), hosts });
    writeIdentity(dir, { token: 'abc', serving: { certPem, keyPem, hosts } });
    const kept = readIdentity(dir);
    assert.equal(kept?.token, 'abc');
    assert.deepEqual(servingFor(kept, ['localhost', '127.0.0.1']), { certPem, keyPem });
    assert.equal(servingFor(kept, ['0.0.0.0', '127.0.0.1', 'localhost']), undefined, 'another --host needs a new certificate');
  }));

test('a certificate kept from before the cluster CA signed client certificates (server auth only) is replaced', () =>
  withDir((dir) => {
    const hosts = ['127.0.0.1'];
    const { certPem, keyPem } = createServingCertificate({ nowMs: Date.parse('2026-12-05T00:00:00Z'), serial: Buffer.from([7]), hosts });
    const serverOnly = readFileSync(new URL('../../test/fixtures/certificates/server-auth-only.crt', import.meta.url), 'utf8');
    writeIdentity(dir, { token: 'abc', serving: { certPem: serverOnly, keyPem, hosts } });
    assert.equal(servingFor(readIdentity(dir), hosts), undefined);
    writeIdentity(dir, { token: 'abc', serving: { certPem, keyPem, hosts } });
    assert.ok(servingFor(readIdentity(dir), hosts));
  }));

test('a damaged identity file is treated as none, so the server starts with a new identity', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'identity.json'), '{"token":');
    assert.equal(readIdentity(dir), undefined);
    writeFileSync(join(dir, 'identity.json'), '{"token":""}');
    assert.equal(readIdentity(dir), undefined);
  }));
