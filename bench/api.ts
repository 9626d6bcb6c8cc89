// API server benchmark (issue 2): GET, LIST 1,000, CREATE and watch fan-out over HTTP on
// loopback, side by side with a bare node:http server returning a stored pod's JSON; the
// memory held per stored 2 KB pod; and `drydock up` start-to-ready time.
// Both servers speak plain HTTP here so the figures compare the request pipeline, not TLS; drydock's
// is the cluster's own (Cluster.httpHandler), without the components.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { builtinDefinitions, refs } from '../src/api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from '../src/apiserver/index.ts';
import { Cluster, defaultClusterConfig } from '../src/cluster/index.ts';
import { CryptoRandom, RealClock } from '../src/core/index.ts';
import type { KubeObject } from '../src/core/index.ts';
import { MemoryStore } from '../src/storage/index.ts';
import { bareServerArgs, spawnDrydockUntil, spawnNodeUntil, startEnvironments, stopChild } from './child.ts';
import { count, env } from './env.ts';
import { median, printTable } from './table.ts';
import type { Row } from './table.ts';

const token = 'bench';
const seconds = env('BENCH_SECONDS', 5);
// Each side's seconds are split into this many alternating runs (bare, drydock, bare, ...): this
// machine's speed drifts by half within a minute, and one run of each side apart measured the drift.
const pairs = Math.max(1, env('BENCH_API_PAIRS', 5));
/** Each side's unmeasured run before an operation's pairs. */
const warmupSeconds = env('BENCH_API_WARMUP_SECONDS', 1);
/** The pods stored for GET and LIST (the LIST row lists them all). */
const listPods = env('BENCH_API_LIST_PODS', 1000);
const fanOut = { watchers: env('BENCH_API_WATCHERS', 100), events: env('BENCH_API_EVENTS', 10_000) };
const memoryPods = env('BENCH_API_MEMORY_PODS', 20_000);
/** `drydock up` starts per environment, each beside a bare server's. */
const starts = env('BENCH_API_STARTS', 7);

function podManifest(name: string): KubeObject {
  // About 2 KB stored, like a typical small workload pod.
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'bench', tier: 'web', release: 'stable' }, annotations: { 'example.com/owner': 'team-ml', 'example.com/description': 'x'.repeat(400) } },
    spec: {
      nodeName: 'node-0',
      containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'MODE', value: 'fast' }], resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } } }],
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface CannonOptions {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

async function cannon(url: string, options: CannonOptions = {}, duration = seconds): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({
    url,
    connections: 16,
    duration,
    method: options.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...options.headers },
    ...(options.body ? { body: options.body } : {}),
  });
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/**
 * `drydock up`'s API server without its components (nothing schedules or runs the pods), with the
 * request pipeline it serves (decoding checks, field validation, admission, metrics), over plain HTTP.
 */
async function startDrydockHttp(): Promise<{ url: string; cluster: Cluster; http: Server }> {
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, components: false, token });
  const client = cluster.client;
  // The service account the ServiceAccount admission plugin looks up (its controller is a component).
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  for (let i = 0; i < listPods; i++) await client.create(refs.pods, podManifest(`pod-${i}`));
  const http = createServer({ keepAlive: true }, cluster.httpHandler());
  return { url: await listen(http), cluster, http };
}

interface Rates {
  drydock: { rps: number; p99: number };
  bare: { rps: number; p99: number };
  /** Median of the pairs' drydock / bare. */
  ratio: number;
}

/**
 * One operation against both servers: a second of each unmeasured (the server's code compiled, as
 * in a server that has run for a while), then `pairs` alternating runs; medians of each side and of
 * the pairs' ratios.
 */
async function rates(drydockUrl: string, bareUrl: string, options: CannonOptions = {}): Promise<Rates> {
  if (warmupSeconds > 0) {
    await cannon(bareUrl, options, warmupSeconds);
    await cannon(drydockUrl, options, warmupSeconds);
  }
  const runs: { bare: { rps: number; p99: number }; drydock: { rps: number; p99: number } }[] = [];
  for (let i = 0; i < pairs; i++) {
    const bare = await cannon(bareUrl, options, seconds / pairs);
    runs.push({ bare, drydock: await cannon(drydockUrl, options, seconds / pairs) });
  }
  const side = (which: 'bare' | 'drydock'): { rps: number; p99: number } => ({ rps: median(runs.map((r) => r[which].rps)), p99: median(runs.map((r) => r[which].p99)) });
  return { drydock: side('drydock'), bare: side('bare'), ratio: median(runs.map((r) => r.drydock.rps / r.bare.rps)) };
}

async function requestRates(): Promise<Row[]> {
  const dd = await startDrydockHttp();
  const stored = await fetch(`${dd.url}/api/v1/namespaces/default/pods/pod-0`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.text());
  const bare = createServer({ keepAlive: true }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(stored) });
    res.end(stored);
  });
  const bareUrl = await listen(bare);
  const rows: Row[] = [];
  const add = (what: string, goal: string, r: Rates): void => {
    rows.push({ operation: what, 'drydock req/s': Math.round(r.drydock.rps), 'bare node:http req/s': Math.round(r.bare.rps), ratio: r.ratio, 'drydock p99 ms': r.drydock.p99, goal });
  };
  add('GET pod', '>= 0.5x bare', await rates(`${dd.url}/api/v1/namespaces/default/pods/pod-0`, bareUrl));
  add(`LIST ${count(listPods)} pods`, '(reported)', await rates(`${dd.url}/api/v1/namespaces/default/pods`, bareUrl));
  const body = JSON.stringify({ ...podManifest(''), metadata: { generateName: 'created-', namespace: 'default', labels: { app: 'bench' } } });
  add('CREATE pod', '>= 0.25x bare', await rates(`${dd.url}/api/v1/namespaces/default/pods`, bareUrl, { method: 'POST', body }));
  await new Promise<void>((r) => bare.close(() => r()));
  dd.http.closeAllConnections();
  await new Promise<void>((r) => dd.http.close(() => r()));
  await dd.cluster.stop();
  return rows;
}

async function watchFanOut(): Promise<Row[]> {
  const dd = await startDrydockHttp();
  const client = dd.cluster.client;
  await client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ticker', namespace: 'default' }, data: { n: '0' } });
  const { watchers, events } = fanOut;
  const start = await client.get(refs.configMaps, 'default', 'ticker');
  const received: number[][] = Array.from({ length: watchers }, () => []);
  const controllers: AbortController[] = [];
  let done = 0;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((r) => (finish = r));
  await Promise.all(received.map(async (seen, i) => {
    const controller = new AbortController();
    controllers[i] = controller;
    const res = await fetch(`${dd.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${start.metadata.resourceVersion ?? ''}`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = res.body?.getReader();
    let buffer = '';
    void (async () => {
      for (;;) {
        const chunk = await reader?.read().catch(() => undefined);
        if (!chunk || chunk.done) return;
        buffer += Buffer.from(chunk.value).toString();
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const event = JSON.parse(buffer.slice(0, nl)) as { object: { data: { n: string } } };
          buffer = buffer.slice(nl + 1);
          seen.push(Number(event.object.data.n));
          if (seen.length === events && ++done === watchers) finish();
          nl = buffer.indexOf('\n');
        }
      }
    })();
  }));
  const t0 = performance.now();
  for (let n = 1; n <= events; n++) await client.update(refs.configMaps, { ...start, metadata: { ...start.metadata, resourceVersion: '' }, data: { n: String(n) } });
  const written = performance.now() - t0;
  await allDone;
  const delivered = performance.now() - t0;
  const inOrder = received.every((seen) => seen.length === events && seen.every((v, i) => v === i + 1));
  for (const c of controllers) c.abort();
  dd.http.closeAllConnections();
  await new Promise<void>((r) => dd.http.close(() => r()));
  await dd.cluster.stop();
  return [{ watchers, events, 'write s': written / 1000, 'all delivered s': delivered / 1000, 'events/s delivered': Math.round((events * watchers) / (delivered / 1000)), 'every watcher got every event in order': inOrder ? 'yes' : 'NO' }];
}

async function memoryPerPod(): Promise<Row[]> {
  const pods = memoryPods;
  const server = new ApiServer({ store: new MemoryStore(), clock: new RealClock(), random: new CryptoRandom(), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  // Through the pipeline without the in-process client, which would keep a decoded copy.
  for (let i = 0; i < pods; i++) await server.create(refs.pods, 'default', podManifest(`mem-${i}`), {});
  // Each write leaves its decoded object weakly held for readers (stored-object.ts); V8 keeps a
  // WeakRef's target until the job that made it ends, so the figure is taken after one turn of the loop.
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
  const after = process.memoryUsage().heapUsed;
  const sample = await client.get(refs.pods, 'default', 'mem-0');
  const size = JSON.stringify(sample).length;
  return [{ pods, 'stored JSON bytes/pod': size, 'heap bytes/pod': Math.round((after - before) / pods), goal: '<= 4 KB per 2 KB pod', 'gc exposed': gc ? 'yes' : 'no (run with --expose-gc)' }];
}

/** Spawn to ready line, interleaved with a bare node:http server's spawn to listening, per environment. */
async function startupTime(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { name, env } of startEnvironments()) {
    const up: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < starts; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'drydock-bench-'));
      const started = await spawnDrydockUntil(['up', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig')], /ready/, env);
      up.push(started.ms);
      await stopChild(started.child);
      rmSync(dir, { recursive: true, force: true });
      const floor = await spawnNodeUntil(bareServerArgs, /port \d+/, env);
      bare.push(floor.ms);
      await stopChild(floor.child);
    }
    rows.push({ environment: name, runs: up.length, 'median ms (spawn to ready line)': Math.round(median(up)), 'min ms': Math.round(Math.min(...up)), 'max ms': Math.round(Math.max(...up)), 'floor ms (bare node:http listening)': Math.round(median(bare)), goal: '<= 300 ms' });
  }
  return rows;
}

export async function runApiBenchmarks(): Promise<void> {
  printTable(`API requests over HTTP (16 connections; after ${warmupSeconds} s unmeasured, ${seconds} s a side in ${pairs} alternating runs; medians, ratio of the pairs)`, await requestRates());
  printTable('Watch fan-out over HTTP', await watchFanOut());
  printTable('Memory per stored pod (in process)', await memoryPerPod());
  printTable('drydock up, default cluster, process start to ready', await startupTime());
}
