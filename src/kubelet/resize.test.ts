// Scenario tests of in-place pod resize on the VirtualClock: an in-process cluster, PATCH pods/x/resize,
// time advanced, then status resources, conditions, restart counts and kubelet events asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';

const fixture = (name: string): Pod => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures', name), 'utf8')) as Pod;

async function cluster(pool: Record<string, unknown> = {}): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' }, ...pool }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

const get = (c: Cluster, name: string): Promise<Pod> => c.client.get<Pod>(refs.pods, 'default', name);

function resize(c: Cluster, name: string, container: string, resources: unknown): Promise<Pod> {
  return c.client.patch<Pod>(refs.pods, 'default', name, 'strategic', { spec: { containers: [{ name: container, resources }] } }, { subresource: 'resize' });
}

async function kubeletEvents(c: Cluster, name: string): Promise<string[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name && (e.reason ?? '').startsWith('Resize')).map((e) => `${e.type} ${e.reason} ${e.message}`);
}

const conditions = (p: Pod): string[] =>
  (p.status?.conditions ?? [])
    .filter((x) => x.type.startsWith('PodResize'))
    .map((x) => `${x.type}/${x.reason ?? ''}/${(x as { observedGeneration?: number }).observedGeneration}${x.message ? `: ${x.message}` : ''}`);

function simple(name: string, cpu: string, extra: Partial<Pod['spec']> = {}, annotations: Record<string, string> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu, memory: '100Mi' }, limits: { cpu, memory: '100Mi' } } }], ...extra },
  } as Pod;
}

test('NotRequired cpu resize applies in place: status resources follow, restartCount stays 0, ResizeStarted then ResizeCompleted', async () => {
  const { c, clock } = await cluster();
  try {
    const created = await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    const patched = await resize(c, 'myapp', 'app', { requests: { cpu: '800m' }, limits: { cpu: '1500m' } });
    assert.equal(patched.metadata.generation, 2);
    await clock.advance(1_000);
    const p = await get(c, 'myapp');
    const st = p.status?.containerStatuses?.[0];
    assert.deepEqual(
      [p.metadata.uid, st?.restartCount, st?.allocatedResources, st?.resources, p.status?.observedGeneration, conditions(p)],
      [created.metadata.uid, 0, { cpu: '800m', memory: '512Mi' }, { limits: { cpu: '1500m', memory: '1Gi' }, requests: { cpu: '800m', memory: '512Mi' } }, 2, []],
    );
    const detail = '{"containers":[{"name":"app","resources":{"limits":{"cpu":"1500m","memory":"1Gi"},"requests":{"cpu":"800m","memory":"512Mi"}}}],"generation":2}';
    assert.deepEqual(await kubeletEvents(c, 'myapp'), [`Normal ResizeStarted Pod resize started: ${detail}`, `Normal ResizeCompleted Pod resize completed: ${detail}`]);
  } finally {
    await c.stop();
  }
});

test('RestartContainer memory resize restarts only that container (restartCount 1, lastState terminated) and applies on start', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'myapp', 'app', { requests: { memory: '768Mi' }, limits: { memory: '1.5Gi' } });
    await clock.advance(5_000);
    const p = await get(c, 'myapp');
    const st = p.status?.containerStatuses?.[0];
    assert.deepEqual([st?.restartCount, st?.resources?.limits?.memory, st?.state?.running !== undefined, st?.lastState?.terminated?.exitCode, conditions(p)], [1, '1.5Gi', true, 0, []]);
    const killing = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === 'Killing').map((e) => e.message);
    assert.deepEqual(killing, ['Container app resize requires restart']);
    // Then a cpu-only change does not restart.
    await resize(c, 'myapp', 'app', { requests: { cpu: '600m' } });
    await clock.advance(5_000);
    assert.equal((await get(c, 'myapp')).status?.containerStatuses?.[0]?.restartCount, 1);
  } finally {
    await c.stop();
  }
});

test('a cpu request above the node allocatable is Infeasible; the pod keeps running at its old size; reverting clears it silently', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'myapp', 'app', { requests: { cpu: '1000' }, limits: { cpu: '1000' } });
    await clock.advance(1_000);
    let p = await get(c, 'myapp');
    assert.deepEqual(conditions(p), ["PodResizePending/Infeasible/2: Node didn't have enough capacity: cpu, requested: 1000000, capacity: 4000"]);
    assert.deepEqual([p.status?.containerStatuses?.[0]?.resources?.requests?.cpu, p.status?.containerStatuses?.[0]?.allocatedResources?.cpu, p.status?.phase], ['500m', '500m', 'Running']);
    assert.equal((await kubeletEvents(c, 'myapp')).at(-1)?.startsWith('Warning ResizeInfeasible Pod resize Infeasible: '), true);
    await resize(c, 'myapp', 'app', { requests: { cpu: '500m' }, limits: { cpu: '1000m' } });
    await clock.advance(1_000);
    p = await get(c, 'myapp');
    assert.deepEqual([conditions(p), (await kubeletEvents(c, 'myapp')).length, p.metadata.generation], [[], 1, 3]);
  } finally {
    await c.stop();
  }
});

test('a resize that needs a busy node is Deferred until another pod is deleted, then applied', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, simple('a', '1'), { namespace: 'default' });
    await c.client.create(refs.pods, simple('b', '2500m'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'a', 'c', { requests: { cpu: '2' }, limits: { cpu: '2' } });
    await clock.advance(1_000);
    assert.deepEqual(conditions(await get(c, 'a')), ["PodResizePending/Deferred/2: Node didn't have enough resource: cpu, requested: 2000, used: 2500, capacity: 4000"]);
    await c.client.delete(refs.pods, 'default', 'b');
    await clock.advance(35_000);
    const p = await get(c, 'a');
    assert.deepEqual([conditions(p), p.status?.containerStatuses?.[0]?.resources?.requests?.cpu], [[], '2']);
    assert.deepEqual((await kubeletEvents(c, 'a')).map((e) => e.split(':')[0]), ['Warning ResizeDeferred Pod resize Deferred', 'Normal ResizeStarted Pod resize started', 'Normal ResizeCompleted Pod resize completed']);
  } finally {
    await c.stop();
  }
});

test('deferred resizes are admitted in priority order when capacity frees up', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 100 } as KubeObject);
    await c.client.create(refs.pods, simple('low', '500m'), { namespace: 'default' });
    await c.client.create(refs.pods, simple('high', '500m', { priorityClassName: 'high' }), { namespace: 'default' });
    await c.client.create(refs.pods, simple('filler', '2500m'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'low', 'c', { requests: { cpu: '2500m' }, limits: { cpu: '2500m' } });
    await resize(c, 'high', 'c', { requests: { cpu: '2500m' }, limits: { cpu: '2500m' } });
    await clock.advance(1_000);
    assert.deepEqual([(await get(c, 'low')).status?.conditions?.some((x) => x.reason === 'Deferred'), (await get(c, 'high')).status?.conditions?.some((x) => x.reason === 'Deferred')], [true, true]);
    await c.client.delete(refs.pods, 'default', 'filler');
    await clock.advance(35_000);
    assert.deepEqual([conditions(await get(c, 'high')), conditions(await get(c, 'low'))[0]?.split(':')[0]], [[], 'PodResizePending/Deferred/2']);
  } finally {
    await c.stop();
  }
});

test('a memory limit decrease below the working set stays in progress with reason Error; reverting completes', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, simple('m', '100m', {}, { 'sim.drydock.dev/c': 'memory: 80Mi' }), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'm', 'c', { requests: { memory: '90Mi' }, limits: { memory: '90Mi' } });
    await clock.advance(1_000);
    assert.equal((await get(c, 'm')).status?.containerStatuses?.[0]?.resources?.limits?.memory, '90Mi');
    await resize(c, 'm', 'c', { requests: { memory: '10Ki' }, limits: { memory: '10Ki' } });
    await clock.advance(1_000);
    let p = await get(c, 'm');
    const [cond] = conditions(p);
    assert.match(cond ?? '', /^PodResizeInProgress\/Error\/3: .*memory limit \(\d+\) below current usage/);
    assert.deepEqual([p.status?.containerStatuses?.[0]?.resources?.limits?.memory, p.status?.containerStatuses?.[0]?.restartCount], ['90Mi', 0]);
    assert.equal((await kubeletEvents(c, 'm')).at(-1)?.startsWith('Warning ResizeError Pod resize error: '), true);
    await resize(c, 'm', 'c', { requests: { memory: '100Mi' }, limits: { memory: '100Mi' } });
    await clock.advance(1_000);
    p = await get(c, 'm');
    assert.deepEqual([conditions(p), p.status?.containerStatuses?.[0]?.resources?.limits?.memory], [[], '100Mi']);
  } finally {
    await c.stop();
  }
});

test('a Guaranteed cpu resize on a node with the static CPU manager is Infeasible', async () => {
  const { c, clock } = await cluster({ cpuManagerPolicy: 'static' });
  try {
    await c.client.create(refs.pods, simple('g', '1'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'g', 'c', { requests: { cpu: '2' }, limits: { cpu: '2' } });
    await clock.advance(1_000);
    assert.deepEqual(conditions(await get(c, 'g')), ['PodResizePending/Infeasible/2: Resize is infeasible for Guaranteed Pods alongside CPU Manager policy "static"']);
  } finally {
    await c.stop();
  }
});

test('GET pods/x/resize returns the pod', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(1_000);
    const [a, b] = await Promise.all([get(c, 'myapp'), c.client.get<Pod>(refs.pods, 'default', 'myapp', { subresource: 'resize' })]);
    assert.deepEqual(b, a);
  } finally {
    await c.stop();
  }
});

test('a 1.32 kubelet has no in-place resize: no status resources, and a running pod\'s resize is refused as upstream\'s API server refuses it', async () => {
  const { c, clock } = await cluster({ kubeletVersion: 'v1.32.4' });
  try {
    await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    const st = (await get(c, 'myapp')).status?.containerStatuses?.[0];
    assert.deepEqual([st?.state?.running !== undefined, st?.resources, st?.allocatedResources], [true, undefined, undefined]);
    await assert.rejects(resize(c, 'myapp', 'app', { requests: { cpu: '800m' }, limits: { cpu: '1500m' } }), (e: Error) => {
      assert.equal(e.message, 'Pod "myapp" is invalid: spec: Forbidden: Pod running on node without support for resize');
      return true;
    });
  } finally {
    await c.stop();
  }
});

test('a 1.33 kubelet resizes in place (InPlacePodVerticalScaling beta, on)', async () => {
  const { c, clock } = await cluster({ kubeletVersion: 'v1.33.1' });
  try {
    await c.client.create<Pod>(refs.pods, fixture('resize-pod.yaml'), { namespace: 'default' });
    await clock.advance(5_000);
    await resize(c, 'myapp', 'app', { requests: { cpu: '800m' }, limits: { cpu: '1500m' } });
    await clock.advance(1_000);
    const st = (await get(c, 'myapp')).status?.containerStatuses?.[0];
    assert.deepEqual([st?.restartCount, st?.resources?.requests?.cpu], [0, '800m']);
  } finally {
    await c.stop();
  }
});
