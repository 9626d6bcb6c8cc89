// The RuntimeClass admission plugin on pod create: overhead and scheduling copied from the class,
// upstream's refusals for a missing class, a different overhead, an overhead without a class and
// a conflicting node selector. In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';

test('pods naming a RuntimeClass take its overhead and scheduling; upstream refusals otherwise', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.runtimeClasses, {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'gpu-fast' },
    handler: 'nvidia',
    overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    scheduling: { nodeSelector: { 'nvidia.com/gpu.present': 'true' }, tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }] },
  });
  const pod = (name: string, spec: Partial<Pod['spec']>): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  const created = await client.create<Pod>(refs.pods, pod('fast', { runtimeClassName: 'gpu-fast', nodeSelector: { zone: 'a' }, overhead: { cpu: '0.25', memory: '64Mi' } }));
  assert.deepEqual(created.spec.overhead, { cpu: '250m', memory: '64Mi' });
  assert.deepEqual(created.spec.nodeSelector, { zone: 'a', 'nvidia.com/gpu.present': 'true' });
  assert.deepEqual(created.spec.tolerations?.at(-1), { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' });

  const refusal = async (p: Pod): Promise<string> => {
    const error = await client.create(refs.pods, p).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.reason === 'Forbidden', String(error));
    return error.message;
  };
  assert.equal(await refusal(pod('a', { runtimeClassName: 'gvisor' })), 'pods "a" is forbidden: pod rejected: RuntimeClass "gvisor" not found');
  assert.equal(await refusal(pod('b', { runtimeClassName: 'gpu-fast', overhead: { cpu: '1' } })), `pods "b" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`);
  assert.equal(await refusal(pod('c', { overhead: { cpu: '1' } })), 'pods "c" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  assert.equal(await refusal(pod('d', { runtimeClassName: 'gpu-fast', nodeSelector: { 'nvidia.com/gpu.present': 'false' } })), 'pods "d" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[nvidia.com/gpu.present] = true; pod.spec.nodeSelector[nvidia.com/gpu.present] = false');
});
