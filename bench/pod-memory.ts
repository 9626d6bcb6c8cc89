// Issue 4: heap held per running pod, and the part of it beyond what the API server stores for the
// pod (bench/stored-footprint.ts), at one or more densities (pods per node), in process.
// The store keeps its last 10,000 events for watches to resume from, a fixed cost whatever the
// number of pods; ConfigMap writes fill that window before the baseline and again after the load,
// so neither reading counts it. Pods are created bound (the scheduler is P5's subject); each runs
// its full kubelet lifecycle.
import { refs } from '../src/api/index.ts';
import type { Pod } from '../src/api/index.ts';
import type { Client } from '../src/client/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import { env, parseShape } from './env.ts';
import { bounded, gc, heapMb, isRunning, pausePod, watchUntil } from './harness.ts';
import { perPodKb, storedFootprint } from './stored-footprint.ts';
import { printTable } from './table.ts';
import type { Row } from './table.ts';

// The store's window. BENCH_POD_MEMORY_HISTORY writes fewer, for runs whose figures do not matter
// (bench/run.test.ts): the rest of the window then counts in the per-pod figure.
const historyWindow = env('BENCH_POD_MEMORY_HISTORY', 10_000);
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, env('BENCH_POD_MEMORY_SETTLE_SECONDS', 3) * 1000));

async function fillHistory(client: Client): Promise<void> {
  for (let k = 0; k < historyWindow; k++) {
    await client.patch(refs.configMaps, 'default', 'pod-memory-tick', 'merge', { data: { n: String(k) } });
    // In-process writes resolve in microtasks: yield, or no timer (lease renewals, the node
    // monitor) runs for the whole loop and nodes go NotReady under it.
    if (k % 100 === 99) await new Promise((r) => setImmediate(r));
  }
}

async function podMemory(nodes: number, pods: number): Promise<Row> {
  const config = clusterConfigFrom({ nodePools: [{ name: 'n', count: nodes, capacity: { cpu: '64', memory: '512Gi', pods: '110' } }] });
  const cluster = await Cluster.start({ config, clock: new RealClock(), random: new SeededRandom(7), components: true });
  try {
    const client = cluster.client;
    // Readings are taken once start-up and the pods' last writes (events, status) have settled.
    await settle();
    await client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pod-memory-tick', namespace: 'default' }, data: { n: '' } } as never);
    await fillHistory(client);
    gc();
    const before = heapMb();
    const running = watchUntil<Pod>(client, refs.pods, { namespace: 'default', want: pods, done: isRunning, timeoutMs: 30 * 60_000 });
    await running.ready;
    const spec = pausePod('x').spec;
    await bounded(pods, 128, (i) => client.create(refs.pods, { ...pausePod(`mem-${i}`), spec: { ...spec, nodeName: `n-${i % nodes}` } }));
    await running.finished;
    await settle();
    await fillHistory(client);
    gc();
    const heldKb = ((heapMb() - before) * 1024) / pods;
    const stored = perPodKb(await storedFootprint(cluster.store, 'default'));
    return {
      'nodes / pods': `${nodes} / ${pods} (${Math.round(pods / nodes)} per node)`,
      'held KB/pod': heldKb,
      'stored KB/pod (texts + records + decoded pod)': stored.parts,
      'beyond stored KB/pod': heldKb - stored.total,
      goal: '<= 10 KB beyond the stored object',
    };
  } finally {
    await cluster.stop();
  }
}

/** BENCH_POD_MEMORY: `nodes/pods` pairs, comma-separated (default 100/5000,1000/10000). */
export async function runPodMemoryBenchmark(): Promise<void> {
  const shapes = (process.env.BENCH_POD_MEMORY || '100/5000,1000/10000').split(',').map((text) => parseShape('BENCH_POD_MEMORY', text));
  const rows: Row[] = [];
  for (const { nodes, pods } of shapes) rows.push(await podMemory(nodes, pods));
  printTable('issue 4: heap per running pod (after GC), in process, history window excluded', rows);
}
