// Extended resources backed by DRA: `nvidia.com/gpu: 1` on nodes that expose GPUs only through DRA
// is served by the gpu.nvidia.com DeviceClass (extendedResourceName) through a special claim.
// Table tests for the pure mapping and request naming; scenario tests on the VirtualClock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Pod, resourceV1 } from '../../api/index.ts';
import { createDeviceRequests, createRequestMappings, deviceClassMapping } from './dynamic-resources-extended.ts';
import { eventually, getPod, listClaims, startDraScenario, tail, waitRunning, waitUnschedulable } from './dynamic-resources.test-helpers.ts';

const cls = (name: string, ext: string | undefined, created: string): resourceV1.DeviceClass => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name, creationTimestamp: created },
  spec: ext ? { extendedResourceName: ext } : {},
});

test('deviceClassMapping: implicit names for every class; a shared explicit name goes to the newest class, then the smaller name', () => {
  const cases: [string, resourceV1.DeviceClass[], Record<string, string>][] = [
    ['one class', [cls('gpu.nvidia.com', 'nvidia.com/gpu', '2025-01-01T00:00:00Z')], { 'deviceclass.resource.kubernetes.io/gpu.nvidia.com': 'gpu.nvidia.com', 'nvidia.com/gpu': 'gpu.nvidia.com' }],
    ['newest wins', [cls('a', 'x.com/r', '2025-01-01T00:00:00Z'), cls('b', 'x.com/r', '2025-01-02T00:00:00Z')], { 'deviceclass.resource.kubernetes.io/a': 'a', 'deviceclass.resource.kubernetes.io/b': 'b', 'x.com/r': 'b' }],
    ['same time: smaller name', [cls('d', 'x.com/r', '2025-01-01T00:00:00Z'), cls('c', 'x.com/r', '2025-01-01T00:00:00Z')], { 'deviceclass.resource.kubernetes.io/c': 'c', 'deviceclass.resource.kubernetes.io/d': 'd', 'x.com/r': 'c' }],
  ];
  for (const [what, classes, want] of cases) assert.deepEqual(Object.fromEntries(deviceClassMapping(classes)), want, what);
});

test('createDeviceRequests: container-<i>-request-<j> over initContainers ++ containers and sorted request keys; mappings point back', () => {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [{ name: 'main', image: 'cuda', resources: { requests: { 'nvidia.com/gpu': '2', cpu: '1', memory: '1Gi' } } }],
    },
  };
  const mapping = new Map([['nvidia.com/gpu', 'gpu.nvidia.com']]);
  const requests = createDeviceRequests(pod, ['nvidia.com/gpu'], mapping);
  assert.deepEqual(requests, [{ name: 'container-1-request-2', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 2 } }]);
  assert.deepEqual(createRequestMappings(requests, pod), [{ containerName: 'main', resourceName: 'nvidia.com/gpu', requestName: 'container-1-request-2' }]);
});

const oneH100 = `- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 8, mig: dynamic, expose: dra}\n`;

function gpuPod(name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: { 'sim.drydock.dev/cuda': 'logs: ["GPU $NVIDIA_VISIBLE_DEVICES"]' } },
    spec: { containers: [{ name: 'cuda', image: 'nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04', command: ['sleep', '3600'], resources: { limits: { 'nvidia.com/gpu': '1' } } }] },
  };
}

test('nvidia.com/gpu: 1 on a DRA-only H100 node: a special claim gets a full GPU, the pod status points at it, the container sees its uuid', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  await c.create(refs.pods, gpuPod('cuda-0'), { namespace: 'default' });
  const pod = await waitRunning(s, 'cuda-0');
  assert.equal(pod.spec.nodeName, 'h100-0');
  const [claim, ...more] = await listClaims(s);
  assert.equal(more.length, 0);
  assert.ok(claim);
  assert.match(claim.metadata.name ?? '', /^cuda-0-extended-resources-[a-z0-9]{5}$/);
  assert.deepEqual(claim.metadata.annotations, { 'resource.kubernetes.io/extended-resource-claim': 'true' });
  assert.deepEqual(claim.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'cuda-0', uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(claim.metadata.finalizers, ['resource.kubernetes.io/delete-protection']);
  assert.deepEqual(claim.spec.devices?.requests, [{ name: 'container-0-request-0', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 } }]);
  const result = claim.status?.allocation?.devices?.results?.[0];
  assert.deepEqual({ request: result?.request, driver: result?.driver, pool: result?.pool }, { request: 'container-0-request-0', driver: 'gpu.nvidia.com', pool: 'h100-0' });
  assert.match(result?.device ?? '', /^gpu-\d$/);
  assert.deepEqual(claim.status?.reservedFor, [{ resource: 'pods', name: 'cuda-0', uid: pod.metadata.uid }]);
  assert.deepEqual(pod.status?.extendedResourceClaimStatus, { resourceClaimName: claim.metadata.name, requestMappings: [{ containerName: 'cuda', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-0' }] });
  const slices = (await c.list<resourceV1.ResourceSlice>(refs.resourceSlices)).items;
  const uuid = slices.flatMap((sl) => sl.spec.devices ?? []).find((d) => d.name === result?.device)?.attributes?.uuid?.string;
  const lines = s.cluster.podLogs.kubelet('h100-0')?.worker('default', 'cuda-0')?.logsOf('cuda')?.current?.lines().map((l) => l.text);
  assert.deepEqual(lines, [`GPU ${uuid ?? '?'}`]);
});

test('nine nvidia.com/gpu: 1 pods on one 8-GPU DRA node: eight run on distinct GPUs, the ninth is Pending with the upstream message', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  for (let i = 0; i < 9; i++) await c.create(refs.pods, gpuPod(`cuda-${i}`), { namespace: 'default' });
  await eventually(s.clock, async () => {
    const pods = (await c.list<Pod>(refs.pods, { namespace: 'default' })).items;
    return pods.filter((p) => p.status?.phase === 'Running').length === 8;
  }, 'eight running');
  const pods = await Promise.all([...Array(9).keys()].map((i) => getPod(s, `cuda-${i}`)));
  const pending = pods.filter((p) => !p.spec.nodeName);
  assert.equal(pending.length, 1);
  const message = await waitUnschedulable(s, pending[0]?.metadata.name ?? '');
  assert.equal(message, `0/1 nodes are available: 1 cannot allocate all claims.${tail(1)}`);
  const devices = (await listClaims(s)).map((cl) => cl.status?.allocation?.devices?.results?.[0]?.device).sort();
  assert.deepEqual(devices, ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
});

test('a finished pod gives back the GPU its extended-resource claim held: the claim is deallocated and deleted, and a waiting pod runs', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  for (let i = 0; i < 7; i++) await c.create(refs.pods, gpuPod(`cuda-${i}`), { namespace: 'default' });
  await eventually(s.clock, async () => (await c.list<Pod>(refs.pods, { namespace: 'default' })).items.filter((p) => p.status?.phase === 'Running').length === 7, 'seven running');
  const done = gpuPod('done');
  done.spec = { ...done.spec, restartPolicy: 'Never', containers: [{ ...done.spec.containers[0]!, command: ['sleep', '5'] }] };
  await c.create(refs.pods, done, { namespace: 'default' });
  await eventually(s.clock, async () => (await getPod(s, 'done')).status?.phase === 'Succeeded', 'Succeeded');
  await eventually(s.clock, async () => !(await listClaims(s)).some((cl) => cl.metadata.name?.startsWith('done-')), 'its claim deleted while the pod stays');
  await c.create(refs.pods, gpuPod('next'), { namespace: 'default' });
  await waitRunning(s, 'next');
  assert.equal((await getPod(s, 'done')).status?.phase, 'Succeeded');
});
