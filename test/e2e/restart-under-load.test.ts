// Reliability (issue 9): kill -9 the server while clients write and watch, restart it on the same
// port and --data-dir, and check that no acknowledged write is lost, revisions only go up, and the
// same clients (same kubeconfig) resume their watches without missing an event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { refs } from '../../src/api/index.ts';
import { clientFromKubeconfig } from '../../src/cli/kubeconfig-client.ts';
import { readKubeconfigToken, startDrydock } from './harness.ts';
import { checkRestart, loadPatch, PatchLoad, ResumingWatcher, within } from './restart-load.ts';

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n';

test('kill -9 under write and watch load, restart on the same port and --data-dir: nothing acknowledged is lost, watchers resume in order', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-data-'));
  const first = await startDrydock({ config, args: ['--data-dir', dataDir] });
  const port = new URL(first.url).port;
  const token = readKubeconfigToken(first.kubeconfig);
  const { client } = clientFromKubeconfig(first.kubeconfig);
  const names = Array.from({ length: 20 }, (_, i) => `cm-${i}`);
  let second: Awaited<ReturnType<typeof startDrydock>> | undefined;
  const watchers: ResumingWatcher[] = [];
  try {
    for (const name of names) await client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    const fromRevision = Number((await client.list(refs.configMaps, { namespace: 'default' })).metadata.resourceVersion);
    for (let i = 0; i < 3; i++) watchers.push(new ResumingWatcher(client, refs.configMaps, 'default', fromRevision));
    for (const w of watchers) w.start();
    const load = new PatchLoad(client, refs.configMaps, 'default', names, 100);
    // At least a second of load, and enough acknowledged writes to check, however slow a loaded CI machine is.
    await sleep(1_000);
    await untilAcked(load, 20);
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await exited;
    const ackedBeforeKill = load.acked.length;
    const lastBeforeKill = Math.max(...load.acked.map((w) => w.revision));
    await first.stop();

    second = await startDrydock({ config, args: ['--data-dir', dataDir, '--port', port] });
    assert.equal(readKubeconfigToken(second.kubeconfig), token, 'the restarted server keeps the token the kubeconfig names');
    await sleep(1_000);
    await untilAcked(load, ackedBeforeKill + 20);
    await load.stop();
    const end = await client.patch(refs.configMaps, 'default', names[0] ?? '', 'merge', loadPatch('end'));
    const endRevision = Number(end.metadata.resourceVersion);
    const reached = await within(Promise.all(watchers.map((w) => w.reached(endRevision))), 10_000);
    assert.notEqual(reached, 'timed out', `watchers stuck at ${watchers.map((w) => w.revision).join(', ')}, end at ${endRevision}`);

    const afterRestart = load.acked.slice(ackedBeforeKill);
    assert.ok(ackedBeforeKill >= 20, `writes acknowledged before the kill: ${ackedBeforeKill}`);
    assert.ok(afterRestart.length >= 20, `writes acknowledged after the restart: ${afterRestart.length}`);
    assert.ok(afterRestart.every((w) => w.revision > lastBeforeKill), 'revisions after the restart are above every one before it');
    const list = await client.list(refs.configMaps, { namespace: 'default' });
    const current = new Map(list.items.map((cm) => [cm.metadata.name ?? '', Number(cm.metadata.resourceVersion)]));
    const findings = checkRestart(load.acked, current, watchers, fromRevision);
    assert.deepEqual(findings.lost, [], 'acknowledged writes lost');
    assert.deepEqual(findings.missed, [[], [], []], 'acknowledged writes a watcher did not see');
    assert.deepEqual(findings.outOfOrder, [0, 0, 0], 'watch events out of revision order');
    for (const w of watchers) {
      assert.ok(w.reconnects >= 1, 'each watcher lost its stream and came back');
      assert.equal(w.relists, 0, 'the replayed history covers the outage, so no watcher needed to relist');
    }
  } finally {
    for (const w of watchers) w.stop();
    await first.stop();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Waits until the load has `count` acknowledged writes, or 30 s (the assertions then say how many it had). */
async function untilAcked(load: PatchLoad, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (load.acked.length < count && Date.now() < deadline) await sleep(50);
}
