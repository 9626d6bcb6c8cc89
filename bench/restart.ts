// Issue 9's reliability run, timed: P9's load (10,000 pods stored, 10 pod watchers, 100 PATCH/s,
// all over HTTPS) against the real `drydock up --data-dir`, killed with SIGKILL halfway and restarted
// on the same port. Prints how long the restart and the clients' outage took, and what the checks of
// test/e2e/restart-under-load.test.ts found at this size: lost writes, missed events, relists.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientFromKubeconfig } from '../src/cli/kubeconfig-client.ts';
import { checkRestart, loadPatch, PatchLoad, ResumingWatcher, within } from '../test/e2e/restart-load.ts';
import { spawnDrydockUntil, stopChild } from './child.ts';
import { bounded, pausePod, refs } from './harness.ts';
import { percentile, printTable } from './table.ts';
import { env } from './env.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runRestartBenchmark(): Promise<void> {
  const stored = env('BENCH_RESTART_PODS', 10_000);
  const watcherCount = env('BENCH_RESTART_WATCHERS', 10);
  const rate = env('BENCH_RESTART_RATE', 100);
  const seconds = env('BENCH_RESTART_SECONDS', 10);
  const dir = mkdtempSync(join(tmpdir(), 'drydock-restart-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const config = join(dir, 'cluster.yaml');
  writeFileSync(config, 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n');
  const up = (port: string): Promise<{ ms: number; line: string; child: ChildProcess }> => spawnDrydockUntil(['up', '--port', port, '--kubeconfig', kubeconfig, '--config', config, '--data-dir', join(dir, 'data')], /ready: \S+/);
  let server = await up('0');
  const watchers: ResumingWatcher[] = [];
  try {
    const port = new URL(server.line.slice('ready: '.length)).port;
    const { client } = clientFromKubeconfig(kubeconfig);
    // Pods no scheduler takes: stored, as P9's, without the scheduler's writes about them.
    const podOf = (i: number): ReturnType<typeof pausePod> => {
      const pod = pausePod(`p-${i}`);
      return { ...pod, spec: { ...pod.spec, schedulerName: 'bench-none' } };
    };
    const loadStart = performance.now();
    await bounded(stored, 32, (i) => client.create(refs.pods, podOf(i)));
    const loadMs = performance.now() - loadStart;
    const fromRevision = Number((await client.list(refs.pods, { namespace: 'default', limit: 1 })).metadata.resourceVersion);
    for (let i = 0; i < watcherCount; i++) watchers.push(new ResumingWatcher(client, refs.pods, 'default', fromRevision));
    for (const w of watchers) w.start();
    const names = Array.from({ length: stored }, (_, i) => `p-${(i * 7919) % stored}`);
    const load = new PatchLoad(client, refs.pods, 'default', names, rate);
    await sleep((seconds * 1000) / 2);
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    const killedAt = performance.now();
    await exited;
    const before = load.acked.length;
    server = await up(port);
    const restartMs = performance.now() - killedAt;
    await sleep((seconds * 1000) / 2);
    await load.stop();
    const end = await client.patch(refs.pods, 'default', names[0] ?? '', 'merge', loadPatch('end'));
    await within(Promise.all(watchers.map((w) => w.reached(Number(end.metadata.resourceVersion)))), 60_000);
    const list = await client.list(refs.pods, { namespace: 'default' });
    const current = new Map(list.items.map((p) => [p.metadata.name ?? '', Number(p.metadata.resourceVersion)]));
    const findings = checkRestart(load.acked, current, watchers, fromRevision);
    const after = load.acked.slice(before);
    const lastAckBefore = Math.max(...load.acked.slice(0, before).map((w) => w.at));
    const outage = (after[0]?.at ?? NaN) - lastAckBefore;
    const lastBefore = Math.max(...load.acked.slice(0, before).map((w) => w.revision));
    const p99 = (writes: typeof after): string => `${percentile(writes.map((w) => w.latencyMs).sort((a, b) => a - b), 99).toFixed(1)} ms`;
    const missed = findings.missed.reduce((n, m) => n + m.length, 0);
    const stuck = watchers.filter((w) => w.revision < Number(end.metadata.resourceVersion)).length;
    printTable(`Restart under P9's load: ${stored} pods stored (loaded over HTTPS in ${(loadMs / 1000).toFixed(1)} s), ${watcherCount} pod watchers, ${rate} PATCH/s for ${seconds} s, SIGKILL at ${seconds / 2} s`, [
      { what: 'kill -9 -> restarted server ready (same port, --data-dir)', drydock: `${Math.round(restartMs)} ms`, goal: '' },
      { what: "outage as the writer saw it (last answer before the kill -> first after)", drydock: `${Math.round(outage)} ms; ${load.failed} writes failed or refused`, goal: '' },
      { what: 'writes acknowledged before / after the kill; PATCH p99 before / after', drydock: `${before} / ${after.length}; ${p99(load.acked.slice(0, before))} / ${p99(after)}`, goal: '' },
      { what: 'acknowledged writes lost', drydock: String(findings.lost.length), goal: '0' },
      { what: 'revisions after the restart above every one before', drydock: after.every((w) => w.revision > lastBefore) ? 'yes' : 'NO', goal: 'yes' },
      { what: 'watchers resumed without a relist / relisted / stuck', drydock: `${watchers.filter((w) => w.relists === 0).length} / ${watchers.filter((w) => w.relists > 0).length} / ${stuck}`, goal: `${watcherCount} / 0 / 0` },
      { what: 'acknowledged writes a watcher missed; events out of order', drydock: `${missed}; ${findings.outOfOrder.reduce((a, b) => a + b, 0)}`, goal: '0; 0' },
    ]);
  } finally {
    for (const w of watchers) w.stop();
    await stopChild(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}
