// A restart with --data-dir is a kubelet restart: the containers kept running, so pods go on as they
// were (start times, restart counts, IPs, no second start) and their processes keep their timeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });

function pod(name: string, annotation?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(annotation ? { annotations: { 'sim.drydock.dev/app': annotation } } : {}) },
    spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx:1.27' }] },
  };
}

async function started(c: Cluster, name: string): Promise<number> {
  const events = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return events.items.filter((e) => e.involvedObject.name === name && e.reason === 'Started').length;
}

test('after a restart with the same data dir, running pods keep their containers, IPs and timelines', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-restart-'));
  try {
    const t0 = Date.UTC(2026, 0, 1);
    const first = new VirtualClock(t0);
    const before = await Cluster.start({ config, clock: first, random: new SeededRandom(1), components: true, dataDir });
    await before.client.create(refs.pods, pod('web'));
    await before.client.create(refs.pods, pod('batch', 'runFor: 30s'));
    await first.advance(10_000);
    const web = await before.client.get<Pod>(refs.pods, 'default', 'web');
    await before.stop();

    const second = new VirtualClock(t0 + 15_000);
    await using after = await Cluster.start({ config, clock: second, random: new SeededRandom(2), components: true, dataDir });
    await second.advance(2_000);
    const again = await after.client.get<Pod>(refs.pods, 'default', 'web');
    const status = again.status?.containerStatuses?.[0];
    assert.deepEqual(status?.state, web.status?.containerStatuses?.[0]?.state);
    assert.equal(status?.containerID, web.status?.containerStatuses?.[0]?.containerID);
    assert.equal(status?.restartCount, 0);
    assert.equal(again.status?.podIP, web.status?.podIP);
    assert.equal(again.status?.startTime, web.status?.startTime);
    assert.equal(await started(after, 'web'), 1, 'one Started event, from before the restart');

    // The batch container started at t0 and runs 30 s: it finishes at t0 + 30 s, not 30 s after the restart.
    assert.equal((await after.client.get<Pod>(refs.pods, 'default', 'batch')).status?.phase, 'Running');
    await second.advance(14_000);
    const batch = await after.client.get<Pod>(refs.pods, 'default', 'batch');
    assert.equal(batch.status?.phase, 'Succeeded');
    assert.equal(Date.parse(batch.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt ?? ''), t0 + 30_000);

    // A pod started after the restart gets an IP of its own.
    await after.client.create(refs.pods, pod('late'));
    await second.advance(2_000);
    const ips = (await after.client.list<Pod>(refs.pods, { namespace: 'default' })).items.map((p) => p.status?.podIP);
    assert.equal(new Set(ips).size, 3, `pod IPs ${ips.join(', ')}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a restarted kubelet writes a running script\'s lines up to now with their own times, and the loop goes on from there', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-restart-'));
  try {
    const t0 = Date.UTC(2026, 0, 1);
    const first = new VirtualClock(t0);
    const before = await Cluster.start({ config, clock: first, random: new SeededRandom(1), components: true, dataDir });
    const counter: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'counter', namespace: 'default' }, spec: { containers: [{ name: 'count', image: 'busybox', args: ['/bin/sh', '-c', 'i=0; while true; do echo "$i"; i=$((i+1)); sleep 1; done'] }] } };
    await before.client.create(refs.pods, counter);
    await first.advance(3000);
    await before.stop();

    const second = new VirtualClock(t0 + 6_500);
    await using after = await Cluster.start({ config, clock: second, random: new SeededRandom(2), components: true, dataDir });
    await second.advance(1_000);
    const pod = await after.client.get<Pod>(refs.pods, 'default', 'counter');
    const startedAt = Date.parse(pod.status?.containerStatuses?.[0]?.state?.running?.startedAt ?? '');
    const lines = after.podLogs.kubelet('cpu-0')?.worker('default', 'counter')?.logsOf('count')?.current?.lines() ?? [];
    const want = Math.floor((second.now() - startedAt) / 1000) + 1;
    assert.deepEqual(lines.map((l) => `${l.at - startedAt}:${l.text}`), Array.from({ length: want }, (_, i) => `${i * 1000}:${i}`));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
