// DRA scheduling benchmark (upstream scheduler_perf's SchedulingWithResourceClaimTemplate shape):
// nodes with 8 H100s in dynamic MIG (the simulated NVIDIA driver's slices), pods each claiming a
// 1g.10gb slice through a ResourceClaimTemplate, with the real ResourceClaim controller and
// scheduler on the in-process client. Reports pods/s, create->bound latency, the allocator's time per
// pod (p50/p99) and packing density, beside the same nodes scheduling plain pods (no claims).
// Run: npx tsx bench/dra.ts [a|b]   (not a test; prints a table)
import { performance } from 'node:perf_hooks';
import type { Node, Pod, resourceV1 } from '../src/api/index.ts';
import { refs } from '../src/api/index.ts';
import { Cluster, clusterConfigFrom } from '../src/cluster/index.ts';
import { ResourceClaimController } from '../src/controllers/index.ts';
import { RealClock, SeededRandom } from '../src/core/index.ts';
import { buildInventory, findGpuModel, findMigProfile, nodeSelectorMatches, nvidiaDeviceClasses, nvidiaResourceSlices, resultDeviceIds, searchClaims } from '../src/dra/index.ts';
import { Scheduler, dynamicResourcesFactory, inTreeRegistry } from '../src/scheduler/index.ts';
import { count, envShape } from './env.ts';
import type { Shape as EnvShape } from './env.ts';
import { countTo } from './harness.ts';
import { percentile, printTable } from './table.ts';

interface Shape {
  id: string;
  title: string;
  nodes: number;
  pods: number;
  /** Pods without claims on the same nodes: the plain-pod figure the DRA rows are compared with. */
  plain?: boolean;
}

const gpus = { model: 'H100-80GB', count: 8, mig: 'dynamic' } as const;
const profile = '1g.10gb';
const model = findGpuModel(gpus.model);
const maxPerGpu = (model && findMigProfile(model, profile)?.maxInstances) ?? 7;
/** The 1g.10gb slices `nodes` nodes offer. */
const supplyOf = (nodes: number): number => nodes * gpus.count * maxPerGpu;

// BENCH_P6_A (the plain row's too) and BENCH_P6_B: nodes/pods.
const a = envShape('BENCH_P6_A', { nodes: 500, pods: 5000 });
const b = envShape('BENCH_P6_B', { nodes: 50, pods: 3000 });
const demand = (s: EnvShape): string => (s.pods > supplyOf(s.nodes) ? 'demand > supply' : 'demand <= supply');

const shapes: Shape[] = [
  { id: 'a', title: `${count(a.nodes)} nodes x 8 H100 (dynamic MIG), ${count(a.pods)} pods x 1g.10gb via template`, ...a },
  { id: 'p', title: `same ${count(a.nodes)} nodes, ${count(a.pods)} plain pods (no claims): the scheduler without DRA`, ...a, plain: true },
  { id: 'b', title: `${count(b.nodes)} nodes x 8 H100 (dynamic MIG), ${count(b.pods)} pods x 1g.10gb (${demand(b)})`, ...b },
];

const migClass: resourceV1.DeviceClass = {
  apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'mig-1g-10gb' },
  spec: { selectors: [{ cel: { expression: `device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig' && device.attributes['gpu.nvidia.com'].profile == '${profile}'` } }] },
};
const template: resourceV1.ResourceClaimTemplate = {
  apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: 'mig', namespace: 'default' },
  spec: { spec: { devices: { requests: [{ name: 'mig', exactly: { deviceClassName: 'mig-1g-10gb' } }] } } },
};
const pod = (i: number): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: 'default' },
  spec: { resourceClaims: [{ name: 'mig', resourceClaimTemplateName: 'mig' }], containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' }, claims: [{ name: 'mig' }] } }] },
});
const plainPod = (i: number): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
});

/**
 * The allocator's search with its time summed per pod, over its own steps (not the turns it leaves to
 * others): the scheduler searches once per node it filters, so a pod's allocation time is the sum over
 * the nodes of its scheduling cycles. Template claims are owned by their pod, which keys them.
 */
function timedSearch(perPod: Map<string, number>): typeof searchClaims {
  return function* (input) {
    const owner = input.claims[0]?.metadata.ownerReferences?.[0]?.uid ?? '';
    const search = searchClaims(input);
    for (;;) {
      const t0 = performance.now();
      const next = search.next();
      perPod.set(owner, (perPod.get(owner) ?? 0) + performance.now() - t0);
      if (next.done) return next.value;
      yield;
    }
  };
}

async function inBatches(n: number, size: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < n; i += size) await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => fn(i + j)));
}

async function run(shape: Shape): Promise<Record<string, string | number>> {
  const clock = new RealClock();
  // As upstream's scheduler_perf: no node lifecycle controller runs to lift TaintNodesByCondition's
  // not-ready taint from these nodes, so that plugin is disabled, as scheduler_perf's API server has it.
  const cluster = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(1), components: false, disableAdmissionPlugins: ['TaintNodesByCondition'] });
  const client = cluster.client;
  const log = (): void => {};
  for (const c of [...nvidiaDeviceClasses(), migClass]) await client.create(refs.deviceClasses, c);
  await client.create(refs.resourceClaimTemplates, template, { namespace: 'default' });
  await inBatches(shape.nodes, 100, async (i) => {
    const name = `node-${i}`;
    const alloc = { cpu: '96', memory: '1Ti', pods: '110' };
    const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {}, status: { capacity: alloc, allocatable: alloc, conditions: [{ type: 'Ready', status: 'True' }] } };
    await client.create(refs.nodes, node);
    for (const s of nvidiaResourceSlices(name, gpus)) await client.create(refs.resourceSlices, s);
  });
  const supply = supplyOf(shape.nodes);
  const expected = Math.min(shape.pods, supply);
  const created = new Map<string, number>();
  const latencies: number[] = [];
  let bound = 0;
  const progress = countTo(expected, 'pods bound');
  const allocation = new Map<string, number>();
  const controller = new ResourceClaimController({ client, clock, log, workers: 8 });
  const scheduler = new Scheduler({
    client, clock, random: new SeededRandom(2), log,
    registry: { ...inTreeRegistry, DynamicResources: dynamicResourcesFactory({ buildInventory, nodeSelectorMatches, resultDeviceIds, searchClaims: timedSearch(allocation) }) },
    onBound: (pi) => {
      const t = created.get(pi.key);
      if (t !== undefined) latencies.push(performance.now() - t);
      bound++;
      progress.step();
    },
  });
  controller.start();
  scheduler.start();
  await scheduler.waitForSync();
  const t0 = performance.now();
  await inBatches(shape.pods, 200, async (i) => {
    const p = shape.plain ? plainPod(i) : pod(i);
    created.set(`default/${p.metadata.name ?? ''}`, performance.now());
    await client.create(refs.pods, p, { namespace: 'default' });
  });
  await progress.finished;
  const seconds = (performance.now() - t0) / 1000;
  const claims = (await client.list<resourceV1.ResourceClaim>(refs.resourceClaims, { namespace: 'default' })).items;
  const used = new Set(claims.flatMap((c) => (c.status?.allocation?.devices?.results ?? []).map((r) => `${r.pool}/${r.device}`)));
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  await scheduler.stop();
  controller.stop();
  await cluster.stop();
  latencies.sort((a, b) => a - b);
  const allocationMs = [...allocation.values()].sort((a, b) => a - b);
  return {
    scenario: `(${shape.id}) ${shape.title}`,
    'pods bound': bound,
    'pods/s': Math.round(bound / seconds),
    'create->bound p50 ms': Math.round(percentile(latencies, 50)),
    'p99 ms': Math.round(percentile(latencies, 99)),
    'alloc p50/p99 ms per pod': shape.plain ? '-' : `${percentile(allocationMs, 50).toFixed(2)}/${percentile(allocationMs, 99).toFixed(2)}`,
    'slices used/available': shape.plain ? '-' : `${used.size}/${supply}`,
    'packing %': shape.plain ? '-' : Math.round((1000 * used.size) / supply) / 10,
    'demand met %': shape.plain ? '-' : Math.round((1000 * used.size) / expected) / 10,
    'rss MB': Math.round(rssMb),
  };
}

export async function runDraBenchmarks(ids: readonly string[] = []): Promise<void> {
  const rows = [];
  for (const shape of shapes) if (ids.length === 0 || ids.includes(shape.id)) rows.push(await run(shape));
  printTable('DRA scheduling (goal >= 300 pods/s; upstream SchedulingWithResourceClaimTemplate 500 nodes: 40 pods/s)', rows);
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  await runDraBenchmarks(process.argv.slice(2));
  process.exit(0);
}
