// Scenario: every active namespace gets a `default` ServiceAccount, made again when deleted; a
// namespace being deleted gets none, and the create it would have made is refused with the
// NamespaceTerminating cause. VirtualClock, in-process cluster, no other controller.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { ServiceAccount } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { VirtualClock, hasStatusCause, isApiError, namespaceTerminatingCause } from '../../core/index.ts';
import { ServiceAccountsController } from './controller.ts';

test('default ServiceAccounts: made in every active namespace, remade when deleted, none in a terminating one', async () => {
  const clock = new VirtualClock();
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  const accounts = async (namespace: string): Promise<string[]> => (await client.list<ServiceAccount>(refs.serviceAccounts, { namespace })).items.map((sa) => sa.metadata.name ?? '');
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaving' } });
  // No namespace controller: the deleted namespace stays Terminating behind its `kubernetes` finalizer.
  await client.delete(refs.namespaces, undefined, 'leaving');
  const controller = new ServiceAccountsController({ client, clock, log: () => {} });
  controller.start();
  try {
    await clock.advance(100);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team-a']) assert.deepEqual(await accounts(ns), ['default'], ns);
    assert.deepEqual(await accounts('leaving'), []);

    await client.delete(refs.serviceAccounts, 'team-a', 'default');
    await clock.advance(100);
    assert.deepEqual(await accounts('team-a'), ['default'], 'made again');

    await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    await clock.advance(100);
    assert.deepEqual(await accounts('team-b'), ['default']);

    const refused = await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'leaving' } }).catch((error: unknown) => error);
    assert.ok(isApiError(refused) && refused.reason === 'Forbidden', String(refused));
    assert.equal(refused.message, 'serviceaccounts "default" is forbidden: unable to create new content in namespace leaving because it is being terminated');
    assert.ok(hasStatusCause(refused, namespaceTerminatingCause));
    assert.deepEqual(refused.toStatus().details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace leaving is being terminated', field: 'metadata.namespace' }]);
  } finally {
    controller.stop();
  }
});
