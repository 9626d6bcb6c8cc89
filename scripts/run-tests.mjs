// Runs every compiled *.test.js under dist/ with node's test runner.
// Node 20's --test takes no globs, so the files are collected here.
// `node scripts/run-tests.mjs unit` skips test/e2e; `e2e` runs only it.
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
const files = [...collect('dist/src', []), ...collect('dist/test', [])]
  .filter((f) => (which === 'unit' ? !f.includes('/e2e/') : which === 'e2e' ? f.includes('/e2e/') : true))
  .sort();
// Shared decoded objects are deep-frozen under test, so a component that mutates one fails loudly.
const env = { ...process.env, DRYDOCK_FREEZE_OBJECTS: '1' };
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
