// A node pool with `runtime: process` as a kubectl user drives it: the container's command runs on the
// host, `kubectl logs` shows what it printed, the pod ends with its exit code, and `kubectl exec` runs
// on the host too; pods/proxy, services/proxy and kubectl port-forward reach what the process serves.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { drydockForSuite, readKubeconfigToken } from './harness.ts';

/** A loopback port nothing listens on now. */
const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** POSTs body to a local port; the answer's text. */
const post = (port: number, path: string, body: Buffer): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: host\n  count: 1\n  runtime: process\n';

describe('process runtime with kubectl', () => {
  const dd = drydockForSuite({ config });

  test('kubectl run of a command: it runs on the host, logs what it printed, and ends with its exit code', async () => {
    const r = await dd.kubectl(['run', 'hello', '--image=busybox', '--restart=Never', '--env=WHO=drydock', '--', 'sh', '-c', 'echo "hi from $HOSTNAME, $WHO"; exit 7']);
    assert.equal(r.stdout.trim(), 'pod/hello created', r.stderr);
    let state = '';
    for (let i = 0; i < 100 && !state.startsWith('7'); i++) {
      state = (await dd.kubectl(['get', 'pod', 'hello', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode} {.status.phase}'])).stdout;
      if (!state.startsWith('7')) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(state, '7 Failed');
    assert.equal((await dd.kubectl(['logs', 'hello'])).stdout, 'hi from hello, drydock\n');
  });

  test('pods/proxy and services/proxy reach a server the container runs on the host, and a closed port is refused', async () => {
    const port = await freePort();
    // It answers with what it got, and after an upgrade (as a WebSocket's) echoes the bytes.
    const server = `const s = require('http').createServer((q, r) => { let b = ''; q.on('data', (c) => (b += c)); q.on('end', () => r.end(q.method + ' ' + q.url + ' ' + b)); }); s.on('upgrade', (q, sock) => { sock.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: echo\\r\\nConnection: Upgrade\\r\\n\\r\\n'); sock.on('data', (d) => sock.write('echo:' + d)); }); s.listen(${port})`;
    await dd.ok(['run', 'echo', '--image=node', `--port=${port}`, '--labels=app=echo', '--', 'node', '-e', server]);
    const get = (path: string) => dd.kubectl(['get', '--raw', path]);
    const answer = await (async () => {
      for (let i = 0; i < 100; i++) {
        const r = await get(`/api/v1/namespaces/default/pods/echo/proxy/models?limit=2`);
        if (r.code === 0) return r.stdout;
        await new Promise((res) => globalThis.setTimeout(res, 100));
      }
      return 'never answered';
    })();
    assert.equal(answer, 'GET /models?limit=2 ');
    assert.equal(await dd.ok(['create', '--raw', `/api/v1/namespaces/default/pods/echo:${port}/proxy/v1/completions`, '-f', '-'], { input: '{"prompt":"hi"}' }), 'POST /v1/completions {"prompt":"hi"}');
    await dd.ok(['expose', 'pod', 'echo', '--port=80', `--target-port=${port}`]);
    let viaService = '';
    for (let i = 0; i < 100 && viaService === ''; i++) {
      const r = await get('/api/v1/namespaces/default/services/echo:80/proxy/health/');
      if (r.code === 0) viaService = r.stdout;
      else await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(viaService, 'GET /health/ ');
    // An upgrade through the proxy reaches the process, and then the bytes flow both ways.
    const upgraded = await new Promise<string>((resolve, reject) => {
      const api = new URL(dd.url);
      const r = httpsRequest({ host: api.hostname, port: api.port, path: '/api/v1/namespaces/default/pods/echo/proxy/ws', headers: { Authorization: `Bearer ${readKubeconfigToken(dd.kubeconfig)}`, Connection: 'Upgrade', Upgrade: 'echo' }, rejectUnauthorized: false });
      r.on('upgrade', (res, socket) => {
        socket.write('hello');
        socket.once('data', (d: Buffer) => {
          socket.destroy();
          resolve(`${res.statusCode} ${d.toString()}`);
        });
      });
      r.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      r.on('error', reject);
      r.end();
    });
    assert.equal(upgraded, '101 echo:hello');
    const closed = await get(`/api/v1/namespaces/default/pods/echo:${port + 1}/proxy/`);
    assert.match(closed.stderr, new RegExp(`Error from server \\(ServiceUnavailable\\): error trying to reach service: dial tcp [\\d.]+:${port + 1}: connect: connection refused`));
    await dd.ok(['delete', 'pod', 'echo', '--wait=false']);
  });

  test('kubectl port-forward reaches the server a container runs on the host, over the WebSocket tunnel and over SPDY', async () => {
    const port = await freePort();
    const server = `require('http').createServer((q, s) => { let n = 0; q.on('data', (c) => (n += c.length)); q.on('end', () => s.end(q.method + ' ' + q.url + ' ' + n)); }).listen(${port})`;
    await dd.ok(['run', 'fwd', '--image=node', `--port=${port}`, '--', 'node', '-e', server]);
    for (let i = 0; i < 100; i++) {
      if ((await dd.kubectl(['get', '--raw', `/api/v1/namespaces/default/pods/fwd/proxy/`])).code === 0) break;
      await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    // kubectl 1.31+ tunnels SPDY in a WebSocket first; KUBECTL_PORT_FORWARD_WEBSOCKETS=false makes it upgrade to SPDY itself.
    for (const env of [{}, { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }]) {
      const forward = dd.spawnKubectl(['port-forward', 'pod/fwd', `:${port}`], { env });
      let out = '';
      forward.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      for (let i = 0; i < 100 && !/Forwarding from 127\.0\.0\.1:\d+/.test(out); i++) await new Promise((res) => globalThis.setTimeout(res, 50));
      const local = Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
      assert.ok(local > 0, out);
      const body = Buffer.alloc(3 * 1024 * 1024, 120);
      const answers = await Promise.all([post(local, '/v1/completions', body), post(local, '/health', Buffer.alloc(0))]);
      forward.kill();
      assert.deepEqual(answers, [`POST /v1/completions ${body.length}`, 'POST /health 0'], JSON.stringify(env));
    }
    await dd.ok(['delete', 'pod', 'fwd', '--wait=false']);
  });

  test('kubectl exec runs a host process beside the container\'s, with its environment and standard input', async () => {
    await dd.ok(['run', 'sleeper', '--image=busybox', '--env=WHO=drydock', '--', 'sleep', '30']);
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Running'; i++) {
      phase = (await dd.kubectl(['get', 'pod', 'sleeper', '-o', 'jsonpath={.status.phase}'])).stdout;
      if (phase !== 'Running') await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    const r = await dd.kubectl(['exec', 'sleeper', '--', 'sh', '-c', 'echo "$WHO in $(pwd) as $HOSTNAME"; exit 5']);
    assert.equal(r.stdout, 'drydock in / as sleeper\n');
    assert.equal(r.code, 5);
    assert.equal(await dd.ok(['exec', '-i', 'sleeper', '--', 'cat'], { input: 'piped through\n' }), 'piped through\n');
    const missing = await dd.kubectl(['exec', 'sleeper', '--', 'no-such-tool']);
    assert.match(missing.stderr, /OCI runtime exec failed: exec failed: unable to start container process: exec: "no-such-tool": executable file not found in \$PATH: unknown/);
  });
});
