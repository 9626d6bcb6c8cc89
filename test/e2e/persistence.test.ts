// --data-dir: state survives a restart and a kill -9, and revisions never go backwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n';

test('objects written before kill -9 are there after a restart with the same --data-dir', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-data-'));
  try {
    const first = await startDrydock({ config, args: ['--data-dir', dataDir] });
    let r = await first.kubectl(['create', 'configmap', 'kept', '--from-literal=answer=42']);
    assert.equal(r.stdout.trim(), 'configmap/kept created', r.stderr);
    r = await first.kubectl(['get', 'configmap', 'kept', '-o', 'jsonpath={.metadata.resourceVersion}']);
    const before = Number(r.stdout);
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await exited;
    await first.stop();

    const second = await startDrydock({ config, args: ['--data-dir', dataDir] });
    try {
      r = await second.kubectl(['get', 'configmap', 'kept', '-o', 'jsonpath={.data.answer} {.metadata.resourceVersion}']);
      assert.equal(r.stdout, `42 ${before}`, r.stderr);
      r = await second.kubectl(['create', 'configmap', 'after', '--from-literal=a=b', '-o', 'jsonpath={.metadata.resourceVersion}']);
      assert.ok(Number(r.stdout) > before, `revision ${r.stdout} must be above ${before}`);
      r = await second.kubectl(['get', 'ns', '-o', 'name']);
      assert.match(r.stdout, /namespace\/default/);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
