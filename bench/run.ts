// `npm run bench [-- name ...] [-- --profile]`: runs the benchmarks and prints their tables. The
// registry is this map. Each benchmark runs in its own child process (so one's heap never inflates
// the next one's RSS figures); `--profile` or DRYDOCK_PROF=1 adds `--cpu-prof` to that child and
// writes bench/profiles/<name>-<time>.cpuprofile, summarized at the end (bench/README.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runApiBenchmarks } from './api.ts';
import { runDraBenchmarks } from './dra.ts';
import { runApiLoadBenchmark } from './api-load.ts';
import { drydockNodeFlags } from './child.ts';
import { machine } from './harness.ts';
import { runChurnBenchmark, runHoldBenchmark, runNodeBenchmarks } from './nodes.ts';
import { runPodBenchmarks } from './pods.ts';
import { runPodMemoryBenchmark } from './pod-memory.ts';
import { summarize } from './profile-summary.ts';
import { runResizeBenchmarks } from './resize.ts';
import { runRestartBenchmark } from './restart.ts';
import { runWritePathBenchmark } from './write-path.ts';
import { runSchedulerBenchmarks } from './scheduler.ts';
import { runStartupBenchmarks } from './startup.ts';

const benchmarks: Record<string, () => Promise<void>> = {
  api: runApiBenchmarks,
  dra: () => runDraBenchmarks(),
  resize: runResizeBenchmarks,
  'write-path': runWritePathBenchmark,
  startup: runStartupBenchmarks,
  nodes: runNodeBenchmarks,
  pods: runPodBenchmarks,
  'api-load': runApiLoadBenchmark,
  restart: runRestartBenchmark,
  scheduler: () => runSchedulerBenchmarks(),
  hold: runHoldBenchmark,
  'pod-memory': runPodMemoryBenchmark,
  churn: runChurnBenchmark,
};

/** Node flags per benchmark beyond drydock's own: P10 holds more than V8's default old space. */
const nodeFlags: Record<string, string[]> = { hold: ['--max-old-space-size=7680'] };

const args = process.argv.slice(2);
const child = args[0] === '--child';
const profile = args.includes('--profile') || process.env.DRYDOCK_PROF === '1';
const wanted = args.filter((a) => a !== '--profile' && a !== '--child');
const unknown = wanted.filter((name) => !benchmarks[name]);
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from: ${Object.keys(benchmarks).join(', ')}\n`);
  process.exit(2);
}
if (child) {
  for (const name of wanted) await benchmarks[name]?.();
  process.exit(0);
}
const profiles = resolve(import.meta.dirname, '../../bench/profiles');
process.stdout.write(`machine: ${machine()}\n`);
let failed = false;
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks)) {
  process.stdout.write(`\n== ${name} (start: ${machine()})\n`);
  const profName = `${name}-${Date.now()}.cpuprofile`;
  if (profile) mkdirSync(profiles, { recursive: true });
  const flags = ['--expose-gc', ...drydockNodeFlags(), ...(nodeFlags[name] ?? []), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-name=${profName}`] : [])];
  const result = spawnSync(process.execPath, [...flags, process.argv[1] ?? '', '--child', name], { stdio: 'inherit', env: { ...process.env, DRYDOCK_PROF: profile ? '1' : '' } });
  if (result.status !== 0) {
    failed = true;
    process.stdout.write(`${name}: exited with ${String(result.status ?? result.signal)}\n`);
  }
  if (profile && readdirSync(profiles).includes(profName)) process.stdout.write(`\n${summarize(join(profiles, profName), 15)}\n`);
}
process.exit(failed ? 1 : 0);
