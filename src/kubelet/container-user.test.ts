import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { containerUser } from './container-user.ts';

test('a container with no security context runs as the image user, root', () => {
  assert.deepEqual(containerUser(undefined, undefined), { linux: { uid: 0, gid: 0, supplementalGroups: [0] } });
});

test('the user the KEP-3619 example reports: primary group first among the sorted supplemental groups', () => {
  assert.deepEqual(containerUser({ runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000], supplementalGroupsPolicy: 'Strict' }, undefined), {
    linux: { uid: 1000, gid: 3000, supplementalGroups: [3000, 4000] },
  });
});

test('fsGroup joins the supplemental groups; duplicates collapse; the container overrides runAsUser and runAsGroup', () => {
  const pod = { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [5000, 2000] };
  assert.deepEqual(containerUser(pod, { runAsUser: 7, runAsGroup: 5000 }), { linux: { uid: 7, gid: 5000, supplementalGroups: [2000, 5000] } });
  assert.deepEqual(containerUser({ runAsUser: 1000 }, undefined), { linux: { uid: 1000, gid: 0, supplementalGroups: [0] } });
});

async function start(kubeletVersion?: string): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const pool = { name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' }, ...(kubeletVersion ? { kubeletVersion } : {}) };
  const c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [pool] }), clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

const groupsPod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'groups' },
  spec: {
    securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000], supplementalGroupsPolicy: 'Strict' },
    initContainers: [{ name: 'setup', image: 'busybox', command: ['true'] }],
    containers: [
      { name: 'app', image: 'nginx' },
      { name: 'helper', image: 'nginx', securityContext: { runAsUser: 2000 } },
    ],
  },
};

test('each created container reports the user its first process got; the node says it honours Strict', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.pods, groupsPod, { namespace: 'default' });
    await clock.advance(10_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'groups');
    assert.equal(p.status?.phase, 'Running');
    const node = await c.client.get<Node>(refs.nodes, undefined, p.spec.nodeName ?? '');
    assert.equal(node.status?.features?.supplementalGroupsPolicy, true);
    const users = [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].map((s) => [s.name, s.user]);
    assert.deepEqual(users, [
      ['setup', { linux: { uid: 1000, gid: 3000, supplementalGroups: [2000, 3000, 4000] } }],
      ['app', { linux: { uid: 1000, gid: 3000, supplementalGroups: [2000, 3000, 4000] } }],
      ['helper', { linux: { uid: 2000, gid: 3000, supplementalGroups: [2000, 3000, 4000] } }],
    ]);
  } finally {
    await c.stop();
  }
});

test('a container not yet created reports no user', async () => {
  const { c, clock } = await start();
  try {
    const gated: Pod = { ...groupsPod, metadata: { name: 'waiting' }, spec: { ...groupsPod.spec, initContainers: [{ name: 'setup', image: 'busybox', command: ['sleep', '3600'] }] } };
    await c.client.create(refs.pods, gated, { namespace: 'default' });
    await clock.advance(10_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'waiting');
    assert.deepEqual(p.status?.initContainerStatuses?.map((s) => s.user !== undefined), [true]);
    assert.deepEqual(p.status?.containerStatuses?.map((s) => [s.state?.waiting?.reason, s.user]), [['PodInitializing', undefined], ['PodInitializing', undefined]]);
  } finally {
    await c.stop();
  }
});

test('a 1.32 kubelet, without SupplementalGroupsPolicy, reports no user and runs a Strict pod', async () => {
  const { c, clock } = await start('v1.32.3');
  try {
    await c.client.create(refs.pods, groupsPod, { namespace: 'default' });
    await clock.advance(10_000);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'groups');
    assert.equal(p.status?.phase, 'Running');
    assert.deepEqual(p.status?.containerStatuses?.map((s) => s.user), [undefined, undefined]);
  } finally {
    await c.stop();
  }
});
