// Runs every compiled *.test.js under dist/ with node's test runner.
// Node 20's --test takes no globs, so the files are collected here.
// `node scripts/run-tests.mjs unit` skips the end-to-end tests; `e2e` runs only them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const which = process.argv[2] ?? 'all';
function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}
// End to end: test/e2e, and bench/run.test.js, which runs every benchmark (spawned servers, the
// real kubectl) for a minute.
const isE2e = (f) => f.includes('/e2e/') || f === join('dist', 'bench', 'run.test.js');
const files = [...collect('dist/src', []), ...collect('dist/test', []), ...collect('dist/bench', [])]
  .filter((f) => (which === 'unit' ? !isE2e(f) : which === 'e2e' ? isE2e(f) : true))
  .sort();
// Shared decoded objects are deep-frozen under test, so a component that mutates one fails loudly.
const env = { ...process.env, DRYDOCK_FREEZE_OBJECTS: '1' };
// The benchmark suite's test runs after the rest, on its own: its dozen benchmark processes would
// otherwise share the machine's cores with a timing-sensitive end-to-end file (kubectl's exec client
// drops output that arrives before it has set up its streams, a race a loaded machine widens).
const alone = join('dist', 'bench', 'run.test.js');
const run = (list) => (list.length === 0 ? 0 : (spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...list], { stdio: 'inherit', env }).status ?? 1));
const first = run(files.filter((f) => f !== alone));
const last = run(files.filter((f) => f === alone));
process.exit(first !== 0 ? first : last);
