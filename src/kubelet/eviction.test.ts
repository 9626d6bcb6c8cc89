// Node-pressure eviction on a simulated node (VirtualClock): a pod whose memory grows past the node's
// is evicted with upstream's message and condition, the node reports MemoryPressure (and its taint
// keeps new pods off), BestEffort pods are refused meanwhile, and the pressure clears 5 min later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { rankForMemoryEviction } from './eviction.ts';

function pod(name: string, memory: string, resources: { requests?: Record<string, string>; limits?: Record<string, string> } | undefined, priority?: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: { 'sim.drydock.dev/app': `memory: ${memory}` } },
    spec: { nodeName: 'cpu-0', ...(priority !== undefined ? { priority } : {}), containers: [{ name: 'app', image: 'python:3.12', command: ['python', 'serve.py'], ...(resources ? { resources } : {}) }] },
  };
}

const pressure = (n: Node): string | undefined => n.status?.conditions?.find((c) => c.type === 'MemoryPressure')?.status;

test('a pod growing past the node memory is evicted; MemoryPressure holds 5 minutes and refuses BestEffort pods', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(4), components: true });
  await c.client.create(refs.pods, pod('steady', '512Mi', { requests: { memory: '1Gi' }, limits: { memory: '1Gi' } }));
  await c.client.create(refs.pods, pod('hog', '1Gi->9Gi/60s', { requests: { memory: '1Gi' } }));
  for (let s = 0; s < 70; s++) await clock.advance(1_000);

  const hog = await c.client.get<Pod>(refs.pods, 'default', 'hog');
  assert.equal(hog.status?.phase, 'Failed');
  assert.equal(hog.status?.reason, 'Evicted');
  assert.match(hog.status?.message ?? '', /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: (0|-?\d+Ki)\. Container app was using \d+Ki, request is 1Gi, has larger consumption of memory\. $/);
  const disruption = hog.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
  assert.deepEqual([disruption?.status, disruption?.reason, disruption?.message], ['True', 'TerminationByKubelet', hog.status?.message]);
  const events = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items;
  assert.ok(events.some((e) => e.involvedObject.name === 'hog' && e.type === 'Warning' && e.reason === 'Evicted' && e.message === hog.status?.message));
  assert.equal((await c.client.get<Pod>(refs.pods, 'default', 'steady')).status?.phase, 'Running', 'within its request: not chosen');

  const node = await c.client.get<Node>(refs.nodes, undefined, 'cpu-0');
  assert.equal(pressure(node), 'True');
  assert.equal(node.status?.conditions?.find((x) => x.type === 'MemoryPressure')?.reason, 'KubeletHasInsufficientMemory');
  assert.ok(node.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/memory-pressure' && t.effect === 'NoSchedule'), JSON.stringify(node.spec?.taints));
  assert.ok(events.some((e) => e.involvedObject.name === 'cpu-0' && e.reason === 'NodeHasInsufficientMemory' && e.message === 'Node cpu-0 status is now: NodeHasInsufficientMemory'));

  await c.client.create(refs.pods, pod('besteffort', '100Mi', undefined));
  await clock.advance(2_000);
  const refused = await c.client.get<Pod>(refs.pods, 'default', 'besteffort');
  assert.deepEqual([refused.status?.phase, refused.status?.reason, refused.status?.message], ['Failed', 'Evicted', 'Pod was rejected: The node had condition: [MemoryPressure]. ']);

  for (let s = 0; s < 33; s++) await clock.advance(10_000);
  assert.equal(pressure(await c.client.get<Node>(refs.nodes, undefined, 'cpu-0')), 'False');
});

test('memory eviction ranks pods over their requests first, then lower priority, then the usage above requests', () => {
  const usage = (name: string, bytes: number, request: string, priority = 0) => ({ pod: pod(name, '1Gi', { requests: { memory: request } }, priority), containers: new Map([['app', bytes]]) });
  const gi = 1024 ** 3;
  const ranked = rankForMemoryEviction([usage('within', gi / 2, '1Gi'), usage('over-high', 3 * gi, '1Gi', 1000), usage('over-more', 4 * gi, '1Gi'), usage('over-less', 2 * gi, '1Gi'), usage('critical', 9 * gi, '1Gi', 2_000_000_000)]);
  assert.deepEqual(ranked.map((p) => p.pod.metadata.name), ['over-more', 'over-less', 'over-high', 'within']);
});
