// Scenario harness for scheduler tests: an in-process cluster on the VirtualClock with no node
// pools, where tests create Node and Pod objects themselves. (No tests here; imported by others.)
import type { Event, Node, Pod } from '../api/index.ts';
import { refs, taintNodeNotReady } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import type { Client } from '../client/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

export interface Scenario extends AsyncDisposable {
  cluster: Cluster;
  client: Client;
  clock: VirtualClock;
  addNode(name: string, allocatable: Record<string, string>, extra?: { labels?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints']; unschedulable?: boolean }): Promise<Node>;
  addPod(name: string, spec: Partial<Pod['spec']> & { requests?: Record<string, string> }, meta?: Partial<Pod['metadata']>): Promise<Pod>;
  pod(name: string): Promise<Pod>;
  /** Advances virtual time in small steps until pred holds (or maxMs passed). */
  until(pred: () => Promise<boolean> | boolean, maxMs?: number): Promise<void>;
  events(podName: string): Promise<Event[]>;
  scheduledCondition(name: string): Promise<{ status: string; reason?: string; message?: string } | undefined>;
}

export async function startScenario(options: { scheduler?: Record<string, unknown> } = {}): Promise<Scenario> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({
    config: clusterConfigFrom({ nodePools: [], ...(options.scheduler ? { scheduler: options.scheduler } : {}) }),
    clock,
    random: new SeededRandom(7),
    components: true,
  });
  const client = cluster.client;
  const s: Scenario = {
    cluster,
    client,
    clock,
    async addNode(name, allocatable, extra = {}) {
      const node: Node = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
        spec: { ...(extra.taints ? { taints: extra.taints } : {}), ...(extra.unschedulable ? { unschedulable: true } : {}) },
        status: { capacity: { pods: '110', ...allocatable }, allocatable: { pods: '110', ...allocatable }, conditions: [{ type: 'Ready', status: 'True' }] },
      };
      await client.create<Node>(refs.nodes, node);
      // TaintNodesByCondition admits every Node with not-ready:NoSchedule; the node lifecycle controller
      // lifts it on seeing Ready. Tests start from the node a user would see schedulable, not from the race.
      const admitted = () => client.get<Node>(refs.nodes, '', name);
      await s.until(async () => !(await admitted()).spec?.taints?.some((t) => t.key === taintNodeNotReady));
      return admitted();
    },
    async addPod(name, spec, meta = {}) {
      const { requests, ...rest } = spec;
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default', ...meta },
        spec: {
          containers: [{ name: 'c', image: 'busybox', ...(requests ? { resources: { requests, limits: Object.fromEntries(Object.entries(requests).filter(([k]) => k.includes('/'))) } } : {}) }],
          ...rest,
        },
      };
      return client.create<Pod>(refs.pods, pod, { namespace: 'default' });
    },
    pod: (name) => client.get<Pod>(refs.pods, 'default', name),
    async until(pred, maxMs = 60_000) {
      for (let t = 0; t <= maxMs; t += 100) {
        if (await pred()) return;
        await clock.advance(100);
      }
      throw new Error('condition not reached');
    },
    async events(podName) {
      const list = await client.list<Event>(refs.events, { namespace: 'default' });
      return list.items.filter((e) => e.involvedObject.name === podName);
    },
    async scheduledCondition(name) {
      const p = await s.pod(name);
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    },
    [Symbol.asyncDispose]: () => cluster.stop(),
  };
  return s;
}
