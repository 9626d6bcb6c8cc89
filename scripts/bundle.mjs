// Bundles the CLI and its JavaScript dependencies into dist/drydock.cjs: one file loads in about
// half the time of hundreds of modules and packages resolved one by one at start. better-sqlite3
// stays external (a native addon). dist/drydock.mjs is the executable: it runs the bundle through
// V8's code cache (src/cli/launch.ts), which this script then writes by starting the default
// cluster once. Without a cache (say the warm-up cannot listen on loopback) everything still
// works, only the start is slower.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['better-sqlite3'],
  outfile: 'dist/drydock.cjs',
  // import.meta.url (createRequire of better-sqlite3, loaded on first use) is the bundle's own URL.
  define: { 'import.meta.url': '__drydockBundleUrl' },
  banner: { js: "const __drydockBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
asciiOnly('dist/drydock.cjs');
await build({
  entryPoints: ['src/cli/launch.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/drydock.mjs',
  logLevel: 'warning',
});

const cache = 'dist/drydock.cjs.cache';
rmSync(cache, { force: true });
const dir = mkdtempSync(join(tmpdir(), 'drydock-build-'));
try {
  await warmUp(dir);
} catch (error) {
  rmSync(cache, { force: true });
  process.stderr.write(`bundle: no code cache written (${error instanceof Error ? error.message : String(error)}); drydock will start without it\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Starts the default cluster with the cache writer on, waits for its ready line, and stops it. */
function warmUp(dir) {
  return new Promise((resolve, reject) => {
    // Run through its hashbang, with the flags it names: V8 refuses a cache written under others.
    const child = spawn('dist/drydock.mjs', ['up', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DRYDOCK_WRITE_CODE_CACHE: '1' },
    });
    let out = '';
    let ready = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const onData = (chunk) => {
      out += chunk;
      if (!ready && out.includes('ready')) {
        ready = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (ready && code === 0) resolve();
      else reject(new Error(`warm-up cluster ended ${signal ?? `with code ${code}`} before it was ready: ${out.trim().split('\n').pop() ?? ''}`));
    });
  });
}

/**
 * The launcher reads the bundle as latin1, half the time of decoding UTF-8, which gives the same
 * text only for pure ASCII. esbuild escapes strings but leaves a few characters in comments and
 * regular expressions (`µs`); a `\\uXXXX` escape per UTF-16 unit means the same there.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== text) writeFileSync(file, escaped);
}
