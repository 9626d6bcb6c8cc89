// Scenario tests of the simulated kubelet on the VirtualClock: an in-process cluster with its
// components, pods created through the API, time advanced, then the status and events asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs, podStatusCells } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

const fixture = (name: string): Pod => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures', name), 'utf8')) as Pod;

async function cluster(extra: Record<string, unknown> = {}): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }], ...extra });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

async function pod(c: Cluster, name: string): Promise<Pod> {
  return c.client.get<Pod>(refs.pods, 'default', name);
}

/** The STATUS column after every change of the pod, as `kubectl get pod -w` prints it. */
async function watchStatus(c: Cluster, clock: VirtualClock, name: string, forMs: number): Promise<string[]> {
  const seen: string[] = [];
  const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: `metadata.name=${name}` }, (e) => {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    const s = podStatusCells(e.object as Pod).status;
    if (seen.at(-1) !== s) seen.push(s);
  });
  await clock.advance(forMs);
  w.stop();
  return seen;
}

async function events(c: Cluster, name: string): Promise<Event[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name);
}

test('sidecar Job pod: log-agent starts before db-migration, which ends before worker starts; log-agent stops last; Succeeded', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, fixture('sidecar-job-pod.yaml'), { namespace: 'default' });
    const t0 = clock.now();
    const seen = await watchStatus(c, clock, 'batch-worker', 20_000);
    assert.deepEqual(seen, ['Pending', 'Init:0/2', 'Init:1/2', 'PodInitializing', 'Running', 'Completed']);
    const p = await pod(c, 'batch-worker');
    assert.equal(p.status?.phase, 'Succeeded');
    const agent = p.status?.initContainerStatuses?.[0];
    const migration = p.status?.initContainerStatuses?.[1];
    const worker = p.status?.containerStatuses?.[0];
    const ms = (t: string | undefined): number => Date.parse(t ?? '') - t0;
    assert.ok(ms(agent?.state?.terminated?.startedAt) <= ms(migration?.state?.terminated?.startedAt));
    assert.ok(ms(migration?.state?.terminated?.finishedAt) <= ms(worker?.state?.terminated?.startedAt));
    assert.ok(ms(worker?.state?.terminated?.finishedAt) < ms(agent?.state?.terminated?.finishedAt));
    assert.deepEqual([migration?.state?.terminated?.reason, worker?.state?.terminated?.reason, agent?.state?.terminated?.exitCode], ['Completed', 'Completed', 0]);
    assert.deepEqual(p.status?.conditions?.map((x) => `${x.type}=${x.status}${x.reason ? `/${x.reason}` : ''}`), [
      'PodReadyToStartContainers=False',
      'Initialized=True/PodCompleted',
      'Ready=False/PodCompleted',
      'ContainersReady=False/PodCompleted',
      'PodScheduled=True',
    ]);
    const ev = (await events(c, 'batch-worker')).map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''} ${e.message}`);
    assert.ok(ev.includes('Killing spec.initContainers{log-agent} Stopping container log-agent'), ev.join('\n'));
  } finally {
    await c.stop();
  }
});
