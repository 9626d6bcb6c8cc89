// P1 and P2 (issue 9): `drydock up` with the default cluster, from process spawn until the real
// kubectl's `get ns` answers, and the idle RSS of that process; beside the floor of the same
// machine: a bare node:http server's spawn-to-answer time and RSS, and kubectl's own start-up.
// P1's kubectl starts with an empty cache dir of its own, as a first-time user's: it downloads
// discovery. Two more `get ns` against the same server then model everyone after that: one with
// the cache dir as the first left it (kubectl trusts it for its 6 h TTL and asks for no discovery),
// one with that discovery cache aged past the TTL, so kubectl asks for /api and /apis again with
// the ETags its HTTP cache kept (304 Not Modified when nothing changed).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { env } from './env.ts';
import { median, printTable } from './table.ts';
import { processRssMb, runs } from './harness.ts';
import { bareServerArgs, spawnDrydockUntil, spawnNodeUntil, stopChild } from './child.ts';

const kubectl = process.env.KUBECTL ?? 'kubectl';
const profiling = process.env.DRYDOCK_PROF === '1';
const idleSeconds = env('BENCH_STARTUP_IDLE_SECONDS', 5);

function run(cmd: string, args: string[]): Promise<number> {
  return new Promise((res) => spawn(cmd, args, { stdio: 'ignore' }).once('exit', (code) => res(code ?? 1)));
}

interface UpRun {
  readyMs: number;
  getNsMs: number;
  warmGetNsMs: number;
  expiredGetNsMs: number;
  idleRssMb: number;
}

/** kubectl's discovery cache as a later day finds it: every file older than the 6 h TTL. */
function ageDiscoveryCache(cacheDir: string): void {
  const old = new Date(Date.now() - 7 * 3600_000);
  for (const entry of readdirSync(join(cacheDir, 'discovery'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), old, old);
  }
}

/** How long one kubectl run takes; a failed run has no figure. */
async function timedKubectl(args: string[]): Promise<number> {
  const t0 = performance.now();
  const code = await run(kubectl, args);
  if (code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${code}`);
  return performance.now() - t0;
}

async function drydockUp(): Promise<UpRun> {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const getNs = ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'ns'];
  const t0 = performance.now();
  const flags = profiling ? ['--cpu-prof', `--cpu-prof-dir=${resolve(import.meta.dirname, '../../bench/profiles')}`] : [];
  const { ms: readyMs, child } = await spawnDrydockUntil(['up', '--port', '0', '--kubeconfig', kubeconfig], /ready/, process.env, flags);
  // kubectl may race the ready line by a hair; retry until it answers, as a user script would.
  while ((await run(kubectl, getNs)) !== 0) await new Promise((r) => setTimeout(r, 20));
  const getNsMs = performance.now() - t0;
  const warmGetNsMs = await timedKubectl(getNs);
  ageDiscoveryCache(join(dir, 'cache'));
  const expiredGetNsMs = await timedKubectl(getNs);
  // Idle: controllers and kubelets settled, leases ticking; read after BENCH_STARTUP_IDLE_SECONDS.
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idleRssMb = processRssMb(child.pid ?? 0);
  await stopChild(child);
  rmSync(dir, { recursive: true, force: true });
  return { readyMs, getNsMs, warmGetNsMs, expiredGetNsMs, idleRssMb };
}

async function bareHttp(): Promise<{ answerMs: number; rssMb: number }> {
  const t0 = performance.now();
  const { line, child } = await spawnNodeUntil(bareServerArgs, /port \d+/);
  const port = line.slice(5);
  await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
  const answerMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  const rssMb = processRssMb(child.pid ?? 0);
  await stopChild(child);
  return { answerMs, rssMb };
}

async function kubectlAlone(): Promise<number> {
  const t0 = performance.now();
  spawnSync(kubectl, ['version', '--client'], { stdio: 'ignore' });
  return performance.now() - t0;
}

export async function runStartupBenchmarks(): Promise<void> {
  const up: UpRun[] = [];
  const bare: { answerMs: number; rssMb: number }[] = [];
  const kc: number[] = [];
  const n = env('BENCH_STARTUP_RUNS', Math.max(runs, 5));
  // Interleaved, so a burst of load from elsewhere hits both sides alike.
  for (let i = 0; i < n; i++) {
    up.push(await drydockUp());
    bare.push(await bareHttp());
    kc.push(await kubectlAlone());
  }
  const getNs = median(up.map((u) => u.getNsMs));
  const floorStart = median(bare.map((b) => b.answerMs)) + median(kc);
  printTable(`P1/P2: drydock up, default cluster (2 cpu + 2 h100 nodes), median of ${n} runs`, [
    { '#': 'P1', what: 'spawn -> kubectl get ns answers', drydock: `${Math.round(getNs)} ms`, floor: `${Math.round(floorStart)} ms (bare node:http answers + kubectl version --client)`, ratio: getNs / floorStart, goal: '<= 300 ms', anchor: 'KWOK ~5 s, envtest ~7 s, k3d 12.6 s, kind 14.2 s' },
    { '#': 'P1', what: 'kubectl get ns again, its cache dir warm (within the 6 h TTL)', drydock: `${Math.round(median(up.map((u) => u.warmGetNsMs)))} ms`, floor: `${Math.round(median(kc))} ms (kubectl version --client)`, ratio: median(up.map((u) => u.warmGetNsMs)) / median(kc), goal: '', anchor: '' },
    { '#': 'P1', what: 'kubectl get ns, discovery cache past its TTL (revalidates /api, /apis)', drydock: `${Math.round(median(up.map((u) => u.expiredGetNsMs)))} ms`, floor: `${Math.round(median(kc))} ms (kubectl version --client)`, ratio: median(up.map((u) => u.expiredGetNsMs)) / median(kc), goal: '', anchor: '' },
    { '#': 'P1', what: 'spawn -> ready line', drydock: `${Math.round(median(up.map((u) => u.readyMs)))} ms`, floor: `${Math.round(median(bare.map((b) => b.answerMs)))} ms (bare node:http answers)`, ratio: median(up.map((u) => u.readyMs)) / median(bare.map((b) => b.answerMs)), goal: '', anchor: '' },
    { '#': 'P2', what: `idle RSS (${idleSeconds} s after ready)`, drydock: `${Math.round(median(up.map((u) => u.idleRssMb)))} MB`, floor: `${Math.round(median(bare.map((b) => b.rssMb)))} MB (bare node:http)`, ratio: median(up.map((u) => u.idleRssMb)) / median(bare.map((b) => b.rssMb)), goal: '<= 100 MB', anchor: 'KWOK ~300 MB, k3s 1.4-1.6 GB' },
  ]);
}
