// Node-pressure eviction on a simulated node (VirtualClock): a pod whose memory grows past the node's
// is evicted with upstream's message and condition, the node reports MemoryPressure (and its taint
// keeps new pods off), BestEffort pods are refused meanwhile, and the pressure clears 5 min later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { localStorageEviction, rankForMemoryEviction } from './eviction.ts';

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

function diskPod(spec: Partial<Pod['spec']> & Pick<Pod['spec'], 'containers'>): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'writer', namespace: 'default' }, spec: { ...spec } };
}
const gib = 1024 ** 3;

test('local storage limits: an emptyDir past its sizeLimit, then the pod past its containers\' limits, then a container\'s layer', () => {
  const cache = diskPod({
    volumes: [{ name: 'scratch', emptyDir: {} }, { name: 'cache', emptyDir: { sizeLimit: '10Gi' } }, { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }],
    containers: [{ name: 'server', image: 'vllm', volumeMounts: [{ name: 'cache', mountPath: '/root/.cache/huggingface' }, { name: 'shm', mountPath: '/dev/shm' }], resources: { limits: { 'ephemeral-storage': '1Gi' } } }],
  });
  const writes = (bytes: number, path?: string) => new Map([['server', path === undefined ? { bytes } : { bytes, path }]]);
  assert.deepEqual(localStorageEviction({ pod: cache, writes: writes(11 * gib, '/root/.cache/huggingface/hub') }), { signal: 'emptydirfs.limit', message: 'Usage of EmptyDir volume "cache" exceeds the limit "10Gi". ' });
  // Under the sizeLimit, the emptyDir still counts toward the pod's total (1Gi from the container's limit).
  assert.deepEqual(localStorageEviction({ pod: cache, writes: writes(9 * gib, '/root/.cache/huggingface') }), { signal: 'ephemeralpodfs.limit', message: 'Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ' });
  // A memory-backed emptyDir is not local storage; a path under no mount is the writable layer.
  assert.equal(localStorageEviction({ pod: cache, writes: writes(2 * gib, '/dev/shm/x') })?.message, 'Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ');
  assert.equal(localStorageEviction({ pod: cache, writes: writes(gib / 2, '/tmp') }), undefined);
  const two = diskPod({ containers: [{ name: 'a', image: 'x', resources: { limits: { 'ephemeral-storage': '1Gi' } } }, { name: 'b', image: 'x', resources: { limits: { 'ephemeral-storage': '2Gi' } } }] });
  assert.deepEqual(localStorageEviction({ pod: two, writes: new Map([['a', { bytes: 1.5 * gib }]]) }), { signal: 'ephemeralcontainerfs.limit', message: 'Container a exceeded its local ephemeral storage limit "1Gi". ' });
  assert.equal(localStorageEviction({ pod: two, writes: new Map([['a', { bytes: gib }], ['b', { bytes: 2.5 * gib }]]) })?.message, 'Pod ephemeral local storage usage exceeds the total limit of containers 3Gi. ');
  // What kubectl cp put in a container's writable layer counts as the layer's.
  assert.deepEqual(localStorageEviction({ pod: two, writes: new Map(), layerBytes: new Map([['a', 1.2 * gib]]) }), { signal: 'ephemeralcontainerfs.limit', message: 'Container a exceeded its local ephemeral storage limit "1Gi". ' });
});

test('a model download past its emptyDir sizeLimit gets the pod evicted, without a DisruptionTarget condition', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(6), components: true });
  await c.client.create(refs.pods, {
    ...diskPod({
      nodeName: 'cpu-0',
      volumes: [{ name: 'cache', emptyDir: { sizeLimit: '10Gi' } }],
      containers: [{ name: 'server', image: 'vllm/vllm-openai:v0.11.0', volumeMounts: [{ name: 'cache', mountPath: '/root/.cache/huggingface' }] }],
    }),
    metadata: { name: 'writer', namespace: 'default', annotations: { 'sim.drydock.dev/server': 'disk: 0->20Gi/20s\ndiskPath: /root/.cache/huggingface/hub' } },
  });
  for (let s = 0; s < 35; s++) await clock.advance(1_000);
  const p = await c.client.get<Pod>(refs.pods, 'default', 'writer');
  assert.deepEqual([p.status?.phase, p.status?.reason, p.status?.message], ['Failed', 'Evicted', 'Usage of EmptyDir volume "cache" exceeds the limit "10Gi". ']);
  assert.equal(p.status?.conditions?.find((x) => x.type === 'DisruptionTarget'), undefined);
  assert.equal(pressure(await c.client.get<Node>(refs.nodes, undefined, 'cpu-0')), 'False', 'a limit, not node pressure');
});
