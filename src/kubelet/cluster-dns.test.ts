// A container's script asking the cluster DNS through its kubelet, on the virtual clock: the
// kubernetes.io init-container wait loop holds the pod until the Service exists, across a kubelet restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refs } from '../api/index.ts';
import type { Pod, Service } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
const wait = 'until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done';
const myapp: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'myapp-pod', namespace: 'default' },
  spec: {
    initContainers: [{ name: 'init-myservice', image: 'busybox:1.36', command: ['sh', '-c', wait] }],
    containers: [{ name: 'myapp-container', image: 'busybox:1.36', command: ['sh', '-c', 'echo The app is running! && sleep 3600'] }],
  },
};
const myservice: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'myservice', namespace: 'default' }, spec: { ports: [{ protocol: 'TCP', port: 80, targetPort: 9376 }] } };

const initState = async (c: Cluster) => (await c.client.get<Pod>(refs.pods, 'default', 'myapp-pod')).status?.initContainerStatuses?.[0]?.state;

test('the init-container wait loop keeps waiting across a kubelet restart and completes once the Service resolves', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-dns-'));
  try {
    const t0 = Date.UTC(2026, 0, 1);
    const first = new VirtualClock(t0);
    const before = await Cluster.start({ config, clock: first, random: new SeededRandom(1), components: true, dataDir });
    await before.client.create(refs.pods, myapp);
    await first.advance(7_000);
    assert.ok((await initState(before))?.running, 'waiting: nslookup answers NXDOMAIN');
    await before.stop();

    const second = new VirtualClock(t0 + 8_000);
    await using after = await Cluster.start({ config, clock: second, random: new SeededRandom(2), components: true, dataDir });
    await second.advance(4_000);
    assert.ok((await initState(after))?.running, 'resumed, still waiting');
    await after.client.create(refs.services, myservice);
    await second.advance(5_000);
    const state = await initState(after);
    assert.deepEqual([state?.terminated?.exitCode, state?.terminated?.reason], [0, 'Completed']);
    assert.equal((await after.client.get<Pod>(refs.pods, 'default', 'myapp-pod')).status?.phase, 'Running');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
