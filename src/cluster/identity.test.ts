import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const serving = { certPem: 'CERT', keyPem: 'KEY', hosts: ['127.0.0.1', 'localhost'] };
    writeIdentity(dir, { token: 'abc', serving });
    const kept = readIdentity(dir);
    assert.equal(kept?.token, 'abc');
    assert.deepEqual(servingFor(kept, ['localhost', '127.0.0.1']), { certPem: 'CERT', keyPem: 'KEY' });
    assert.equal(servingFor(kept, ['0.0.0.0', '127.0.0.1', 'localhost']), undefined, 'another --host needs a new certificate');
  }));

test('a damaged identity file is treated as none, so the server starts with a new identity', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'identity.json'), '{"token":');
    assert.equal(readIdentity(dir), undefined);
    writeFileSync(join(dir, 'identity.json'), '{"token":""}');
    assert.equal(readIdentity(dir), undefined);
  }));
