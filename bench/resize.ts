// In-place resize benchmark: 1,000 running pods resized at once through pods/resize (NotRequired cpu),
// latency from the PATCH to the status showing the new resources (p50/p99) and the path's throughput.
// Goal: p99 <= 100 ms (a real kubelet needs its sync loop, typically seconds).
// Run: npx tsx bench/resize.ts   (not a test; prints a table)
import { performance } from 'node:perf_hooks';
import type { Pod } from '../src/api/index.ts';
import { refs } from '../src/api/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import { percentile, printTable } from './table.ts';

const pods = 1000;
const nodes = 10;

const pod = (i: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `r-${i}`, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } }] },
});

const cpuOf = (p: Pod): string | undefined => p.status?.containerStatuses?.[0]?.resources?.requests?.cpu;

async function waitFor(done: () => boolean, what: string, ms = 120_000): Promise<void> {
  const start = performance.now();
  while (!done()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => globalThis.setTimeout(res, 20));
  }
}

export async function runResizeBenchmarks(): Promise<void> {
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: nodes, capacity: { cpu: '64', memory: '256Gi', pods: '200' } }] });
  const cluster = await Cluster.start({ config, clock: new RealClock(), random: new SeededRandom(7), components: true });
  try {
    const c = cluster.client;
    const running = new Set<string>();
    const sentAt = new Map<string, number>();
    const latency = new Map<string, number>();
    const watch = c.watch<Pod>(refs.pods, { namespace: 'default' }, (e) => {
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
      const p = e.object as Pod;
      const name = p.metadata.name ?? '';
      if (p.status?.containerStatuses?.[0]?.state?.running) running.add(name);
      const t0 = sentAt.get(name);
      if (t0 !== undefined && !latency.has(name) && cpuOf(p) === '150m') latency.set(name, performance.now() - t0);
    });
    for (let i = 0; i < pods; i += 100) await Promise.all(Array.from({ length: Math.min(100, pods - i) }, (_, j) => c.create(refs.pods, pod(i + j), { namespace: 'default' })));
    await waitFor(() => running.size >= pods, 'pods to run');
    // Let the start-up backlog (status writes, Pulled/Created/Started events) drain first.
    await new Promise((res) => globalThis.setTimeout(res, 15000));
    const body = { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '150m' } } }] } };
    const start = performance.now();
    await Promise.all(
      Array.from({ length: pods }, (_, i) => {
        sentAt.set(`r-${i}`, performance.now());
        return c.patch(refs.pods, 'default', `r-${i}`, 'strategic', body, { subresource: 'resize' });
      }),
    );
    const patched = performance.now();
    await waitFor(() => latency.size >= pods, 'status resources');
    const end = Math.max(...[...sentAt].map(([n, t]) => t + (latency.get(n) ?? 0)));
    watch.stop();
    const sorted = [...latency.values()].sort((a, b) => a - b);
    printTable(`in-place resize: ${pods} pods on ${nodes} simulated nodes, cpu 100m -> 150m (NotRequired), in process`, [
      {
        pods,
        'patch->status p50 (ms)': percentile(sorted, 50),
        'patch->status p99 (ms)': percentile(sorted, 99),
        'max (ms)': sorted.at(-1) ?? 0,
        'all patches sent (ms)': patched - start,
        'resizes/s': (pods * 1000) / (end - start),
        goal: 'p99 <= 100 ms',
      },
    ]);
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runResizeBenchmarks();
  process.exit(0);
}
