// Scenario tests of the device-taint-eviction controller with the scheduler, the claim controller
// and kubelets on a VirtualClock. The devices are a test driver's (example.com): the simulated
// NVIDIA driver puts back any edit of its own slices, as its kubelet plugin does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Pod, resourceV1 } from '../../api/index.ts';
import { claim, claimPod, claimSpec, events, eventually, getClaim, getPod, startDraScenario } from '../resourceclaim/scenario.test-helpers.ts';
import type { Scenario } from '../resourceclaim/scenario.test-helpers.ts';

const cpuNode = `- name: cpu\n  count: 1\n  capacity: {cpu: "16", memory: 64Gi}\n`;
const taintKey = 'example.com/unhealthy';

async function setUp(s: Scenario, tolerations: resourceV1.DeviceToleration[] = []): Promise<Pod> {
  const c = s.cluster.client;
  await c.create(refs.deviceClasses, { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'example.com' }, spec: { selectors: [{ cel: { expression: "device.driver == 'example.com'" } }] } });
  await c.create(refs.resourceSlices, {
    apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'example' },
    spec: { driver: 'example.com', nodeName: 'cpu-0', pool: { name: 'cpu-0', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'd0' }] },
  });
  await c.create(refs.resourceClaims, claim('dev', claimSpec('example.com', 1, tolerations.length > 0 ? { tolerations } : {})), { namespace: 'default' });
  // The container takes 20s to stop, so the terminating pod shows its condition that long.
  const pod = claimPod('p1', { resourceClaimName: 'dev' });
  pod.metadata.annotations = { 'sim.drydock.dev/c': 'stopDelay: 20s' };
  await c.create(refs.pods, pod, { namespace: 'default' });
  return eventually(s.clock, async () => {
    const pod = await getPod(s, 'p1');
    const reserved = (await getClaim(s, 'dev')).status?.reservedFor?.some((r) => r.uid === pod.metadata.uid);
    return pod.spec.nodeName === 'cpu-0' && reserved && pod;
  }, 'p1 scheduled with its claim reserved');
}

async function setTaints(s: Scenario, taints: resourceV1.DeviceTaint[]): Promise<void> {
  const slice = await s.cluster.client.get<resourceV1.ResourceSlice>(refs.resourceSlices, undefined, 'example');
  await s.cluster.client.update(refs.resourceSlices, { ...slice, spec: { ...slice.spec, devices: [{ name: 'd0', ...(taints.length > 0 ? { taints } : {}) }] } });
}

async function podGoneOrDeleting(s: Scenario, uid: string | undefined): Promise<Pod | true | undefined> {
  try {
    const pod = await getPod(s, 'p1');
    if (pod.metadata.uid !== uid) return true;
    return pod.metadata.deletionTimestamp ? pod : undefined;
  } catch {
    return true;
  }
}

test('a NoExecute taint on the allocated device deletes the pod, with an event and a DisruptionTarget condition first', async () => {
  await using s = await startDraScenario(cpuNode);
  const pod = await setUp(s);
  await setTaints(s, [{ key: taintKey, value: 'true', effect: 'NoExecute' }]);
  const deleting = await eventually(s.clock, () => podGoneOrDeleting(s, pod.metadata.uid), 'p1 evicted', 100, 50);
  assert.notEqual(deleting, true, 'still terminating, with its condition to read');
  const condition = (deleting as Pod).status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  assert.deepEqual({ ...condition, lastTransitionTime: undefined }, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByDeviceTaintManager', message: 'Device Taint manager: deleting due to NoExecute taint', lastProbeTime: null, lastTransitionTime: undefined });
  const [event, ...more] = await events(s, 'DeviceTaintManagerEviction');
  assert.equal(more.length, 0);
  assert.equal(event?.type, 'Normal');
  assert.equal(event?.message, 'Marking for deletion');
  assert.equal(event?.source?.component, 'device-taint-eviction-controller');
  assert.deepEqual({ kind: event?.involvedObject.kind, name: event?.involvedObject.name, uid: event?.involvedObject.uid }, { kind: 'Pod', name: 'p1', uid: pod.metadata.uid });
  // The kubelet finishes the deletion; the claim is released.
  await eventually(s.clock, async () => (await podGoneOrDeleting(s, pod.metadata.uid)) === true, 'p1 gone');
  await eventually(s.clock, async () => (await getClaim(s, 'dev')).status?.allocation === undefined, 'claim deallocated');
});

test('a NoExecute toleration with tolerationSeconds delays the eviction until timeAdded plus those seconds', async () => {
  await using s = await startDraScenario(cpuNode);
  const pod = await setUp(s, [{ key: taintKey, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }]);
  await setTaints(s, [{ key: taintKey, value: 'true', effect: 'NoExecute' }]);
  const slice = await s.cluster.client.get<resourceV1.ResourceSlice>(refs.resourceSlices, undefined, 'example');
  const timeAdded = Date.parse(slice.spec.devices?.[0]?.taints?.[0]?.timeAdded ?? '');
  await s.clock.advance(timeAdded + 55_000 - s.clock.now());
  assert.equal(await podGoneOrDeleting(s, pod.metadata.uid), undefined, 'tolerated for 60s');
  assert.equal((await events(s, 'DeviceTaintManagerEviction')).length, 0);
  const deleting = await eventually(s.clock, () => podGoneOrDeleting(s, pod.metadata.uid), 'p1 evicted', 500, 40);
  assert.ok(s.clock.now() >= timeAdded + 60_000);
  assert.notEqual(deleting, true);
  assert.equal((deleting as Pod).status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason, 'DeletionByDeviceTaintManager');
});

test('a NoSchedule taint evicts nobody', async () => {
  await using s = await startDraScenario(cpuNode);
  const pod = await setUp(s);
  await setTaints(s, [{ key: taintKey, value: 'true', effect: 'NoSchedule' }]);
  await s.clock.advance(120_000);
  const after = await getPod(s, 'p1');
  assert.equal(after.metadata.uid, pod.metadata.uid);
  assert.equal(after.metadata.deletionTimestamp, undefined);
  assert.equal(after.status?.conditions?.find((c) => c.type === 'DisruptionTarget'), undefined);
  assert.equal((await events(s, 'DeviceTaintManagerEviction')).length, 0);
});

test('removing the taint before tolerationSeconds run out cancels the eviction, with a Cancelling deletion event', async () => {
  await using s = await startDraScenario(cpuNode);
  const pod = await setUp(s, [{ key: taintKey, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }]);
  await setTaints(s, [{ key: taintKey, value: 'true', effect: 'NoExecute' }]);
  await s.clock.advance(30_000);
  await setTaints(s, []);
  const [cancelled] = await eventually(s.clock, async () => {
    const e = await events(s, 'DeviceTaintManagerEviction');
    return e.length > 0 && e;
  }, 'cancel event');
  assert.equal(cancelled?.message, 'Cancelling deletion');
  assert.equal(cancelled?.source?.component, 'device-taint-eviction-controller');
  await s.clock.advance(120_000);
  const after = await getPod(s, 'p1');
  assert.equal(after.metadata.uid, pod.metadata.uid);
  assert.equal(after.metadata.deletionTimestamp, undefined);
  assert.equal((await events(s, 'DeviceTaintManagerEviction')).length, 1);
});

test('the controller runs only with DRADeviceTaints on', async () => {
  {
    await using s = await startDraScenario(cpuNode);
    assert.ok(s.cluster.components?.running.some((c) => c.name === 'device-taint-eviction-controller'));
  }
  await using off = await startDraScenario(cpuNode, 7, { DRADeviceTaints: false });
  assert.ok(!off.cluster.components?.running.some((c) => c.name === 'device-taint-eviction-controller'));
});
