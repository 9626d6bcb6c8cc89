// NamespaceLifecycle: nothing new goes into a namespace being deleted, Events included, as upstream's
// plugin has no exception for them; event writers drop such a refusal without a log line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { quietlyDropped } from '../client/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, hasStatusCause, isApiError, namespaceTerminatingCause } from '../core/index.ts';

test('an Event into a terminating namespace is refused with the NamespaceTerminating cause, and dropped quietly', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaving' } });
  // No namespace controller: the namespace stays Terminating behind its `kubernetes` finalizer.
  await client.delete(refs.namespaces, undefined, 'leaving');
  const involvedObject = { kind: 'Pod', namespace: 'leaving', name: 'web' };
  const core = await client.create(refs.events, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace: 'leaving' }, involvedObject, reason: 'Killing', message: 'Stopping container web' }).catch((e: unknown) => e);
  assert.ok(isApiError(core) && core.code === 403, String(core));
  assert.equal(core.message, 'events "web.1" is forbidden: unable to create new content in namespace leaving because it is being terminated');
  assert.ok(hasStatusCause(core, namespaceTerminatingCause));
  assert.ok(quietlyDropped(core));
  const v1 = await client.create(refs.eventsV1, { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'web.2', namespace: 'leaving' }, eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-x', action: 'Binding', reason: 'Scheduled', regarding: involvedObject, type: 'Normal' }).catch((e: unknown) => e);
  assert.ok(isApiError(v1) && v1.reason === 'Forbidden' && hasStatusCause(v1, namespaceTerminatingCause), String(v1));
  // Another refusal is still worth a log line; a missing namespace answers before the object is validated.
  const missing = await client.create(refs.events, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x.1', namespace: 'nowhere' }, involvedObject, reason: 'R' }).catch((e: unknown) => e);
  assert.ok(isApiError(missing) && missing.reason === 'NotFound' && !quietlyDropped(missing), String(missing));
});

test('a pod create sees its namespace as it is at that moment: just created, then terminating, and one that never was', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const pod = (name: string, namespace: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  // Admission reads namespaces from a store-watched copy once it has one; the first create fills it.
  await client.create(refs.pods, pod('first', 'default'));
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } });
  assert.equal((await client.create<Pod>(refs.pods, pod('web', 'fresh'))).metadata.namespace, 'fresh');
  await client.delete(refs.namespaces, undefined, 'fresh');
  const late = await client.create(refs.pods, pod('late', 'fresh')).catch((e: unknown) => e);
  assert.ok(isApiError(late) && late.code === 403 && hasStatusCause(late, namespaceTerminatingCause), String(late));
  assert.equal(late.message, 'pods "late" is forbidden: unable to create new content in namespace fresh because it is being terminated');
  const nowhere = await client.create(refs.pods, pod('lost', 'nowhere')).catch((e: unknown) => e);
  assert.ok(isApiError(nowhere) && nowhere.code === 404, String(nowhere));
  assert.equal(nowhere.message, 'namespaces "nowhere" not found');
});
