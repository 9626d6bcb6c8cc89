// Scenario tests for the kubelet's DRA side (VirtualClock): containers wait, ContainerCreating with
// FailedPrepareDynamicResources, until the pod's claims are reserved for it; then the container's
// environment names the devices it got, visible through `$NVIDIA_VISIBLE_DEVICES` in its logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Pod, resourceV1 } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

async function start(mig: 'none' | 'dynamic' = 'none'): Promise<{ cluster: Cluster; clock: VirtualClock; [Symbol.asyncDispose](): Promise<void> }> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({
    config: clusterConfigFrom({ nodePools: [{ name: 'h100', count: 1, capacity: { cpu: '96', memory: '1Ti' }, gpus: { model: 'H100-80GB', count: 8, mig, expose: 'dra' } }] }),
    clock,
    random: new SeededRandom(5),
    components: true,
    log: () => {},
  });
  return { cluster, clock, [Symbol.asyncDispose]: () => cluster.stop() };
}

async function until(clock: VirtualClock, pred: () => Promise<boolean>, maxMs = 60_000): Promise<void> {
  for (let t = 0; t <= maxMs; t += 100) {
    if (await pred()) return;
    await clock.advance(100);
  }
  throw new Error('condition not reached');
}

const claim = (name: string, deviceClassName: string): resourceV1.ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace: 'default' },
  spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName } }] } },
});

function gpuPod(name: string, claimName: string, nodeName?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: { 'sim.drydock.dev/app': 'logs: ["GPUs: $NVIDIA_VISIBLE_DEVICES", "mode ${MODE}, cost $$5"]' } },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      resourceClaims: [{ name: 'gpu', resourceClaimName: claimName }],
      containers: [{ name: 'app', image: 'nginx', env: [{ name: 'MODE', value: 'train' }], resources: { claims: [{ name: 'gpu' }] } }],
    },
  };
}

const getPod = (c: Cluster, name: string): Promise<Pod> => c.client.get<Pod>(refs.pods, 'default', name);
const logLines = (c: Cluster, pod: Pod): string[] =>
  c.podLogs.kubelet(pod.spec.nodeName ?? '')?.worker('default', pod.metadata.name ?? '')?.logsOf('app')?.current?.lines().map((l) => l.text) ?? [];

test('a scheduled GPU pod: its container sees the allocated GPU uuid from the ResourceSlice', async () => {
  await using s = await start();
  const c = s.cluster.client;
  await c.create(refs.resourceClaims, claim('one-gpu', 'gpu.nvidia.com'), { namespace: 'default' });
  await c.create(refs.pods, gpuPod('trainer', 'one-gpu'), { namespace: 'default' });
  await until(s.clock, async () => !!(await getPod(s.cluster, 'trainer')).status?.containerStatuses?.[0]?.state?.running);
  const allocated = (await c.get<resourceV1.ResourceClaim>(refs.resourceClaims, 'default', 'one-gpu')).status?.allocation?.devices?.results?.[0];
  const slices = (await c.list<resourceV1.ResourceSlice>(refs.resourceSlices)).items;
  const uuid = slices.flatMap((sl) => sl.spec.devices ?? []).find((d) => d.name === allocated?.device)?.attributes?.uuid?.string;
  assert.match(uuid ?? '', /^GPU-/);
  assert.deepEqual(logLines(s.cluster, await getPod(s.cluster, 'trainer')), [`GPUs: ${uuid}`, 'mode train, cost $5']);
});

test('a pod bound to the node before its claim is reserved: ContainerCreating with FailedPrepareDynamicResources, then retried at the sync frequency', async () => {
  await using s = await start();
  const c = s.cluster.client;
  // No claim yet: the kubelet cannot fetch it.
  await c.create(refs.pods, gpuPod('early', 'later-gpu', 'h100-0'), { namespace: 'default' });
  const failed = async (): Promise<string[]> =>
    (await c.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === 'early' && e.reason === 'FailedPrepareDynamicResources').map((e) => `${e.type} ${e.message} x${e.count ?? 1}`);
  await until(s.clock, async () => (await failed()).length > 0);
  assert.deepEqual(await failed(), ['Warning Failed to prepare dynamic resources: prepare dynamic resources: fetch ResourceClaim later-gpu: resourceclaims.resource.k8s.io "later-gpu" not found x1']);
  const waiting = (await getPod(s.cluster, 'early')).status?.containerStatuses?.[0]?.state?.waiting?.reason;
  assert.equal(waiting, 'ContainerCreating');
  // The claim exists but is neither allocated nor reserved for the pod.
  const created = await c.create<resourceV1.ResourceClaim>(refs.resourceClaims, claim('later-gpu', 'gpu.nvidia.com'), { namespace: 'default' });
  await s.clock.advance(60_000);
  const pod = await getPod(s.cluster, 'early');
  const messages = (await failed()).map((m) => m.replace(/ x\d+$/, ''));
  assert.ok(messages.includes(`Warning Failed to prepare dynamic resources: prepare dynamic resources: pod early (${pod.metadata.uid ?? ''}) is not allowed to use ResourceClaim later-gpu (${created.metadata.uid ?? ''})`), messages.join('\n'));
  assert.equal(pod.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
});

test('dynamic MIG: the container sees the MIG instance the driver created for the claim, by a uuid of its own', async () => {
  await using s = await start('dynamic');
  const c = s.cluster.client;
  await c.create(refs.resourceClaims, claim('slice', 'mig.nvidia.com'), { namespace: 'default' });
  await c.create(refs.pods, gpuPod('small', 'slice'), { namespace: 'default' });
  await until(s.clock, async () => !!(await getPod(s.cluster, 'small')).status?.containerStatuses?.[0]?.state?.running);
  const device = (await c.get<resourceV1.ResourceClaim>(refs.resourceClaims, 'default', 'slice')).status?.allocation?.devices?.results?.[0]?.device;
  assert.ok(device);
  // A dynamic MIG device publishes no uuid; the instance made for this claim has one.
  const slices = (await c.list<resourceV1.ResourceSlice>(refs.resourceSlices)).items.flatMap((sl) => sl.spec.devices ?? []);
  assert.equal(slices.find((d) => d.name === device)?.attributes?.uuid, undefined);
  assert.match(logLines(s.cluster, await getPod(s.cluster, 'small'))[0] ?? '', /^GPUs: MIG-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('nvidia-smi -L in the container lists what it was given: whole GPUs from 0, a MIG device under its parent GPU', async () => {
  await using s = await start('dynamic');
  const c = s.cluster.client;
  const twoGpus: resourceV1.ResourceClaim = { ...claim('two', 'gpu.nvidia.com'), spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 2 } }] } } };
  const smallSlice: resourceV1.ResourceClaim = { ...claim('small', 'mig.nvidia.com'), spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'mig.nvidia.com', selectors: [{ cel: { expression: "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'" } }] } }] } } };
  await c.create(refs.resourceClaims, twoGpus, { namespace: 'default' });
  await c.create(refs.resourceClaims, smallSlice, { namespace: 'default' });
  // The command of NVIDIA's DRA examples (gpu-test1.yaml and the like).
  const smi = (name: string, claimName: string): Pod => {
    const p = gpuPod(name, claimName);
    return { ...p, metadata: { name, namespace: 'default' }, spec: { ...p.spec, containers: [{ name: 'app', image: 'ubuntu:22.04', command: ['bash', '-c'], args: ["nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait"], resources: { claims: [{ name: 'gpu' }] } }] } };
  };
  await c.create(refs.pods, smi('whole', 'two'), { namespace: 'default' });
  await c.create(refs.pods, smi('mig', 'small'), { namespace: 'default' });
  const running = async (name: string): Promise<boolean> => !!(await getPod(s.cluster, name)).status?.containerStatuses?.[0]?.state?.running;
  await until(s.clock, async () => (await running('whole')) && (await running('mig')));
  const slices = (await c.list<resourceV1.ResourceSlice>(refs.resourceSlices)).items.flatMap((sl) => sl.spec.devices ?? []);
  const attribute = (device: string | undefined, name: string): string | undefined => slices.find((d) => d.name === device)?.attributes?.[name]?.string;
  const devicesOf = async (claimName: string): Promise<string[]> => ((await c.get<resourceV1.ResourceClaim>(refs.resourceClaims, 'default', claimName)).status?.allocation?.devices?.results ?? []).map((r) => r.device);
  const [a, b] = await devicesOf('two');
  assert.deepEqual(logLines(s.cluster, await getPod(s.cluster, 'whole')), [
    `GPU 0: NVIDIA H100 80GB HBM3 (UUID: ${attribute(a, 'uuid') ?? ''})`,
    `GPU 1: NVIDIA H100 80GB HBM3 (UUID: ${attribute(b, 'uuid') ?? ''})`,
  ]);
  const [mig] = await devicesOf('small');
  const lines = logLines(s.cluster, await getPod(s.cluster, 'mig'));
  assert.equal(lines[0], `GPU 0: NVIDIA H100 80GB HBM3 (UUID: ${attribute(mig, 'parentUUID') ?? ''})`);
  assert.match(lines[1] ?? '', /^ {2}MIG 1g\.10gb {5}Device {2}0: \(UUID: MIG-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)$/);
  assert.equal(lines.length, 2);
});

test('a device-plugin node hands whole GPUs to containers, lowest free first, and takes them back when the pod ends; MIG resources are only counted', async () => {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({
    config: clusterConfigFrom({
      nodePools: [
        { name: 'legacy', count: 1, capacity: { cpu: '32', memory: '256Gi' }, gpus: { model: 'A100-40GB', count: 4, mig: 'none', expose: 'device-plugin' } },
        { name: 'migs', count: 1, capacity: { cpu: '32', memory: '256Gi' }, gpus: { model: 'A100-40GB', count: 1, mig: ['1g.5gb'], expose: 'device-plugin', migStrategy: 'mixed' } },
      ],
    }),
    clock,
    random: new SeededRandom(5),
    components: true,
    log: () => {},
  });
  try {
    const smi = (name: string, limits: Record<string, string>, script = 'nvidia-smi -L; echo "$NVIDIA_VISIBLE_DEVICES"; sleep infinity'): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'ubuntu:22.04', command: ['sh', '-c', script], resources: { limits } }] },
    });
    const started = async (name: string): Promise<boolean> => {
      const s = (await getPod(cluster, name)).status?.containerStatuses?.[0]?.state;
      return !!(s?.running ?? s?.terminated);
    };
    const c = cluster.client;
    await c.create(refs.pods, smi('two', { 'nvidia.com/gpu': '2' }, 'nvidia-smi -L; echo "$NVIDIA_VISIBLE_DEVICES"; sleep 30'), { namespace: 'default' });
    await until(clock, () => started('two'));
    await c.create(refs.pods, smi('one', { 'nvidia.com/gpu': '1' }), { namespace: 'default' });
    await c.create(refs.pods, smi('none', { cpu: '1' }), { namespace: 'default' });
    await c.create(refs.pods, smi('mig', { 'nvidia.com/mig-1g.5gb': '1' }), { namespace: 'default' });
    await until(clock, async () => (await started('one')) && (await started('none')) && (await started('mig')));
    const two = logLines(cluster, await getPod(cluster, 'two'));
    const one = logLines(cluster, await getPod(cluster, 'one'));
    const uuid = (line: string | undefined): string => /\(UUID: (GPU-[0-9a-f-]+)\)$/.exec(line ?? '')?.[1] ?? '';
    assert.match(two[0] ?? '', /^GPU 0: NVIDIA A100-SXM4-40GB \(UUID: GPU-[0-9a-f-]{36}\)$/);
    assert.match(two[1] ?? '', /^GPU 1: NVIDIA A100-SXM4-40GB \(UUID: GPU-[0-9a-f-]{36}\)$/);
    assert.equal(two[2], `${uuid(two[0])},${uuid(two[1])}`, 'the plugin names them in NVIDIA_VISIBLE_DEVICES');
    assert.equal(one.length, 2);
    assert.ok(![uuid(two[0]), uuid(two[1])].includes(uuid(one[0])), 'a GPU in use is not handed out twice');
    assert.deepEqual(logLines(cluster, await getPod(cluster, 'none')), ['No devices were found', '']);
    assert.deepEqual(logLines(cluster, await getPod(cluster, 'mig')), [''], 'MIG resources are counted, not assigned: nvidia-smi -L prints nothing');
    // Once "two" has finished, its first GPU is the lowest free one again.
    await until(clock, async () => (await getPod(cluster, 'two')).status?.phase === 'Succeeded');
    await c.create(refs.pods, smi('next', { 'nvidia.com/gpu': '1' }), { namespace: 'default' });
    await until(clock, () => started('next'));
    assert.equal(uuid(logLines(cluster, await getPod(cluster, 'next'))[0]), uuid(two[0]));
  } finally {
    await cluster.stop();
  }
});
