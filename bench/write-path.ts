// Write-path microbenchmark: the cost of one in-process API write of each kind a pod causes
// (create, strategic-merge patch, status update, get), with no components running and one watch
// keeping the latest objects as an informer does. It is the floor
// that every pod-path figure (P4, P8, P12, resize) is built from. Run: node dist/bench/write-path.js
import { performance } from 'node:perf_hooks';
import type { Pod } from '../src/api/index.ts';
import { refs } from '../src/api/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import { allocatedBytes } from './allocation.ts';
import { env } from './env.ts';
import { printTable } from './table.ts';

const count = env('BENCH_WRITES', 5000);

const pod = (i: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `w-${i}`, namespace: 'default', labels: { app: 'w' } },
  spec: { nodeName: 'n', containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }] },
});

async function inBatches(each: (i: number) => Promise<unknown>, from = 0): Promise<void> {
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => each(from + i + j)));
}

/**
 * `count` operations timed, then `count` more (numbered from `count`) under the allocation sampler, apart
 * so that the sampler's own cost stays out of the times.
 */
async function timed(label: string, each: (i: number) => Promise<unknown>, allocationRun: (i: number) => Promise<unknown> = each): Promise<Record<string, string | number>> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await inBatches(each);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const bytes = await allocatedBytes(() => inBatches(allocationRun, count));
  return { write: label, count, 'µs/op wall': (wall * 1000) / count, 'µs/op cpu': (used.user + used.system) / count, 'ops/s': (count * 1000) / wall, 'KB allocated/op': (bytes / 1024 / count).toFixed(1) };
}

export async function runWritePathBenchmark(): Promise<void> {
  const config = clusterConfigFrom({ nodePools: [] });
  const cluster = await Cluster.start({ config, clock: new RealClock(), random: new SeededRandom(7), components: false });
  try {
    const c = cluster.client;
    // A cluster always has pod informers holding the latest objects; this watch stands in for them.
    const cache = new Map<string, Pod>();
    const watch = c.watch<Pod>(refs.pods, { namespace: 'default' }, (e) => {
      if (e.type === 'ADDED' || e.type === 'MODIFIED') cache.set(e.object.metadata.name ?? '', e.object as Pod);
    });
    const rows = [];
    rows.push(await timed('create pod', (i) => c.create(refs.pods, pod(i), { namespace: 'default' })));
    // The allocation passes (numbered from count) read and change the pods the timed creates made, again.
    rows.push(await timed('get pod', (i) => c.get(refs.pods, 'default', `w-${i % count}`)));
    const patch = (name: string, touched: string): Promise<unknown> => c.patch(refs.pods, 'default', name, 'strategic', { metadata: { labels: { touched } } });
    rows.push(await timed('strategic patch', (i) => patch(`w-${i}`, 'yes'), (i) => patch(`w-${i - count}`, 'again')));
    const setStatus = async (name: string, podIP: string): Promise<unknown> => {
      const p = await c.get<Pod>(refs.pods, 'default', name);
      return c.updateStatus(refs.pods, { ...p, status: { ...p.status, phase: 'Running', podIP } });
    };
    rows.push(await timed('status update', (i) => setStatus(`w-${i}`, '10.0.0.1'), (i) => setStatus(`w-${i - count}`, '10.0.0.2')));
    watch.stop();
    printTable(`in-process API writes, ${count} pods, one watcher caching them, no components`, rows);
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runWritePathBenchmark();
  process.exit(0);
}
