// P4, P8, P12 (issue 9), issue 4's pod start-up latency and issue 8's Deployment throughput: pods and Deployments driven through the
// public API (HTTPS on loopback) to Running / Available with the scheduler, kubelets and controllers,
// beside a floor that only makes the API writes (and, for latency, waits for the create's watch event).
import { mainThreadCpuMs, runs, serveCluster } from './harness.ts';
import { bulkCreate } from './bulk-create.ts';
import type { BulkCreateRun } from './bulk-create.ts';
import { accessOf, ClientWorker, runClientJob } from './client-worker.ts';
import type { Until } from './pod-latency.ts';
import { median, percentile, printTable } from './table.ts';
import type { Row } from './table.ts';
import { env } from './env.ts';

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/** cpuMs is the whole process's (every thread); busyMs the server thread's event loop, not idle; serverCpuMs that thread's CPU time. */
type Timed = { wallMs: number; cpuMs: number; busyMs: number; serverCpuMs: number };

/** `cpu <process> s, server thread busy <s> s, cpu <s> s`, medians. */
const cpuText = (t: Timed[]): string => {
  const serverCpu = median(t.map((d) => d.serverCpuMs));
  return `cpu ${(median(t.map((d) => d.cpuMs)) / 1000).toFixed(2)} s, server thread busy ${(median(t.map((d) => d.busyMs)) / 1000).toFixed(2)} s${Number.isNaN(serverCpu) ? '' : `, cpu ${(serverCpu / 1000).toFixed(2)} s`}`;
};

/** Which thread the bulk loads' client runs on: `BENCH_CLIENT=thread` keeps it on the server's. */
const clientOnWorker = process.env.BENCH_CLIENT !== 'thread';

/**
 * Times a bulk load (bulk-create.ts) against a cluster served with `cluster`; cpu is the whole
 * process's (the server's threads and the client's).
 */
async function timedCreates(cluster: Parameters<typeof serveCluster>[0], run: BulkCreateRun): Promise<Timed> {
  const served = await serveCluster(cluster);
  try {
    const cpu0 = process.cpuUsage();
    const loop0 = performance.eventLoopUtilization();
    const serverCpu0 = mainThreadCpuMs();
    const wallMs = clientOnWorker ? await runClientJob(accessOf(served.cluster), 'bulk-create', { ...run, connections: run.inFlight }) : await bulkCreate(served.api, run);
    return { wallMs, cpuMs: cpuMs(cpu0), busyMs: performance.eventLoopUtilization(loop0).active, serverCpuMs: mainThreadCpuMs() - serverCpu0 };
  } finally {
    await served.cluster.stop();
  }
}

const bulk = (what: BulkCreateRun['what'], count: number, inFlight: number, rest: Partial<BulkCreateRun> = {}): BulkCreateRun =>
  ({ what, count, inFlight, replicas: 1, untilReady: true, implied: false, timeoutMs: 180_000, ...rest });

/** P4: `count` unbound pods created over HTTPS, 64 in flight; one HTTPS watch sees them Running. */
const podsRunning = (count: number, nodes: number): Promise<Timed> => timedCreates({ nodes }, bulk('pods', count, 64));

const podsFloor = (count: number): Promise<Timed> => timedCreates({ nodes: 0, components: false }, bulk('pods', count, 64, { untilReady: false }));

async function p4(): Promise<Row[]> {
  const count = env('BENCH_P4_PODS', 10_000);
  const nodes = env('BENCH_P4_NODES', 200);
  const dd: Timed[] = [];
  const fl: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    dd.push(await podsRunning(count, nodes));
    fl.push(await podsFloor(count));
  }
  const w = median(dd.map((d) => d.wallMs));
  const f = median(fl.map((d) => d.wallMs));
  return [{ '#': 'P4', what: `${count} pods Running on ${nodes} nodes (scheduled, full kubelet)`, drydock: `${(w / 1000).toFixed(2)} s (${cpuText(dd)})`, floor: `${(f / 1000).toFixed(2)} s (pod creates only, ${cpuText(fl)})`, ratio: w / f, goal: '<= 15 s', anchor: 'KWOK: 5,000 in <= 240 s' }];
}

async function p8(): Promise<Row[]> {
  const nodes = env('BENCH_P8_NODES', 1000);
  const seconds = env('BENCH_P8_SECONDS', 5);
  const rates = (process.env.BENCH_P8_RATES ?? '20,100,200,1000').split(',').map(Number);
  const warmupSeconds = env('BENCH_P8_WARMUP_SECONDS', 2);
  const { cluster } = await serveCluster({ nodes });
  // Each node's start-up Event is written just after the cluster is ready (~0.5 s of work at 1,000
  // nodes); a cluster being measured has long been up.
  await new Promise((r) => setTimeout(r, env('BENCH_P8_SETTLE_SECONDS', 3) * 1000));
  const floor = await serveCluster({ nodes: 0, components: false });
  // One client per cluster for every run, as the client of a cluster under measure has been running:
  // a client started for each run compiled its code and opened its TLS connections inside the 5 s
  // measured, and at 200 creates/s one stall of the server (a full GC) had it open dozens more at
  // ~1-2 ms of the server's thread each, which queued the pods behind them (p99 200-450 ms in such runs).
  const clients = new Map([cluster, floor.cluster].map((c) => [c, new ClientWorker(accessOf(c))]));
  // The client keeps a pool of 64 connections, as an HTTP/1.1 client does.
  const latency = (c: typeof cluster, prefix: string, rate: number, forSeconds: number, until: Until): Promise<number[]> =>
    (clients.get(c) as ClientWorker).run('pod-latency', { prefix, rate, seconds: forSeconds, until, connections: 64 });
  const rows: Row[] = [];
  try {
    // Warm-up, not measured: a fresh cluster's first pods pay for the scheduler's first snapshot of
    // every node and for compiling the pod path (the very first pod took ~40 ms more, the p99 of a
    // 100-pod run).
    await latency(cluster, 'warmup', 20, 1, 'Running');
    await latency(floor.cluster, 'warmup', 20, 1, 'ADDED');
    for (const rate of rates) {
      const dd: number[][] = [];
      const fl: number[][] = [];
      try {
        // Each rate is first run unmeasured (BENCH_P8_WARMUP_SECONDS, 2 s), as any load test warms up at the load it measures:
        // the client's pool then holds the connections that rate needs.
        if (warmupSeconds > 0) {
          await latency(cluster, `w${rate}`, rate, warmupSeconds, 'Running');
          await latency(floor.cluster, `w${rate}`, rate, warmupSeconds, 'ADDED');
        }
        for (let r = 0; r < runs; r++) {
          dd.push(await latency(cluster, `r${rate}x${r}`, rate, seconds, 'Running'));
          fl.push(await latency(floor.cluster, `r${rate}x${r}`, rate, seconds, 'ADDED'));
        }
      } catch (error) {
        // HttpClient opens a connection per request in flight; at high rates loopback TLS can reset some.
        rows.push({ '#': 'P8', what: `${rate} creates/s`, drydock: `failed: ${error instanceof Error ? error.message : String(error)}`, floor: '', ratio: '', goal: '', anchor: '' });
        continue;
      }
      const p99 = median(dd.map((l) => percentile(l, 99)));
      const f99 = median(fl.map((l) => percentile(l, 99)));
      rows.push({ '#': rate === 20 || rate === 200 ? 'P8' : 'issue 4', what: `create -> Running seen by a watcher, ${rate} creates/s for ${seconds} s, ${nodes} nodes`, drydock: `p50 ${median(dd.map((l) => percentile(l, 50))).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`, floor: `create -> ADDED seen: p50 ${median(fl.map((l) => percentile(l, 50))).toFixed(1)} ms, p99 ${f99.toFixed(1)} ms`, ratio: p99 / Math.max(f99, 0.1), goal: rate <= 200 ? '<= 50 ms p99' : '(reported)', anchor: 'SLO 5 s' });
    }
  } finally {
    for (const client of clients.values()) await client.stop();
    await cluster.stop();
    await floor.cluster.stop();
  }
  return rows;
}

interface DeploymentShape {
  count: number;
  replicas: number;
  nodes: number;
}

/** `count` Deployments created over HTTPS, 32 in flight, until an HTTPS watch sees each Available. */
const deploymentsAvailable = (shape: DeploymentShape): Promise<Timed> =>
  timedCreates({ nodes: shape.nodes }, bulk('deployments', shape.count, 32, { replicas: shape.replicas, timeoutMs: 900_000 }));

/** Floor: the creates each Deployment implies (Deployment, ReplicaSet, its pods), nothing else. */
const deploymentsFloor = (shape: DeploymentShape): Promise<Timed> =>
  timedCreates({ nodes: 0, components: false }, bulk('deployments', shape.count, 32, { replicas: shape.replicas, untilReady: false, implied: true }));

async function deploymentRow(label: string, shape: DeploymentShape, goal: string): Promise<Row> {
  const dd: Timed[] = [];
  const fl: Timed[] = [];
  for (let r = 0; r < runs; r++) {
    dd.push(await deploymentsAvailable(shape));
    fl.push(await deploymentsFloor(shape));
  }
  const w = median(dd.map((d) => d.wallMs));
  const f = median(fl.map((d) => d.wallMs));
  const what = `${shape.count} Deployments x ${shape.replicas} replica${shape.replicas === 1 ? '' : 's'} Available (${shape.nodes} nodes)`;
  return { '#': label, what, drydock: `${(w / 1000).toFixed(2)} s, ${((shape.count * 1000) / w).toFixed(1)} Deployments/s (${cpuText(dd)})`, floor: `${(f / 1000).toFixed(2)} s (Deployment+RS+pod creates only)`, ratio: w / f, goal, anchor: 'KWOK ~5 Deployments/s' };
}

const p12 = async (): Promise<Row[]> => [await deploymentRow('P12', { count: env('BENCH_P12_DEPLOYMENTS', 600), replicas: 1, nodes: 20 }, '<= 2 s')];

// Issue 8's shape: 1,000 Deployments of 10 replicas on 1,000 nodes.
const deploymentThroughput = async (): Promise<Row[]> => [
  await deploymentRow('issue 8', { count: env('BENCH_I8_DEPLOYMENTS', 1000), replicas: env('BENCH_I8_REPLICAS', 10), nodes: env('BENCH_I8_NODES', 1000) }, '>= 200 Deployments/s'),
];

export async function runPodBenchmarks(): Promise<void> {
  // BENCH_PODS=p4,p12 runs some of them.
  const only = new Set((process.env.BENCH_PODS ?? 'p4,p8,p12,deployments').split(','));
  if (only.has('p4')) printTable(`P4: pods Running through the API, median of ${runs} runs`, await p4());
  if (only.has('p8')) printTable(`P8: pod start-up latency over HTTPS, median of ${runs} runs per rate`, await p8());
  if (only.has('p12')) printTable(`P12: Deployments Available, median of ${runs} runs`, await p12());
  if (only.has('deployments')) printTable(`Issue 8: Deployment readiness throughput, median of ${runs} runs`, await deploymentThroughput());
}
