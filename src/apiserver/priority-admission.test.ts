// The Priority admission plugin as a user meets it: a pod takes its class's priority and preemption
// policy, a pod spelling out different ones is refused in upstream's words, and only one
// PriorityClass may be the global default. In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import { rejection } from './api-error.test-support.ts';

const priorityClass = (name: string, value: number, extra: object = {}): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
const pod = (name: string, spec: Partial<Pod['spec']>): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

test('a pod gets its class priority and policy, and one asking for others is refused', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.priorityClasses, priorityClass('batch', 100, { preemptionPolicy: 'Never' }));
  const created = await client.create<Pod>(refs.pods, pod('ok', { priorityClassName: 'batch' }));
  assert.deepEqual([created.spec.priority, created.spec.preemptionPolicy], [100, 'Never']);
  const refused = async (p: Pod): Promise<[string, number | undefined]> => {
    const error = await rejection(client.create(refs.pods, p));
    return [error.message, error.code];
  };
  assert.deepEqual(await refused(pod('hand-set', { priorityClassName: 'batch', priority: 7 })), [
    'pods "hand-set" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name',
    403,
  ]);
  assert.deepEqual(await refused(pod('preempts', { priorityClassName: 'batch', preemptionPolicy: 'PreemptLowerPriority' })), [
    'pods "preempts" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    403,
  ]);
});

test('only one PriorityClass may be the global default', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.priorityClasses, priorityClass('normal', 10, { globalDefault: true }));
  const error = await rejection(client.create(refs.priorityClasses, priorityClass('other', 20, { globalDefault: true })));
  assert.deepEqual([error.message, error.code], ['priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass normal is already marked as default. Only one default can exist', 403]);
  const normal = await client.get(refs.priorityClasses, '', 'normal');
  await client.update(refs.priorityClasses, { ...normal, description: 'still the default' });
});

test('a class written or deleted just before a pod decides its priority, the global default too', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const plain = await client.create<Pod>(refs.pods, pod('plain', {}));
  assert.deepEqual([plain.spec.priority, plain.spec.priorityClassName, plain.spec.preemptionPolicy], [0, undefined, 'PreemptLowerPriority']);
  const early = await rejection(client.create(refs.pods, pod('early', { priorityClassName: 'batch' })));
  assert.deepEqual([early.message, early.code], ['pods "early" is forbidden: no PriorityClass with name batch was found', 403]);
  await client.create(refs.priorityClasses, priorityClass('batch', 100));
  const batch = await client.create<Pod>(refs.pods, pod('batch', { priorityClassName: 'batch' }));
  assert.deepEqual([batch.spec.priority, batch.spec.preemptionPolicy], [100, 'PreemptLowerPriority']);
  // A global default written after 'batch' though it sorts before it.
  await client.create(refs.priorityClasses, priorityClass('aa-default', 10, { globalDefault: true }));
  const defaulted = await client.create<Pod>(refs.pods, pod('defaulted', {}));
  assert.deepEqual([defaulted.spec.priority, defaulted.spec.priorityClassName], [10, 'aa-default']);
  await client.delete(refs.priorityClasses, '', 'aa-default');
  const after = await client.create<Pod>(refs.pods, pod('after', {}));
  assert.deepEqual([after.spec.priority, after.spec.priorityClassName], [0, undefined]);
});

test('a class updated between two pods (made the global default) decides the second pod', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  const batch = await client.create(refs.priorityClasses, priorityClass('batch', 100));
  const first = await client.create<Pod>(refs.pods, pod('first', {}));
  assert.deepEqual([first.spec.priority, first.spec.priorityClassName], [0, undefined]);
  await client.update(refs.priorityClasses, { ...batch, globalDefault: true });
  const second = await client.create<Pod>(refs.pods, pod('second', {}));
  assert.deepEqual([second.spec.priority, second.spec.priorityClassName], [100, 'batch']);
});
