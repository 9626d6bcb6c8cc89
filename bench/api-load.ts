// P9 (issue 9): mutating API latency at a steady 100 PATCH/s over HTTP with 10 pod watchers open and
// 10,000 pods stored, beside a bare node:http server answering the same requests with a stored pod.
// Plain HTTP on loopback on both sides (as bench/api.ts), so the figures compare request pipelines.
import { Agent, createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinDefinitions, refs } from '../src/api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createHttpHandler, createLocalClient } from '../src/apiserver/index.ts';
import { CryptoRandom, RealClock } from '../src/core/index.ts';
import { MemoryStore } from '../src/storage/index.ts';
import { bounded, pausePod, runs } from './harness.ts';
import { median, percentile, printTable } from './table.ts';
import { env } from './env.ts';

const token = 'bench';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function send(agent: Agent, port: number, method: string, path: string, body: string, type: string): Promise<number> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const req = request({ agent, host: '127.0.0.1', port, method, path, headers: { Authorization: `Bearer ${token}`, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) } }, (r) => {
      r.resume();
      r.on('end', () => ((r.statusCode ?? 0) < 300 ? res(performance.now() - t0) : rej(new Error(`${method} ${path}: ${r.statusCode ?? 0}`))));
    });
    req.on('error', rej);
    req.end(body);
  });
}

/** Sends `rate` requests/s for `seconds`, open loop; returns sorted latencies. */
async function steady(rate: number, seconds: number, one: (i: number) => Promise<number>): Promise<number[]> {
  const t0 = performance.now();
  const out: Promise<number>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    out.push(one(i));
  }
  return (await Promise.all(out)).sort((a, b) => a - b);
}

export async function runApiLoadBenchmark(): Promise<void> {
  const stored = env('BENCH_P9_PODS', 10_000);
  const watchers = env('BENCH_P9_WATCHERS', 10);
  const rate = env('BENCH_P9_RATE', 100);
  const seconds = env('BENCH_P9_SECONDS', 10);
  const store = new MemoryStore();
  const server = new ApiServer({ store, clock: new RealClock(), random: new CryptoRandom(), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  await bounded(stored, 64, (i) => client.create(refs.pods, { ...pausePod(`p-${i}`), spec: { ...pausePod('x').spec, nodeName: `n-${i % 100}` } }));
  const http = createServer({ keepAlive: true }, createHttpHandler({ server, tokens: [token] }));
  const port = await listen(http);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  // Watchers read every event to the end, as informers do.
  let received = 0;
  const open = Array.from({ length: watchers }, () => request({ host: '127.0.0.1', port, path: `/api/v1/pods?watch=true&resourceVersion=${store.revision()}`, headers: { Authorization: `Bearer ${token}` } }, (r) => r.on('data', (c: Buffer) => (received += c.length))));
  for (const r of open) r.end();
  const podJson = await new Promise<string>((res) => request({ host: '127.0.0.1', port, path: '/api/v1/namespaces/default/pods/p-0', headers: { Authorization: `Bearer ${token}` } }, (r) => {
    let t = '';
    r.on('data', (c: Buffer) => (t += c.toString()));
    r.on('end', () => res(t));
  }).end());
  const bare = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(podJson) });
      res.end(podJson);
    });
  });
  const barePort = await listen(bare);
  const patch = (i: number): string => JSON.stringify({ metadata: { annotations: { 'bench/seq': String(i) } } });
  const dd: number[][] = [];
  const fl: number[][] = [];
  for (let r = 0; r < runs; r++) {
    dd.push(await steady(rate, seconds, (i) => send(agent, port, 'PATCH', `/api/v1/namespaces/default/pods/p-${(i * 7919) % stored}`, patch(i), 'application/merge-patch+json')));
    fl.push(await steady(rate, seconds, (i) => send(agent, barePort, 'PATCH', `/api/v1/namespaces/default/pods/p-${i % stored}`, patch(i), 'application/merge-patch+json')));
  }
  for (const r of open) r.destroy();
  agent.destroy();
  http.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
  await new Promise<void>((r) => bare.close(() => r()));
  const p99 = median(dd.map((l) => percentile(l, 99)));
  const f99 = median(fl.map((l) => percentile(l, 99)));
  printTable(`P9: PATCH at ${rate}/s for ${seconds} s over HTTP, ${watchers} pod watchers, ${stored} pods stored, median of ${runs} runs`, [
    { '#': 'P9', what: 'merge PATCH pod annotation', drydock: `p50 ${median(dd.map((l) => percentile(l, 50))).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`, floor: `bare node:http p50 ${median(fl.map((l) => percentile(l, 50))).toFixed(2)} ms, p99 ${f99.toFixed(2)} ms`, ratio: p99 / f99, goal: '<= 10 ms p99', anchor: 'SLO 1 s' },
    { '#': 'P9', what: 'watch bytes delivered', drydock: `${(received / 2 ** 20).toFixed(1)} MB to ${watchers} watchers`, floor: '', ratio: '', goal: '', anchor: '' },
  ]);
}
