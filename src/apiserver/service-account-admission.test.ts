// The ServiceAccount admission plugin on pod create: a named account must exist (upstream's
// refusal otherwise), and the account's automountServiceAccountToken and imagePullSecrets apply to
// pods that do not say otherwise. In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';

test('pods name existing service accounts, which lend their token setting and pull secrets', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const pod = (name: string, spec: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  const missing = await client.create(refs.pods, pod('web', { serviceAccountName: 'builder' })).catch((e: unknown) => e);
  assert.ok(isApiError(missing) && missing.reason === 'Forbidden');
  assert.equal(missing.message, 'pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found');
  const generated = await client.create(refs.pods, { ...pod(''), metadata: { generateName: 'web-', namespace: 'default' }, spec: { ...pod('').spec, serviceAccountName: 'builder' } }).catch((e: unknown) => e);
  assert.ok(isApiError(generated) && generated.message.startsWith('pods "web-" is forbidden: '), String(generated));

  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'registry' }] });
  const quiet = await client.create<Pod>(refs.pods, pod('quiet', { serviceAccountName: 'builder' }));
  assert.equal(quiet.spec.volumes, undefined, 'the account turns the token off');
  assert.deepEqual(quiet.spec.imagePullSecrets, [{ name: 'registry' }]);
  const own = await client.create<Pod>(refs.pods, pod('own', { serviceAccountName: 'builder', automountServiceAccountToken: true, imagePullSecrets: [{ name: 'mine' }] }));
  assert.match(own.spec.volumes?.[0]?.name ?? '', /^kube-api-access-[a-z0-9]{5}$/, 'the pod\'s own setting wins');
  assert.deepEqual(own.spec.imagePullSecrets, [{ name: 'mine' }]);
  // `default` is not required yet: its controller makes it moments after the namespace.
  assert.equal((await client.create<Pod>(refs.pods, pod('plain'))).spec.serviceAccountName, 'default');
});
