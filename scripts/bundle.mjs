// Bundles the CLI and its JavaScript dependencies into dist/drydock.cjs: one file loads in about
// half the time of hundreds of modules and packages resolved one by one at start. better-sqlite3
// stays external (a native addon). dist/drydock.mjs is the executable: it runs the bundle through
// V8's code cache (src/cli/launch.ts), which this script then writes by starting the default
// cluster once. Without a cache (say the warm-up cannot listen on loopback) everything still
// works, only the start is slower.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:https';
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

/**
 * Starts the default cluster with the cache writer on, waits for its ready line, sends the requests
 * a first kubectl session sends, and stops it: the cache then also holds the request paths, which
 * would otherwise compile while the user's first `kubectl get` waits.
 */
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
