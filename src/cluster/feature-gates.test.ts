// The cluster config's featureGates reach the API server and the scheduler: scenario tests on
// the VirtualClock with one DRA-only H100 node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Pod, resourceV1 } from '../api/index.ts';
import { SeededRandom } from '../core/index.ts';
import { buildInventory, nodeSelectorMatches, resultDeviceIds, searchClaims } from '../dra/index.ts';
import { Scheduler, dynamicResourcesFactory, inTreeRegistry } from '../scheduler/index.ts';
import { claim, claimPod, listClaims, startDraScenario, waitRunning, waitUnschedulable } from '../../test/dra-scenario.ts';

const oneH100 = `- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 2, mig: none, expose: dra}\n`;

const gpuPod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'cuda', namespace: 'default' },
  spec: { containers: [{ name: 'cuda', image: 'nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04', resources: { limits: { 'nvidia.com/gpu': '1' } } }] },
};

test('DRAExtendedResource off: nvidia.com/gpu on a DRA-only node is Insufficient and no claim is made; on: the pod runs on its generated claim', async () => {
  {
    await using s = await startDraScenario(oneH100, 7, { DRAExtendedResource: false });
    await s.cluster.client.create(refs.pods, gpuPod, { namespace: 'default' });
    const message = await waitUnschedulable(s, 'cuda');
    assert.equal(message, '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    assert.deepEqual(await listClaims(s), []);
    // The driver's chart sets extendedResourceName; the API server dropped it.
    const cls = await s.cluster.client.get<resourceV1.DeviceClass>(refs.deviceClasses, undefined, 'gpu.nvidia.com');
    assert.equal(cls.spec.extendedResourceName, undefined);
  }
  {
    await using s = await startDraScenario(oneH100, 7, { DRAExtendedResource: true });
    await s.cluster.client.create(refs.pods, gpuPod, { namespace: 'default' });
    const pod = await waitRunning(s, 'cuda');
    const [generated, ...more] = await listClaims(s);
    assert.equal(more.length, 0);
    assert.match(generated?.metadata.name ?? '', /^cuda-extended-resources-[a-z0-9]{5}$/);
    assert.equal(pod.status?.extendedResourceClaimStatus?.resourceClaimName, generated?.metadata.name);
  }
});

// A scheduler started with gates the API server has on sees what was written while they were on
// (as after a restart with a gate turned off): it must refuse it itself.
test('a scheduler with DRAPrioritizedList and DRAExtendedResource off: subrequests fail PreFilter, nvidia.com/gpu is Insufficient', async () => {
  await using s = await startDraScenario(oneH100);
  const registry = { ...inTreeRegistry, DynamicResources: dynamicResourcesFactory({ buildInventory, nodeSelectorMatches, resultDeviceIds, searchClaims }) };
  const featureGates = { ...s.cluster.config.featureGates, DRAPrioritizedList: false, DRAExtendedResource: false };
  const sched = new Scheduler({ client: s.cluster.client, clock: s.clock, random: new SeededRandom(1), registry, featureGates, config: { profiles: [{ schedulerName: 'gates-off' }] } });
  sched.start();
  try {
    await s.cluster.client.create(refs.resourceClaims, claim('any', { devices: { requests: [{ name: 'gpu', firstAvailable: [{ name: 'h100', deviceClassName: 'gpu.nvidia.com' }] }] } }), { namespace: 'default' });
    await s.cluster.client.create(refs.pods, claimPod('p', { resourceClaimName: 'any' }, { schedulerName: 'gates-off' }), { namespace: 'default' });
    await s.cluster.client.create(refs.pods, { ...gpuPod, spec: { ...gpuPod.spec, schedulerName: 'gates-off' } }, { namespace: 'default' });
    assert.equal(
      await waitUnschedulable(s, 'p'),
      '0/1 nodes are available: resource claim default/any, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    assert.equal(await waitUnschedulable(s, 'cuda'), '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    assert.deepEqual((await listClaims(s)).map((c) => c.metadata.name), ['any']);
  } finally {
    await sched.stop();
  }
});
