// Scheduler benchmark: throughput (pods/s) and per-pod latency (create -> bound, p50/p99) with
// the real scheduler driven through the in-process client, beside a floor loop that only checks
// resources on every node, and upstream scheduler_perf's CI thresholds for similar shapes.
// Run: npx tsx bench/scheduler.ts [a|b|c ...] or npm run bench -- scheduler   (not a test; prints a table)
import { performance } from 'node:perf_hooks';
import type { Node, Pod } from '../src/api/index.ts';
import { refs } from '../src/api/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import { Scheduler } from '../src/scheduler/index.ts';
import { count, envShape } from './env.ts';
import { countTo } from './harness.ts';

interface Shape {
  id: string;
  title: string;
  nodes: number;
  pods: number;
  /** The most pods one node takes (its cpu, GPUs, or the anti-affinity groups): more never all bind. */
  perNode: number;
  node: (i: number) => Record<string, string>;
  pod: (i: number) => Pod;
  /** Upstream reference (scheduler_perf performance-config.yaml thresholds: CI minimums). */
  upstream: string;
  floorRequest: { cpu: number; memory: number; gpu: number };
}

const plainPod = (i: number): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: `p-${i}`, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
});

// BENCH_P5_A, _B, _C: each shape's nodes/pods.
const a = envShape('BENCH_P5_A', { nodes: 5000, pods: 10_000 });
const b = envShape('BENCH_P5_B', { nodes: 1000, pods: 5000 });
const c = envShape('BENCH_P5_C', { nodes: 500, pods: 4000 });

const shapes: Shape[] = [
  {
    id: 'a', title: `${count(a.nodes)} nodes, ${count(a.pods)} plain pods`, ...a, perNode: 40,
    node: () => ({ cpu: '4', memory: '32Gi', pods: '110' }),
    pod: plainPod,
    upstream: 'SchedulingBasic/5000Nodes_10000Pods: threshold 680 pods/s',
    floorRequest: { cpu: 100, memory: 500 * 2 ** 20, gpu: 0 },
  },
  {
    id: 'b', title: `${count(b.nodes)} nodes, ${count(b.pods)} pods with required anti-affinity`, ...b, perNode: 5,
    node: () => ({ cpu: '4', memory: '32Gi', pods: '110' }),
    pod: (i) => {
      const p = plainPod(i);
      const group = `g${i % 5}`;
      p.metadata.labels = { group };
      p.spec.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { group } }, topologyKey: 'kubernetes.io/hostname' }] } };
      return p;
    },
    upstream: 'SchedulingPodAntiAffinity/5000Nodes_2000Pods: threshold 60 pods/s',
    floorRequest: { cpu: 100, memory: 500 * 2 ** 20, gpu: 0 },
  },
  {
    id: 'c', title: `${count(c.nodes)} nodes x 8 GPUs, ${count(c.pods)} pods asking nvidia.com/gpu: 1`, ...c, perNode: 8,
    node: () => ({ cpu: '96', memory: '1Ti', pods: '110', 'nvidia.com/gpu': '8' }),
    pod: (i) => {
      const p = plainPod(i);
      const c = p.spec.containers[0];
      if (c) c.resources = { requests: { cpu: '1', memory: '4Gi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } };
      return p;
    },
    upstream: 'SchedulingWithExtendedResource/5000pods_5000nodes: threshold 180 pods/s',
    floorRequest: { cpu: 1000, memory: 4 * 2 ** 30, gpu: 1 },
  },
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The floor: for each pod, check cpu/memory/gpu/pods on every node, take the first that fits. */
function floorLoop(shape: Shape): number {
  const n = shape.nodes;
  const cpu = new Float64Array(n).fill(shape.id === 'c' ? 96_000 : 4000);
  const mem = new Float64Array(n).fill(shape.id === 'c' ? 2 ** 40 : 32 * 2 ** 30);
  const gpu = new Float64Array(n).fill(shape.id === 'c' ? 8 : 0);
  const pods = new Float64Array(n).fill(110);
  const r = shape.floorRequest;
  const t0 = performance.now();
  let start = 0;
  for (let p = 0; p < shape.pods; p++) {
    let chosen = -1;
    let feasible = 0;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      if ((cpu[i] ?? 0) >= r.cpu && (mem[i] ?? 0) >= r.memory && (gpu[i] ?? 0) >= r.gpu && (pods[i] ?? 0) >= 1) {
        feasible++;
        if (chosen < 0) chosen = i;
      }
    }
    if (chosen >= 0) {
      cpu[chosen] = (cpu[chosen] ?? 0) - r.cpu;
      mem[chosen] = (mem[chosen] ?? 0) - r.memory;
      gpu[chosen] = (gpu[chosen] ?? 0) - r.gpu;
      pods[chosen] = (pods[chosen] ?? 0) - 1;
    }
    start = (start + 1) % n;
    if (feasible < 0) throw new Error('unreachable');
  }
  return shape.pods / ((performance.now() - t0) / 1000);
}

interface Result {
  shape: Shape;
  podsPerSec: number;
  p50: number;
  p99: number;
  floor: number;
  rssMb: number;
}

async function run(shape: Shape): Promise<Result> {
  if (shape.pods > shape.nodes * shape.perNode) throw new Error(`scheduler shape ${shape.id}: ${count(shape.pods)} pods do not fit on ${count(shape.nodes)} nodes (${shape.perNode} a node at most), and the run waits for every pod to bind`);
  const clock = new RealClock();
  // As upstream's scheduler_perf: no node lifecycle controller runs to lift TaintNodesByCondition's
  // not-ready taint from these nodes, so that plugin is disabled, as scheduler_perf's API server has it.
  const cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(1), components: false, disableAdmissionPlugins: ['TaintNodesByCondition'] });
  const client = cluster.client;
  for (let i = 0; i < shape.nodes; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, shape.nodes - i) }, (_, j) => {
      const name = `node-${i + j}`;
      const alloc = shape.node(i + j);
      const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {}, status: { capacity: alloc, allocatable: alloc, conditions: [{ type: 'Ready', status: 'True' }] } };
      return client.create(refs.nodes, node);
    }));
  }
  const created = new Map<string, number>();
  const latencies: number[] = [];
  const bound = countTo(shape.pods, 'pods bound');
  const scheduler = new Scheduler({
    client, clock, random: new SeededRandom(2),
    onBound: (pi) => {
      const t = created.get(pi.key);
      if (t !== undefined) latencies.push(performance.now() - t);
      bound.step();
    },
  });
  scheduler.start();
  await scheduler.waitForSync();
  const t0 = performance.now();
  for (let i = 0; i < shape.pods; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, shape.pods - i) }, async (_, j) => {
      const pod = shape.pod(i + j);
      created.set(`default/${pod.metadata.name ?? ''}`, performance.now());
      await client.create(refs.pods, pod, { namespace: 'default' });
    }));
  }
  await bound.finished;
  const seconds = (performance.now() - t0) / 1000;
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  await scheduler.stop();
  await cluster.stop();
  latencies.sort((a, b) => a - b);
  return { shape, podsPerSec: shape.pods / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), floor: floorLoop(shape), rssMb };
}

export async function runSchedulerBenchmarks(wanted: readonly string[] = []): Promise<void> {
  const results: Result[] = [];
  for (const shape of shapes) {
    if (wanted.length > 0 && !wanted.includes(shape.id)) continue;
    results.push(await run(shape));
  }
  const rows = results.map((r) => [
    `(${r.shape.id}) ${r.shape.title}`,
    r.podsPerSec.toFixed(0),
    `${r.p50.toFixed(0)} / ${r.p99.toFixed(0)}`,
    r.floor.toFixed(0),
    r.rssMb.toFixed(0),
    r.shape.upstream,
  ]);
  const header = ['scenario', 'pods/s', 'latency ms p50/p99 (create->bound)', 'floor pods/s', 'rss MB', 'upstream scheduler_perf'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runSchedulerBenchmarks(process.argv.slice(2));
