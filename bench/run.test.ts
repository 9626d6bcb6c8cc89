// Every benchmark of the suite runs to its tables, at tiny sizes: nothing else runs the benchmarks,
// and `dra` and `scheduler` hung unseen for three sessions (issue 9). The suite runs as a user runs
// it, `node --expose-gc dist/bench/run.js <names...>`, the runner spawning each benchmark's child.
// Figures are never asserted (issue 9): only that each benchmark exits 0 and prints each of its
// tables with at least one row, none of them a `failed:` row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { kubectlBinary } from '../test/e2e/harness.ts';

/** bench/README.md's variables, each at a size that runs in seconds. */
const tiny: Record<string, string> = {
  BENCH_RUNS: '1',
  // A pod that never binds fails `dra` or `scheduler` after this, not after the default minute.
  BENCH_STALL_SECONDS: '20',
  BENCH_SECONDS: '1',
  BENCH_API_PAIRS: '1',
  BENCH_API_WARMUP_SECONDS: '0',
  BENCH_API_LIST_PODS: '10',
  BENCH_API_WATCHERS: '2',
  BENCH_API_EVENTS: '20',
  BENCH_API_MEMORY_PODS: '50',
  BENCH_API_STARTS: '1',
  BENCH_P6_A: '2/20',
  BENCH_P6_B: '1/60',
  BENCH_RESIZE_PODS: '10',
  BENCH_RESIZE_NODES: '1',
  BENCH_RESIZE_SETTLE_SECONDS: '0',
  BENCH_WRITES: '50',
  BENCH_STARTUP_RUNS: '1',
  BENCH_STARTUP_IDLE_SECONDS: '0',
  BENCH_P3_NODES: '5',
  BENCH_P4_PODS: '20',
  BENCH_P4_NODES: '2',
  BENCH_P8_NODES: '2',
  BENCH_P8_RATES: '20',
  BENCH_P8_SECONDS: '0.5',
  BENCH_P8_SETTLE_SECONDS: '0',
  BENCH_P8_WARMUP_SECONDS: '0',
  BENCH_P12_DEPLOYMENTS: '5',
  BENCH_I8_DEPLOYMENTS: '3',
  BENCH_I8_REPLICAS: '2',
  BENCH_I8_NODES: '2',
  BENCH_P9_PODS: '50',
  BENCH_P9_RATE: '20',
  BENCH_P9_SECONDS: '0.5',
  BENCH_P9_WATCHERS: '2',
  BENCH_RESTART_PODS: '50',
  BENCH_RESTART_WATCHERS: '2',
  BENCH_RESTART_RATE: '20',
  BENCH_RESTART_SECONDS: '1',
  BENCH_P5_A: '2/20',
  BENCH_P5_B: '2/10',
  BENCH_P5_C: '2/16',
  BENCH_P10_NODES: '2',
  BENCH_P10_PODS: '10',
  BENCH_P10_MINUTES: '0.05',
  BENCH_P10_FILL_SECONDS: '0',
  BENCH_POD_MEMORY: '2/10',
  BENCH_POD_MEMORY_SETTLE_SECONDS: '0',
  BENCH_POD_MEMORY_HISTORY: '100',
  BENCH_P11_NODES: '2',
  BENCH_P11_PODS: '10',
  BENCH_P11_SCALE: '100',
  BENCH_P11_MINUTES: '0.5',
  BENCH_P11_CHURN: '5',
};

/**
 * Each benchmark's tables, by the line that starts them: printTable's title, or for `scheduler`,
 * which prints its own table, the header. Every benchmark of bench/run.ts is here.
 */
const tables: Record<string, RegExp[]> = {
  api: [/^API requests over HTTP/, /^Watch fan-out over HTTP$/, /^Memory per stored pod/, /^drydock up, default cluster, process start to ready$/],
  dra: [/^DRA scheduling/],
  resize: [/^in-place resize:/],
  'write-path': [/^in-process API writes,/],
  startup: [/^P1\/P2: drydock up/],
  nodes: [/^P3: nodes Ready/],
  pods: [/^P4: pods Running/, /^P8: pod start-up latency/, /^P12: Deployments Available/, /^Issue 8: Deployment readiness throughput/],
  'api-load': [/^P9: PATCH at/],
  restart: [/^Restart under P9's load/],
  scheduler: [/^scenario +\| pods\/s/],
  hold: [/^P10: holding a large cluster$/],
  'pod-memory': [/^issue 4: heap per running pod/],
  churn: [/^P11: RSS growth over churn$/],
};

const runner = resolve(import.meta.dirname, 'run.js');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** The runner with `names`, its stdout and stderr interleaved; killed with its children after `ms`. */
function runSuite(names: string[], ms: number): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--expose-gc', runner, ...names], { env: { ...process.env, ...tiny, KUBECTL: kubectlBinary(), DRYDOCK_PROF: '' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // The runner's process group: its benchmark child and the servers that child spawned.
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // The group ended between the deadline and the runner's close.
      }
    }, ms);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, output });
    });
  });
}

/** The output between the runner's `== name` line and the next benchmark's. */
function section(output: string, name: string): string[] | undefined {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`== ${name} (start:`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('== '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The rows under the table whose first line matches `title`: after its rule of dashes, up to a blank line. */
function rows(lines: string[], title: RegExp): string[] | undefined {
  const at = lines.findIndex((line) => title.test(line));
  if (at < 0) return undefined;
  const rule = lines.findIndex((line, i) => i > at && i <= at + 2 && /^-+([ |-]+-+)*$/.test(line));
  if (rule < 0) return [];
  const end = lines.findIndex((line, i) => i > rule && line.trim() === '');
  return lines.slice(rule + 1, end < 0 ? undefined : end).filter((line) => !line.startsWith('== ') && !/^\S+: exited with /.test(line));
}

test('the tables above name every benchmark of the runner', () => {
  // The runner lists its benchmarks when asked for one it does not know.
  const listed = spawnSync(process.execPath, [runner, 'no-such-benchmark'], { encoding: 'utf8' });
  assert.equal(listed.status, 2, listed.stderr);
  const names = /choose from: (.*)$/m.exec(listed.stderr)?.[1]?.split(', ') ?? [];
  assert.deepEqual([...names].sort(), Object.keys(tables).sort());
});

test('every benchmark runs to its tables at tiny sizes', { timeout: 300_000 }, async (t) => {
  const names = Object.keys(tables);
  const run = await runSuite(names, 280_000);
  for (const name of names) {
    await t.test(name, () => {
      const lines = section(run.output, name);
      assert.ok(lines, `the runner never started ${name}:\n${run.output.slice(-3000)}`);
      const text = lines.join('\n');
      assert.ok(!lines.some((line) => line.startsWith(`${name}: exited with`)), `${name} exited non-zero:\n${text}`);
      for (const title of tables[name] ?? []) {
        const found = rows(lines, title);
        assert.ok(found, `${name} printed no table ${String(title)}:\n${text}`);
        assert.ok(found.length > 0, `${name}'s table ${String(title)} has no rows:\n${text}`);
        const failed = found.filter((row) => /\bfailed:/.test(row));
        assert.deepEqual(failed, [], `${name}'s table ${String(title)} has failed rows`);
      }
    });
  }
  assert.equal(run.signal, null, `the suite was killed (${String(run.signal)}) after 280 s:\n${run.output.slice(-3000)}`);
  assert.equal(run.code, 0, `the suite exited ${String(run.code)}`);
});
