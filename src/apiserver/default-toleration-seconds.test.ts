// DefaultTolerationSeconds as a user meets it: a new pod tolerates the not-ready and unreachable
// NoExecute taints for 300 s unless it tolerates them itself, and a replace whose body dropped them
// gets them back (upstream's handler takes updates too) instead of a refusal.
// In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock } from '../core/index.ts';

const defaults = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
const pod = (name: string, tolerations?: Pod['spec']['tolerations']): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...(tolerations ? { tolerations } : {}) } });

test('a new pod tolerates not-ready and unreachable NoExecute for 300 s, unless it tolerates them itself', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('plain'))).spec.tolerations, defaults);
  const own = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 6000 }];
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('own', own))).spec.tolerations, [...own, defaults[0]]);
  assert.deepEqual((await client.create<Pod>(refs.pods, pod('everything', [{ operator: 'Exists' }]))).spec.tolerations, [{ operator: 'Exists' }]);
});

test('a replace whose body dropped the default tolerations keeps them and succeeds', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const created = await client.create<Pod>(refs.pods, pod('web'));
  const { tolerations: _dropped, ...spec } = created.spec;
  const replaced = await client.update<Pod>(refs.pods, { ...created, spec: { ...spec, activeDeadlineSeconds: 3600 } });
  assert.deepEqual([replaced.spec.tolerations, replaced.spec.activeDeadlineSeconds], [defaults, 3600]);
});

test('a patch that leaves the pod no spec is refused by validation, not answered with an internal error', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create<Pod>(refs.pods, pod('web'));
  const refused = await client.patch(refs.pods, 'default', 'web', 'merge', { spec: null }).then(
    () => undefined,
    (e: unknown) => e as { code?: number; reason?: string },
  );
  assert.deepEqual([refused?.code, refused?.reason], [422, 'Invalid']);
});
