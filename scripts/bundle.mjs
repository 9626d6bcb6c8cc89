// Bundles the CLI and its JavaScript dependencies into dist/drydock.cjs: one file loads in about
// half the time of hundreds of modules and packages resolved one by one at start. better-sqlite3
// (a native addon) and ws (needed only by exec) stay external. dist/drydock.mjs is the executable. It starts node from a V8
// startup snapshot of the loaded bundle (dist/drydock.blob) when there is one made by the `node`
// that would run it, and otherwise runs the bundle through V8's code cache (src/cli/launch.ts).
// This script writes the cache by starting the default cluster once, then builds the snapshot
// with it. Without them (say the warm-up cannot listen on loopback) everything still works, only
// the start is slower.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { build } from 'esbuild';

// The V8 flags drydock runs under: a cluster's every write allocates short-lived copies, and with
// V8's default 16 MB semi-space a tenth of the server thread went to scavenges (bench/README.md).
// Unless told an initial old space, V8 lowers its first full-collection limit from the survival of
// the first scavenges, and a default cluster's heap met it at ~24 MB just after the ready line: a
// full collection (~10 ms, and concurrent marking besides) beside the user's first kubectl. With 64 MB
// the first one comes when the heap reaches it; the limits after it follow the live heap as before.
// A regexp that backtracks past V8's limit finishes on its linear engine (src/core/user-regexp.ts):
// Cluster.start sets that flag itself when node was not started with it, but a flag set at run time
// changes V8's flag hash, and the code cache made by the warm-up run would not be accepted.
// V8 refuses a code cache or snapshot made under other flags, so both are made under these.
const nodeFlags = ['--max-semi-space-size=64', '--initial-old-space-size=64', '--enable-experimental-regexp-engine-on-excessive-backtracks'];

const bundleUrlBanner = [
  "let __drydockBundleUrl = require('node:url').pathToFileURL(__filename).href;",
  "if (require('node:v8').startupSnapshot.isBuildingSnapshot()) require('node:v8').startupSnapshot.addDeserializeCallback(() => {",
  "  const at = process.execArgv.indexOf('--snapshot-blob');",
  "  const blob = at >= 0 ? process.execArgv[at + 1] : process.execArgv.find((a) => a.startsWith('--snapshot-blob='))?.slice(16);",
  "  if (blob) __drydockBundleUrl = require('node:url').pathToFileURL(require('node:path').resolve(blob, '../drydock.cjs')).href;",
  '});',
].join('\n');

await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['better-sqlite3', 'ws'],
  outfile: 'dist/drydock.cjs',
  // import.meta.url (createRequire of better-sqlite3, loaded on first use) is the bundle's own URL:
  // in a process started from the snapshot, the one beside the snapshot it started from, not the
  // path the build ran at (a checkout moved after its build would not find its node_modules).
  define: { 'import.meta.url': '__drydockBundleUrl' },
  banner: { js: bundleUrlBanner },
  logLevel: 'warning',
});
asciiOnly('dist/drydock.cjs');
loadLazily('dist/drydock.cjs', ['node:http', 'node:https', 'node:net', 'node:module', 'node:tls']);
// The executable: a shell line that starts node from the snapshot, above the JavaScript path. `node
// dist/drydock.mjs` reads the line as a string and a comment; sh runs it. The snapshot is used only
// with the node binary that built it (the one first on PATH then, not replaced since), and not under
// NODE_OPTIONS: node refuses to start from a snapshot made under other V8 flags. NODE_EXTRA_CA_CERTS
// is handed over as DRYDOCK_EXTRA_CA_CERTS: Node 20 would parse that file and its own roots before
// anything runs, and Drydock reads it only for an outbound call (src/client/trusted-certificates.ts).
// The line forks only for a symlink (npm's bin link, resolved with readlink): it finds the first node
// on PATH with its own loop, as `command -v` would, since each `$(...)` is a fork, 2-5 ms of every start here.
// It asks glibc (2.35 and later; others ignore it) to back large allocations with transparent huge
// pages where the kernel leaves that to the program (THP "madvise", the common default): node reads
// the 11 MB snapshot into one malloc'd buffer, and at 4 KB a page that buffer and malloc's heap took
// ~4,000 page faults, some 55 ms of the start on a virtual machine. A GLIBC_TUNABLES that names the tunable already is kept.
await build({
  entryPoints: ['src/cli/launch.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/drydock.mjs',
  banner: {
    js: [
      '#!/bin/sh',
      `":" //; case "$GLIBC_TUNABLES" in *glibc.malloc.hugetlb=*) ;; *) export GLIBC_TUNABLES="\${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1";; esac; [ -n "$NODE_EXTRA_CA_CERTS" ] && export DRYDOCK_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS" && unset NODE_EXTRA_CA_CERTS; if [ -z "$NODE_OPTIONS" ]; then self=$0; [ -L "$self" ] && self=$(readlink -f "$self" 2>/dev/null); dir=\${self%/*}; p=$PATH:; while [ -n "$p" ]; do d=\${p%%:*}; p=\${p#*:}; if [ -f "\${d:-.}/node" ] && [ -x "\${d:-.}/node" ]; then read -r node 2>/dev/null < "$dir/drydock.blob.node" && [ "$node" = "\${d:-.}/node" ] && [ ! "$node" -nt "$dir/drydock.blob" ] && exec "$node" ${nodeFlags.join(' ')} --snapshot-blob "$dir/drydock.blob" "$@"; break; fi; done; fi; exec node ${nodeFlags.join(' ')} "$0" "$@"`,
    ].join('\n'),
  },
  logLevel: 'warning',
});
// esbuild marks an output executable only when its entry starts with a hashbang; this one's is the banner's.
chmodSync('dist/drydock.mjs', 0o755);
await build({
  entryPoints: ['src/cli/snapshot-builder.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/drydock-snapshot.cjs',
  logLevel: 'warning',
});

const cache = 'dist/drydock.cjs.cache';
const blob = 'dist/drydock.blob';
const blobNode = 'dist/drydock.blob.node';
for (const file of [cache, blob, blobNode]) rmSync(file, { force: true });
const dir = mkdtempSync(join(tmpdir(), 'drydock-build-'));
try {
  await warmUp(dir);
  buildSnapshot();
} catch (error) {
  process.stderr.write(`bundle: ${existsSync(cache) ? 'no startup snapshot' : 'no code cache or startup snapshot'} written (${error instanceof Error ? error.message : String(error)}); drydock will start without it\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Builds dist/drydock.blob with the node the executable's shell line will find, and records that
 * node's path beside it (the line uses the snapshot only with it; V8 also refuses other versions').
 */
function buildSnapshot() {
  const found = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).stdout.trim();
  if (!found || realpathSync(found) !== realpathSync(process.execPath)) throw new Error(`the node on PATH (${found || 'none'}) is not the one building (${process.execPath})`);
  const built = spawnSync(found, [...nodeFlags, '--snapshot-blob', blob, '--build-snapshot', 'dist/drydock-snapshot.cjs', 'dist/drydock.cjs'], { encoding: 'utf8' });
  if (built.status !== 0 || !existsSync(blob)) {
    rmSync(blob, { force: true });
    throw new Error(`node --build-snapshot failed: ${(built.stderr || built.stdout).trim().split('\n').filter((line) => !/Warning|It may still|To request|trace-warnings/.test(line)).slice(0, 6).join(' | ')}`);
  }
  writeFileSync(blobNode, `${found}\n`);
}

/**
 * Starts the default cluster with the cache writer on, waits for its ready line, sends the requests
 * a first kubectl session sends, and stops it: the cache then also holds the request paths, which
 * would otherwise compile while the user's first `kubectl get` waits.
 */
function warmUp(dir) {
  return new Promise((resolve, reject) => {
    // Run as users run it (no snapshot yet, so its JavaScript path), with the flags its shell line
    // names: V8 refuses a cache written under others.
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
        const stop = () => child.kill('SIGTERM');
        // A failed request costs only its paths' place in the cache.
        kubectlLikeRequests(join(dir, 'kubeconfig')).then(stop, stop);
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

/** Discovery, `get ns` as a table, and `apply` of a ConfigMap (create, get, strategic patch). */
async function kubectlLikeRequests(kubeconfig) {
  const text = readFileSync(kubeconfig, 'utf8');
  const server = /server: (\S+)/.exec(text)?.[1];
  const token = /token: (\S+)/.exec(text)?.[1];
  const ca = /certificate-authority-data: (\S+)/.exec(text)?.[1];
  if (!server || !token || !ca) throw new Error('kubeconfig without server, token or CA');
  const agent = new Agent({ keepAlive: true, ca: Buffer.from(ca, 'base64') });
  const discovery = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
  const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  const configMap = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warm-up', namespace: 'default' }, data: { a: '1' } });
  try {
    await send(agent, server, token, 'GET', '/version');
    await send(agent, server, token, 'GET', '/api', discovery);
    await send(agent, server, token, 'GET', '/apis', discovery);
    await send(agent, server, token, 'GET', '/api/v1/namespaces?limit=500', table);
    await send(agent, server, token, 'GET', '/openapi/v3');
    await send(agent, server, token, 'POST', '/api/v1/namespaces/default/configmaps?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', 'application/json', configMap, 'application/json');
    await send(agent, server, token, 'GET', '/api/v1/namespaces/default/configmaps/warm-up');
    await send(agent, server, token, 'PATCH', '/api/v1/namespaces/default/configmaps/warm-up?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', 'application/json', '{"data":{"a":"2"}}', 'application/strategic-merge-patch+json');
  } finally {
    agent.destroy();
  }
}

function send(agent, server, token, method, path, accept = 'application/json', body, contentType) {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, Accept: accept, ...(contentType ? { 'Content-Type': contentType } : {}) };
    const req = request(`${server}${path}`, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
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

/**
 * Node 20 cannot load node:http while building a snapshot (its module body calls toSorted, which the
 * builder's context lacks) nor node:tls (its bindings are no known external references), and does not
 * vouch for https, net or module there; the bundle requires
 * these on first use instead, after the process started from the snapshot. esbuild reaches a
 * builtin's exports through the variable it requires it into, so a proxy that requires on first
 * access stands in for it.
 */
function loadLazily(file, builtins) {
  let text = readFileSync(file, 'latin1');
  for (const id of builtins) {
    const eager = `require("${id}")`;
    if (!text.includes(eager)) throw new Error(`${file} does not require ${id} as expected: update loadLazily`);
    text = text.replaceAll(eager, `__drydockLazyBuiltin("${id}")`);
  }
  const lazy = 'function __drydockLazyBuiltin(id) { let loaded; const real = () => (loaded ??= require(id)); return new Proxy({}, { get: (_, key) => real()[key], has: (_, key) => key in real() }); }';
  writeFileSync(file, text.replace(/^(#!.*\n)?/, (hashbang) => `${hashbang}${lazy}\n`));
}
