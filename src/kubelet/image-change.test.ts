// Scenario tests on the VirtualClock: a running pod's container image changed (`kubectl set image
// pod/...`): the kubelet kills the instance (grace period, preStop) with a "definition changed" Killing
// event and starts the new image at once, whatever the restart policy. Upstream:
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions, containerChanged),
// kuberuntime_container.go (computeInitContainerActions), pkg/kubelet/container/helpers.go (HashContainer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

async function cluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

function podObj(name: string, spec: Partial<Pod['spec']>, annotations: Record<string, string> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, annotations }, spec: { nodeName: 'cpu-0', containers: [], ...spec } } as Pod;
}

async function events(c: Cluster, name: string): Promise<string[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name && e.source?.component === 'kubelet').map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''} ${e.message}`);
}

/** Every distinct (image, restarts, state) of container `container` a watch of the pod sees. */
function watchContainer(c: Cluster, name: string, container: string, init = false): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: `metadata.name=${name}` }, (e) => {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    const p = e.object as Pod;
    const s = (init ? p.status?.initContainerStatuses : p.status?.containerStatuses)?.find((x) => x.name === container);
    if (!s) return;
    const state = s.state?.running ? 'Running' : s.state?.terminated ? `Terminated(${s.state.terminated.reason})` : `Waiting(${s.state?.waiting?.reason ?? ''})`;
    const line = `${s.image} ${s.restartCount} ${state}`;
    if (seen.at(-1) !== line) seen.push(line);
  });
  return { seen, stop: () => w.stop() };
}

async function setImage(c: Cluster, name: string, container: string, image: string, init = false): Promise<void> {
  await c.client.patch(refs.pods, 'default', name, 'strategic', { spec: { [init ? 'initContainers' : 'containers']: [{ name: container, image }] } });
}

test('set image on a running container of a Never pod: killed with the grace period, the new image pulled and started at once, restartCount 1', async () => {
  const { c, clock } = await cluster();
  try {
    const preStop = { exec: { command: ['sh', '-c', 'sleep 2'] } };
    await c.client.create(refs.pods, podObj('web', { restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx:1.27', lifecycle: { preStop } }] }, { 'sim.drydock.dev/app': 'stopDelay: 3s' }), { namespace: 'default' });
    await clock.advance(5_000);
    const w = watchContainer(c, 'web', 'app');
    const changedAt = clock.now();
    await setImage(c, 'web', 'app', 'nginx:1.28');
    await clock.advance(20_000);
    w.stop();
    // The status reports the image the instance runs: the old one until the new instance runs.
    assert.deepEqual(w.seen, ['docker.io/library/nginx:1.27 0 Running', 'docker.io/library/nginx:1.28 1 Running']);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'web');
    const s = p.status?.containerStatuses?.[0];
    assert.equal(p.status?.phase, 'Running');
    assert.equal(s?.restartCount, 1);
    assert.match(s?.imageID ?? '', /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const old = s?.lastState?.terminated;
    assert.deepEqual([old?.exitCode, old?.reason], [0, 'Completed']);
    // preStop (2 s), then SIGTERM and the 3 s the process takes to stop.
    assert.equal(Date.parse(old?.finishedAt ?? '') - changedAt, 5_000);
    const ev = await events(c, 'web');
    // Created and Started repeat the first instance's messages, so the recorder counts them on its events (x2).
    assert.deepEqual(ev.slice(ev.indexOf('Killing spec.containers{app} Container app definition changed, will be restarted')).map((e) => e.split(' ').slice(0, 2).join(' ')), [
      'Killing spec.containers{app}',
      'Pulling spec.containers{app}',
      'Pulled spec.containers{app}',
    ]);
    const list = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === 'web');
    assert.deepEqual(['Created', 'Started'].map((r) => list.find((e) => e.reason === r)?.count), [2, 2]);
    assert.ok(ev.includes('Pulling spec.containers{app} Pulling image "nginx:1.28"'), ev.join('\n'));
  } finally {
    await c.stop();
  }
});

test('set image on a sidecar restarts it with "Init container <name> definition changed"; the main container and a done init container are left alone', async () => {
  const { c, clock } = await cluster();
  try {
    const spec = {
      initContainers: [
        { name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1; exit 0'] },
        { name: 'proxy', image: 'envoyproxy/envoy:v1.30', restartPolicy: 'Always' as const },
      ],
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    };
    await c.client.create(refs.pods, podObj('mesh', spec), { namespace: 'default' });
    await clock.advance(10_000);
    const w = watchContainer(c, 'mesh', 'proxy', true);
    await setImage(c, 'mesh', 'proxy', 'envoyproxy/envoy:v1.31', true);
    await clock.advance(10_000);
    w.stop();
    assert.deepEqual(w.seen, ['docker.io/envoyproxy/envoy:v1.30 0 Running', 'docker.io/envoyproxy/envoy:v1.31 1 Running']);
    // A regular init container that has finished is not run again for a new image; its status keeps the image it ran.
    await setImage(c, 'mesh', 'setup', 'busybox:1.37', true);
    await clock.advance(10_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'mesh');
    const setup = p.status?.initContainerStatuses?.[0];
    assert.deepEqual([setup?.image, setup?.restartCount, setup?.state?.terminated?.reason], ['docker.io/library/busybox:1.36', 0, 'Completed']);
    assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0);
    const killing = (await events(c, 'mesh')).filter((e) => e.startsWith('Killing'));
    assert.deepEqual(killing, ['Killing spec.initContainers{proxy} Init container proxy definition changed']);
  } finally {
    await c.stop();
  }
});

test('set image on a crash-looping container starts the new image at once: the back-off is the old image\'s', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, podObj('crash', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1; exit 1'] }] }), { namespace: 'default' });
    // Starts at 0, crashes at 1, restarts at once, crashes at 2: backing off until 12.
    await clock.advance(4_000);
    assert.equal((await c.client.get<Pod>(refs.pods, 'default', 'crash')).status?.containerStatuses?.[0]?.restartCount, 1);
    await setImage(c, 'crash', 'app', 'busybox:1.37');
    await clock.advance(500);
    const s = (await c.client.get<Pod>(refs.pods, 'default', 'crash')).status?.containerStatuses?.[0];
    assert.deepEqual([s?.image, s?.restartCount, s?.state?.running !== undefined], ['docker.io/library/busybox:1.37', 2, true]);
  } finally {
    await c.stop();
  }
});
