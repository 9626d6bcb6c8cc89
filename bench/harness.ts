// Shared pieces of the issue-9 suite: a cluster served over HTTPS on loopback with a public-API
// client, bounded concurrency, watch-driven waits, memory readings and the machine line.
// Every benchmark talks to the cluster the way a user does (HttpClient over HTTPS) unless its
// row says "in process".
import { cpus, loadavg, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';
import { refs } from '../src/api/index.ts';
import type { Pod } from '../src/api/index.ts';
import { HttpClient } from '../src/client/index.ts';
import type { Client, ClientWatch } from '../src/client/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import type { Clock, KubeObject } from '../src/core/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import type { ResourceRef } from '../src/api/index.ts';
import { env } from './env.ts';

export interface Served {
  cluster: Cluster;
  /** The public API over HTTPS, as kubectl or client-go would reach it. */
  api: Client;
}

export interface PoolShape {
  count: number;
  capacity?: Record<string, string>;
}

/** A cluster with one pool `n` of `count` nodes, serving HTTPS on a loopback port. */
export async function serveCluster(options: { nodes: number | PoolShape; clock?: Clock; components?: boolean } = { nodes: 0 }): Promise<Served> {
  const pool = typeof options.nodes === 'number' ? { count: options.nodes } : options.nodes;
  const config = clusterConfigFrom({ nodePools: [{ name: 'n', count: pool.count, capacity: pool.capacity ?? { cpu: '32', memory: '256Gi', pods: '110' } }] });
  const cluster = await Cluster.start({ config, clock: options.clock ?? new RealClock(), random: new SeededRandom(7), port: 0, components: options.components ?? true });
  return { cluster, api: new HttpClient({ server: cluster.url, token: cluster.token, ca: cluster.certificateAuthority }) };
}

/**
 * Runs fn(i) for i in [0, count) with at most `limit` in flight. In-process calls resolve in
 * microtasks, so after every 64 calls started the workers start no more until the next event-loop
 * turn: otherwise no timer of the cluster (lease renewals, the node monitor) runs until the whole
 * batch is done, and a long batch turns nodes NotReady under it, as no real client could. (One
 * worker pausing alone was not enough: the others kept the microtask queue full, and a 5,000-pod
 * load ran 10 s with no timer firing.)
 */
export async function bounded(count: number, limit: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  let pause: Promise<void> | undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      while (pause) await pause;
      if (next >= count) return;
      const i = next++;
      if (i % 64 === 63) pause ??= new Promise((resolve) => setImmediate(() => ((pause = undefined), resolve())));
      await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/**
 * Watches `ref` and resolves once `want` distinct objects satisfy `done`, calling `seen(name, t)`
 * the first time each does. The watch starts before the caller's work, from an empty list.
 */
export function watchUntil<T extends KubeObject>(client: Client, ref: ResourceRef, options: { namespace?: string; labelSelector?: string; want: number; done: (o: T) => boolean; seen?: (name: string, at: number) => void; timeoutMs?: number }): { ready: Promise<void>; finished: Promise<number> } {
  const hit = new Set<string>();
  let resolveFinished!: (t: number) => void;
  let rejectFinished!: (e: unknown) => void;
  const finished = new Promise<number>((res, rej) => ((resolveFinished = res), (rejectFinished = rej)));
  const ready = (async () => {
    const list = await client.list<T>(ref, { ...(options.namespace ? { namespace: options.namespace } : {}), ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}) });
    for (const o of list.items) if (options.done(o)) hit.add(o.metadata.name ?? '');
    const timer = setTimeout(() => rejectFinished(new Error(`timed out: ${hit.size}/${options.want} done`)), options.timeoutMs ?? 180_000);
    const scope = { ...(options.namespace ? { namespace: options.namespace } : {}), ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}) };
    let revision = list.metadata.resourceVersion ?? '';
    let watch: ClientWatch | undefined;
    let done = false;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      watch?.stop();
      resolveFinished(performance.now());
    };
    // The server ends a watch after its timeout (30-60 minutes of cluster time, minutes of a scaled
    // clock's real time); an informer watches again from the last revision it saw, and so does this.
    const open = (): void => {
      watch = client.watch<T>(ref, { ...scope, resourceVersion: revision }, (event) => {
        if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
        const object = event.object as T;
        revision = object.metadata.resourceVersion ?? revision;
        const name = object.metadata.name ?? '';
        if (hit.has(name) || !options.done(object)) return;
        hit.add(name);
        options.seen?.(name, performance.now());
        if (hit.size >= options.want) finish();
      }, (error) => {
        if (done) return;
        if (error) rejectFinished(error);
        else open();
      });
    };
    open();
    if (hit.size >= options.want) finish();
  })();
  return { ready, finished };
}

/**
 * Counts to `want`, when `finished` resolves. It rejects, saying how far the count got, when a whole
 * BENCH_STALL_SECONDS (60) pass without a step: a pod that never binds then fails the run instead of
 * hanging it, or of ending the process with an unsettled top-level await (exit 13) once no timer is left.
 */
export function countTo(want: number, what: string): { step(): void; finished: Promise<void> } {
  const stallMs = env('BENCH_STALL_SECONDS', 60) * 1000;
  let count = 0;
  let seen = 0;
  let settle!: (error?: Error) => void;
  const finished = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  const check = setInterval(() => {
    if (count === seen) stop(new Error(`${count} of ${want} ${what}, none in the last ${stallMs / 1000} s`));
    seen = count;
  }, stallMs);
  const stop = (error?: Error): void => {
    clearInterval(check);
    settle(error);
  };
  if (want <= 0) stop();
  return { step: () => void (++count === want && stop()), finished };
}

export const isRunning = (p: Pod): boolean => p.status?.phase === 'Running';

export function pausePod(name: string, extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'bench' }, ...extra },
    spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
  };
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
}

export const rssMb = (): number => process.memoryUsage().rss / 2 ** 20;
export const heapMb = (): number => process.memoryUsage().heapUsed / 2 ** 20;

/** VmRSS of another process, in MB (Linux). */
export function processRssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : NaN;
}

/**
 * CPU time of this process's main thread (the server's), ms, in 10 ms ticks (Linux's /proc; NaN
 * elsewhere). Unlike its busy wall time, it leaves out the time the thread waited for a CPU, which
 * on a shared machine moves run to run more than any change measured.
 */
export function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

export function machine(): string {
  const [one, five] = loadavg();
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${(one ?? 0).toFixed(2)}/${(five ?? 0).toFixed(2)} (1/5 min), node ${process.version}`;
}

/** Number of runs for medians (BENCH_RUNS, default 3). */
export const runs = env('BENCH_RUNS', 3);

export const ms = (t: number): string => `${Math.round(t)} ms`;

export { refs };
