// DRA with the real kubectl: the baseline's MIG claim, a full node of 1g.10gb slices, a
// Deployment with a ResourceClaimTemplate, mixed profiles, a full GPU, NVLink pairs and the
// server-side columns of the resource.k8s.io kinds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'dra');
const fixture = (name: string): string => join(fixtures, name);

const oneMigGpu = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: h100
  count: 1
  capacity: {cpu: "96", memory: 1Ti}
  gpus: {model: H100-80GB, count: 1, mig: dynamic}
`;

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => globalThis.setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Item { metadata: { name: string; uid?: string }; spec?: { nodeName?: string }; status?: Record<string, unknown> & { phase?: string; conditions?: { type: string; status: string; message?: string }[] } }

async function json<T>(dd: Drydock, args: string[]): Promise<T> {
  const r = await dd.kubectl([...args, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

const pod = (name: string, claimSource: Record<string, string>): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { resourceClaims: [{ name: 'mig', ...claimSource }], containers: [{ name: 'cuda', image: 'nvidia/cuda:12.4.0-base-ubuntu22.04', resources: { claims: [{ name: 'mig' }] } }] },
});
const claimJson = (name: string, className: string): string => JSON.stringify({
  apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: 'default' },
  spec: { devices: { requests: [{ name: 'mig', exactly: { count: 1, deviceClassName: className } }] } },
});

describe('DRA on one dynamic-MIG H100 with kubectl', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock({ config: oneMigGpu });
    const r = await dd.kubectl(['apply', '-f', fixture('mig-1g-10gb-class.yaml'), '-f', fixture('mig-mixed.yaml')]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await dd?.stop();
  });

  test('the baseline claim becomes allocated,reserved and names a MIG device; eight pods: seven run, the eighth gets the upstream message', async () => {
    const r = await dd.kubectl(['apply', '-f', fixture('mig-claim.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    await until(async () => (await json<Item>(dd, ['get', 'pod', 'mig-pod'])).status?.phase === 'Running', 'mig-pod Running');
    const got = await dd.kubectl(['get', 'resourceclaim', 'mig-slice', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,STATE:.status.allocation.devices.results[0].device']);
    assert.equal(got.stdout.trim().split(/\s+/)[1], 'gpu-0-mig-1g10gb-19-0');
    const table = await dd.kubectl(['get', 'resourceclaims']);
    assert.match(table.stdout, /^NAME\s+STATE\s+AGE\nmig-slice\s+allocated,reserved\s+\S+\n$/);
    for (let i = 1; i < 8; i++) {
      const c = await dd.kubectl(['create', '-f', '-'], { input: claimJson(`mig-${i}`, 'mig-1g-10gb') });
      assert.equal(c.code, 0, c.stderr);
      const p = await dd.kubectl(['create', '-f', '-'], { input: pod(`p${i}`, { resourceClaimName: `mig-${i}` }) });
      assert.equal(p.code, 0, p.stderr);
    }
    const pods = await until(async () => {
      const l = await json<{ items: Item[] }>(dd, ['get', 'pods']);
      const running = l.items.filter((x) => x.status?.phase === 'Running').length;
      const stuck = l.items.find((x) => x.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'));
      return running === 7 && stuck && l;
    }, 'seven running, one unschedulable');
    const stuck = pods.items.find((x) => !x.spec?.nodeName);
    const cond = stuck?.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(cond?.message, '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    const states = await dd.kubectl(['get', 'resourceclaims', '--no-headers', '-o', 'custom-columns=STATE:.status.reservedFor[0].name']);
    assert.equal(states.stdout.trim().split('\n').filter((l) => l !== '<none>').length, 7);
    const del = await dd.kubectl(['delete', 'pods', '--all', '--grace-period=0', '--force']);
    assert.equal(del.code, 0, del.stderr);
    await dd.kubectl(['delete', 'resourceclaims', '--all', '--wait=true']);
  });

  test('a Deployment with a ResourceClaimTemplate gets one claim per pod; scaling down deletes them', async () => {
    const r = await dd.kubectl(['apply', '-f', fixture('mig-deployment.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    const claims = await until(async () => {
      const l = await json<{ items: (Item & { metadata: { name: string; ownerReferences?: { name: string }[] } })[] }>(dd, ['get', 'resourceclaims']);
      const allocated = l.items.filter((c) => c.status?.['allocation']);
      return allocated.length === 3 && allocated;
    }, 'three allocated claims');
    for (const c of claims) {
      const owner = c.metadata.ownerReferences?.[0]?.name ?? '';
      assert.ok(c.metadata.name.startsWith(`${owner}-mig-`) && c.metadata.name.length === owner.length + 10, c.metadata.name);
    }
    assert.equal((await dd.kubectl(['scale', 'deployment', 'inference', '--replicas=1'])).code, 0);
    await until(async () => (await json<{ items: Item[] }>(dd, ['get', 'resourceclaims'])).items.length === 1, 'one claim left');
    await dd.kubectl(['delete', 'deployment', 'inference']);
    await until(async () => (await json<{ items: Item[] }>(dd, ['get', 'resourceclaims'])).items.length === 0, 'no claims');
  });

  test("a claim template's own CEL selector (a 1g.10gb slice with at least 9Gi): the pod gets one and sees it; at least 20Gi gets the upstream message", async () => {
    const manifest = readFileSync(fixture('mig-selector-template.yaml'), 'utf8');
    assert.equal((await dd.kubectl(['apply', '-f', '-'], { input: manifest })).code, 0);
    await until(async () => (await json<Item>(dd, ['get', 'pod', 'embedder'])).status?.phase === 'Running', 'embedder Running');
    const statuses = (await json<Item>(dd, ['get', 'pod', 'embedder'])).status?.['resourceClaimStatuses'] as { name: string; resourceClaimName: string }[];
    assert.equal(statuses[0]?.name, 'mig');
    const claim = await json<{ status: { allocation: { devices: { results: unknown[] } } } }>(dd, ['get', 'resourceclaim', statuses[0]?.resourceClaimName ?? '']);
    assert.deepEqual(claim.status.allocation.devices.results, [{ request: 'mig', driver: 'gpu.nvidia.com', pool: 'h100-0', device: 'gpu-0-mig-1g10gb-19-0' }]);
    const smi = await dd.kubectl(['exec', 'embedder', '--', 'nvidia-smi', '-L']);
    assert.equal(smi.code, 0, smi.stderr);
    const mig = /^GPU 0: NVIDIA H100 80GB HBM3 \(UUID: GPU-[0-9a-f-]+\)\n {2}MIG 1g\.10gb {5}Device {2}0: \(UUID: (MIG-[0-9a-f-]+)\)\n$/.exec(smi.stdout);
    assert.ok(mig, smi.stdout);
    assert.equal((await dd.kubectl(['logs', 'embedder'])).stdout, `visible: ${mig[1]}\n`);

    const tooBig = manifest.replace("quantity('9Gi')", "quantity('20Gi')").replace(/mig-1g\n/g, 'mig-1g-20gi\n').replace('name: embedder\n', 'name: embedder-20gi\n');
    assert.equal((await dd.kubectl(['apply', '-f', '-'], { input: tooBig })).code, 0);
    const cond = await until(async () => (await json<Item>(dd, ['get', 'pod', 'embedder-20gi'])).status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False'), 'embedder-20gi unschedulable');
    assert.equal(cond.message, '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    await dd.kubectl(['delete', 'pods', 'embedder', 'embedder-20gi', '--grace-period=0', '--force']);
    await dd.kubectl(['delete', 'resourceclaimtemplates', 'mig-1g', 'mig-1g-20gi']);
    await until(async () => (await json<{ items: Item[] }>(dd, ['get', 'resourceclaims'])).items.length === 0, 'no claims');
  });

  test('4g.40gb + 3g.40gb fit, a second 4g.40gb does not; a full GPU excludes MIG devices', async () => {
    for (const [n, cls] of [['big', 'mig-4g-40gb'], ['mid', 'mig-3g-40gb'], ['big2', 'mig-4g-40gb']] as const) {
      assert.equal((await dd.kubectl(['create', '-f', '-'], { input: claimJson(n, cls) })).code, 0);
      assert.equal((await dd.kubectl(['create', '-f', '-'], { input: pod(n, { resourceClaimName: n }) })).code, 0);
    }
    const devices = await until(async () => {
      const l = await json<{ items: { metadata: { name: string }; status?: { allocation?: { devices?: { results?: { device: string }[] } } } }[] }>(dd, ['get', 'resourceclaims']);
      const m = new Map(l.items.map((c) => [c.metadata.name, c.status?.allocation?.devices?.results?.[0]?.device]));
      return m.get('big') && m.get('mid') ? m : undefined;
    }, 'big and mid allocated');
    assert.equal(devices.get('big'), 'gpu-0-mig-4g40gb-5-0');
    assert.equal(devices.get('mid'), 'gpu-0-mig-3g40gb-9-4');
    const msg = await until(async () => (await json<Item>(dd, ['get', 'pod', 'big2'])).status?.conditions?.find((c) => c.type === 'PodScheduled')?.message, 'big2 message');
    assert.equal(msg, '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    assert.equal((await dd.kubectl(['apply', '-f', fixture('full-gpu-claim.yaml')])).code, 0);
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: pod('whole', { resourceClaimName: 'whole-gpu' }) })).code, 0);
    const whole = await until(async () => (await json<Item>(dd, ['get', 'pod', 'whole'])).status?.conditions?.find((c) => c.type === 'PodScheduled')?.message, 'whole message');
    assert.match(whole ?? '', /^0\/1 nodes are available: 1 cannot allocate all claims\./);
    await dd.kubectl(['delete', 'pods', '--all', '--grace-period=0', '--force']);
    await dd.kubectl(['delete', 'resourceclaims', '--all', '--wait=true']);
  });

  test('kubectl get resourceslices,resourceclaims,deviceclasses prints the upstream columns', async () => {
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: claimJson('idle', 'mig-1g-10gb') })).code, 0);
    const r = await dd.kubectl(['get', 'resourceslices,resourceclaims,deviceclasses']);
    assert.equal(r.code, 0, r.stderr);
    const blocks = r.stdout.trim().split('\n\n');
    assert.match(blocks[0] ?? '', /^NAME\s+NODE\s+DRIVER\s+POOL\s+AGE\n/);
    assert.match(blocks[0] ?? '', /\nresourceslice\.resource\.k8s\.io\/\S+\s+h100-0\s+gpu\.nvidia\.com\s+h100-0\s+\S+/);
    assert.match(blocks[1] ?? '', /^NAME\s+STATE\s+AGE\nresourceclaim\.resource\.k8s\.io\/idle\s+pending\s+\S+$/);
    assert.match(blocks[2] ?? '', /^NAME\s+AGE\n/);
    for (const name of ['gpu.nvidia.com', 'mig.nvidia.com', 'mig-1g-10gb']) assert.match(blocks[2] ?? '', new RegExp(`\\ndeviceclass\\.resource\\.k8s\\.io/${name.replace(/\./g, '\\.')}\\s`));
    await dd.kubectl(['delete', 'resourceclaim', 'idle']);
  });

  test('a selector that does not type-check is refused at create with the upstream compiler message', async () => {
    const bad = JSON.stringify({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'typo', namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', selectors: [{ cel: { expression: "device.attributes['gpu.nvidia.com'].productName == 'H100' && devcie.driver == 'gpu.nvidia.com'" } }] } }] } },
    });
    const r = await dd.kubectl(['create', '-f', '-'], { input: bad });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The ResourceClaim "typo" is invalid: spec\.devices\.requests\[0\]\.exactly\.selectors\[0\]\.cel\.expression: Invalid value: .*compilation failed: ERROR: <input>:1:\d+: undeclared reference to 'devcie' \(in container ''\)/);
    assert.equal((await dd.kubectl(['get', 'resourceclaim', 'typo'])).code, 1);
  });

  test("a ResourceSlice's node selector is validated as a pod's node affinity is", async () => {
    const slice = (operator: string): string => JSON.stringify({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: `zone-${operator.toLowerCase()}` },
      spec: { driver: 'example.com', pool: { name: 'zone-a', generation: 1, resourceSliceCount: 1 }, nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator, values: ['a'] }] }] }, devices: [{ name: 'nic-0' }] },
    });
    const r = await dd.kubectl(['create', '-f', '-'], { input: slice('Near') });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The ResourceSlice "zone-near" is invalid: spec\.nodeSelector\.nodeSelectorTerms\[0\]\.matchExpressions\[0\]\.operator: Invalid value: "Near": not a valid selector operator/);
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: slice('In') })).code, 0);
    assert.equal((await dd.kubectl(['delete', 'resourceslice', 'zone-in'])).code, 0);
  });

  test('admin access to devices needs the namespace label, for a claim and a claim template alike', async () => {
    assert.equal((await dd.kubectl(['create', 'namespace', 'gpu-admin'])).code, 0);
    const devices = { requests: [{ name: 'all', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', adminAccess: true } }] };
    const claim = JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'monitor', namespace: 'gpu-admin' }, spec: { devices } });
    const template = JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: 'monitor', namespace: 'gpu-admin' }, spec: { spec: { devices } } });
    const refused = '`resource.kubernetes.io/admin-access: true` label on the containing namespace';
    let r = await dd.kubectl(['create', '-f', '-'], { input: claim });
    assert.equal(r.stderr.trim(), `The ResourceClaim "monitor" is invalid: spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the ${refused}`);
    r = await dd.kubectl(['create', '-f', '-'], { input: template });
    assert.equal(r.stderr.trim(), `The ResourceClaimTemplate "monitor" is invalid: spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the ${refused}`);
    assert.equal((await dd.kubectl(['label', 'namespace', 'gpu-admin', 'resource.kubernetes.io/admin-access=true'])).code, 0);
    r = await dd.kubectl(['create', '-f', '-'], { input: claim });
    assert.equal(r.stdout.trim(), 'resourceclaim.resource.k8s.io/monitor created', r.stderr);
    r = await dd.kubectl(['create', '-f', '-'], { input: template });
    assert.equal(r.stdout.trim(), 'resourceclaimtemplate.resource.k8s.io/monitor created', r.stderr);
    // The label gone, an allocation granting admin access is refused too (AuthorizedForAdminStatus)...
    assert.equal((await dd.kubectl(['label', 'namespace', 'gpu-admin', 'resource.kubernetes.io/admin-access-'])).code, 0);
    const allocation = JSON.stringify({ status: { allocation: { devices: { results: [{ request: 'all', driver: 'gpu.nvidia.com', pool: 'h100-0', device: 'gpu-0', adminAccess: true }] } } } });
    const grant = ['patch', 'resourceclaim', 'monitor', '-n', 'gpu-admin', '--subresource=status', '--type=merge', '-p', allocation];
    r = await dd.kubectl(grant);
    assert.equal(r.stderr.trim(), `The ResourceClaim "monitor" is invalid: status.allocation.devices.results[0].adminAccess: Forbidden: admin access to devices requires the ${refused}`);
    // ...while one already granted stays writable (status.allocation is immutable once set).
    assert.equal((await dd.kubectl(['label', 'namespace', 'gpu-admin', 'resource.kubernetes.io/admin-access=true'])).code, 0);
    assert.equal((await dd.kubectl(grant)).code, 0);
    assert.equal((await dd.kubectl(['label', 'namespace', 'gpu-admin', 'resource.kubernetes.io/admin-access-'])).code, 0);
    r = await dd.kubectl(['patch', 'resourceclaim', 'monitor', '-n', 'gpu-admin', '--subresource=status', '--type=merge', '-p', '{"status":{"reservedFor":[]}}']);
    assert.equal(r.code, 0, r.stderr);
  });
});

describe('NVLink pairs with kubectl', () => {
  test('two GPUs with matchAttribute on the NVLink domain land in one domain', async () => {
    await using dd = await startDrydock({ config: `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 4, nvlinkDomainSize: 2}\n` });
    assert.equal((await dd.kubectl(['apply', '-f', fixture('nvlink-pair-claim.yaml')])).code, 0);
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: pod('tp', { resourceClaimName: 'tp-pair' }) })).code, 0);
    const results = await until(async () => {
      const c = await json<{ status?: { allocation?: { devices?: { results?: { device: string }[] } } } }>(dd, ['get', 'resourceclaim', 'tp-pair']);
      return c.status?.allocation?.devices?.results;
    }, 'tp-pair allocated');
    assert.deepEqual(results.map((r) => r.device), ['gpu-0', 'gpu-1']);
  });
});

describe('GPU devices inside the container with kubectl', () => {
  test('a claim pod and an nvidia.com/gpu pod on a DRA-only H100: kubectl logs shows the GPU uuid each got', async () => {
    await using dd = await startDrydock({ config: `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 2, mig: none}\n` });
    assert.equal((await dd.kubectl(['apply', '-f', fixture('full-gpu-claim.yaml'), '-f', fixture('gpu-extended-resource-pod.yaml')])).code, 0);
    const claimPod = JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'trainer', namespace: 'default', annotations: { 'sim.drydock.dev/cuda': 'logs: ["GPU $NVIDIA_VISIBLE_DEVICES"]' } },
      spec: { resourceClaims: [{ name: 'gpu', resourceClaimName: 'whole-gpu' }], containers: [{ name: 'cuda', image: 'nvidia/cuda:12.4.0-base-ubuntu22.04', resources: { claims: [{ name: 'gpu' }] } }] },
    });
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: claimPod })).code, 0);
    for (const name of ['trainer', 'cuda-smi']) await until(async () => (await json<Item>(dd, ['get', 'pod', name])).status?.phase === 'Running', `${name} Running`);
    const slices = await json<{ items: { spec: { devices?: { name: string; attributes?: { uuid?: { string?: string } } }[] } }[] }>(dd, ['get', 'resourceslices']);
    const uuidOf = (device: string | undefined): string | undefined => slices.items.flatMap((s) => s.spec.devices ?? []).find((d) => d.name === device)?.attributes?.uuid?.string;
    const whole = await json<{ status?: { allocation?: { devices?: { results?: { device: string }[] } } } }>(dd, ['get', 'resourceclaim', 'whole-gpu']);
    const trainerLogs = await dd.kubectl(['logs', 'trainer']);
    assert.equal(trainerLogs.stdout, `GPU ${uuidOf(whole.status?.allocation?.devices?.results?.[0]?.device) ?? '?'}\n`);
    const smi = await json<Item & { status?: { extendedResourceClaimStatus?: { resourceClaimName: string } } }>(dd, ['get', 'pod', 'cuda-smi']);
    const special = smi.status?.extendedResourceClaimStatus?.resourceClaimName ?? '';
    assert.match(special, /^cuda-smi-extended-resources-[a-z0-9]{5}$/);
    const claim = await json<{ status?: { allocation?: { devices?: { results?: { device: string }[] } } } }>(dd, ['get', 'resourceclaim', special]);
    const smiLogs = await dd.kubectl(['logs', 'cuda-smi']);
    assert.equal(smiLogs.stdout, `NVIDIA_VISIBLE_DEVICES=${uuidOf(claim.status?.allocation?.devices?.results?.[0]?.device) ?? '?'}\n`);
    assert.notEqual(whole.status?.allocation?.devices?.results?.[0]?.device, claim.status?.allocation?.devices?.results?.[0]?.device);
  });
});

describe('DRA feature gates off in the cluster config with kubectl', () => {
  test('DRAExtendedResource and DRADeviceTaints off: nvidia.com/gpu stays Pending as Insufficient; the class and a new slice lose the gated fields', async () => {
    await using dd = await startDrydock({ config: `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nfeatureGates: {DRAExtendedResource: false, DRADeviceTaints: false}\nnodePools:\n- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1, mig: none}\n` });
    assert.equal((await dd.kubectl(['apply', '-f', fixture('gpu-extended-resource-pod.yaml')])).code, 0);
    const message = await until(async () => (await json<Item>(dd, ['get', 'pod', 'cuda-smi'])).status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message, 'cuda-smi unschedulable');
    assert.equal(message, '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    assert.equal((await json<{ items: Item[] }>(dd, ['get', 'resourceclaims'])).items.length, 0);
    const cls = await json<{ spec: { extendedResourceName?: string } }>(dd, ['get', 'deviceclass', 'gpu.nvidia.com']);
    assert.equal(cls.spec.extendedResourceName, undefined);
    const slice = JSON.stringify({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'tainted' },
      spec: { driver: 'example.com', nodeName: 'h100-0', pool: { name: 'tainted', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'd0', taints: [{ key: 'maintenance', effect: 'NoSchedule' }] }] },
    });
    const created = await dd.kubectl(['create', '-f', '-'], { input: slice });
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual((await json<{ spec: { devices: unknown[] } }>(dd, ['get', 'resourceslice', 'tainted'])).spec.devices, [{ name: 'd0' }]);
  });

  test('a claim no GPU can hold: kubectl goes on answering while the scheduler searches, then the node is "timed out"', async () => {
    await using dd = await startDrydock({ config: `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 8, mig: dynamic}\nscheduler:\n  profiles:\n  - schedulerName: default-scheduler\n    pluginConfig:\n    - name: DynamicResources\n      args: {filterTimeout: 4s}\n` });
    const applied = await dd.kubectl(['apply', '-f', fixture('sixteen-mig-requests.yaml')]);
    assert.equal(applied.stdout, 'resourceclaim.resource.k8s.io/sixteen-requests created\npod/sixteen-requests created\n', applied.stderr);
    // The search holds the scheduler for its 4 s; the API server answers meanwhile.
    assert.equal((await dd.kubectl(['get', 'ns', 'default', '-o', 'name'])).stdout, 'namespace/default\n');
    const during = await json<Item>(dd, ['get', 'pod', 'sixteen-requests']);
    assert.equal(during.status?.conditions?.find((c) => c.type === 'PodScheduled'), undefined, 'the search is still running');
    const message = await until(async () => (await json<Item>(dd, ['get', 'pod', 'sixteen-requests'])).status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message, 'sixteen-requests unschedulable');
    assert.equal(message, '0/1 nodes are available: 1 timed out trying to allocate devices. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    // Sixteen slices in one request: no GPU has counters left for them, which the allocator sees at the first slice.
    assert.equal((await dd.kubectl(['apply', '-f', fixture('sixteen-mig-slices.yaml')])).code, 0);
    const sixteen = await until(async () => (await json<Item>(dd, ['get', 'pod', 'sixteen'])).status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message, 'sixteen unschedulable');
    assert.equal(sixteen, '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
    // Nine whole GPUs of eight: the node cannot allocate (a count check, not a search through every order).
    const nine = JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'nine', namespace: 'default' }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 9 } }] } } });
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: nine })).code, 0);
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: pod('nine', { resourceClaimName: 'nine' }) })).code, 0);
    const nineMessage = await until(async () => (await json<Item>(dd, ['get', 'pod', 'nine'])).status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message, 'nine unschedulable');
    assert.equal(nineMessage, '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
  });

  test('an unknown feature gate, or a scheduler plugin arg that does not parse, is a one-line config error with exit code 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'drydock-gates-'));
    try {
      const config = join(dir, 'cluster.yaml');
      const up = (text: string): { status: number | null; stderr: string } => {
        writeFileSync(config, `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\n${text}`);
        return spawnSync(resolve(import.meta.dirname, '../../drydock.mjs'), ['up', '--port', '0', '--config', config], { encoding: 'utf8' });
      };
      let r = up('featureGates: {DRADeviceTaint: false}\n');
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `drydock: ${config}: featureGates.DRADeviceTaint: unrecognized feature gate (known: AuthorizePodWebsocketUpgradeCreatePermission, DRAAdminAccess, DRADeviceTaints, DRAExtendedResource, DRAPartitionableDevices, DRAPrioritizedList, DRASchedulerFilterTimeout, PodTopologyLabelsAdmission)\n`);
      r = up('scheduler:\n  profiles:\n  - schedulerName: default-scheduler\n    pluginConfig:\n    - name: DynamicResources\n      args: {filterTimeout: soon}\n');
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `drydock: ${config}: profile "default-scheduler": plugin "DynamicResources" args: filterTimeout: Invalid value: "soon": must be a duration like "10s"\n`);
      r = up('scheduler: {profiles: 5}\n');
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `drydock: ${config}: scheduler.profiles: must be a list\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GPU nodes added and removed at run time with drydock node', () => {
  test('an added H100 node publishes its slices, owned by its Node, and takes the claim that did not fit; removing it takes them away', async () => {
    await using dd = await startDrydock({ config: `apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1, mig: none}\n` });
    type Slice = { metadata: { ownerReferences?: { kind: string; name: string; uid: string }[] }; spec: { nodeName: string } };
    const slicesOf = async (node: string): Promise<Slice[]> => (await json<{ items: Slice[] }>(dd, ['get', 'resourceslices'])).items.filter((s) => s.spec.nodeName === node);
    const node0 = await json<Item>(dd, ['get', 'node', 'h100-0']);
    const first = await until(async () => { const s = await slicesOf('h100-0'); return s[0]?.metadata.ownerReferences ? s : undefined; }, 'h100-0 slices owned by their Node');
    assert.deepEqual(first[0]?.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [['Node', 'h100-0', node0.metadata.uid]]);

    for (const name of ['a', 'b']) {
      assert.equal((await dd.kubectl(['create', '-f', '-'], { input: claimJson(`gpu-${name}`, 'gpu.nvidia.com') })).code, 0);
      assert.equal((await dd.kubectl(['create', '-f', '-'], { input: pod(`trainer-${name}`, { resourceClaimName: `gpu-${name}` }) })).code, 0);
    }
    const running = async (name: string): Promise<Item | undefined> => { const p = await json<Item>(dd, ['get', 'pod', name]); return p.status?.phase === 'Running' ? p : undefined; };
    const onFirst = await until(() => running('trainer-a'), 'trainer-a Running');
    assert.equal(onFirst.spec?.nodeName, 'h100-0');
    const waiting = await until(async () => { const p = await json<Item>(dd, ['get', 'pod', 'trainer-b']); return p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False'); }, 'trainer-b unschedulable');
    assert.match(waiting.message ?? '', /cannot allocate all claims/);

    const added = await dd.node(['add', '--pool', 'h100']);
    assert.deepEqual([added.code, added.stdout], [0, 'node/h100-1 added\n'], added.stderr);
    const node1 = await until(async () => { const r = await dd.kubectl(['get', 'node', 'h100-1', '-o', 'json']); return r.code === 0 ? (JSON.parse(r.stdout) as Item) : undefined; }, 'node h100-1');
    const second = await until(async () => { const s = await slicesOf('h100-1'); return s.length > 0 ? s : undefined; }, 'h100-1 slices');
    assert.deepEqual(second[0]?.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [['Node', 'h100-1', node1.metadata.uid]]);
    const onSecond = await until(() => running('trainer-b'), 'trainer-b Running on the new node');
    assert.equal(onSecond.spec?.nodeName, 'h100-1');

    assert.equal((await dd.kubectl(['delete', 'pod', 'trainer-b', '--wait=true'])).code, 0);
    const removed = await dd.node(['remove', 'h100-1']);
    assert.equal(removed.code, 0, removed.stderr);
    await until(async () => (await slicesOf('h100-1')).length === 0, 'h100-1 slices removed');
    assert.equal((await slicesOf('h100-0')).length, first.length, 'the other node keeps its slices');
  });
});

describe('NoExecute device taints with kubectl', () => {
  test("patching a NoExecute taint onto a claim's device evicts its pod: DeviceTaintManagerEviction event, DisruptionTarget condition, pod deleted", async () => {
    await using dd = await startDrydock({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n  capacity: {cpu: "16", memory: 64Gi}\n' });
    // A test driver's slice: the simulated NVIDIA driver puts its own slices back as they were.
    const objects = [
      { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'example.com' }, spec: { selectors: [{ cel: { expression: "device.driver == 'example.com'" } }] } },
      { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'example' }, spec: { driver: 'example.com', nodeName: 'cpu-0', pool: { name: 'cpu-0', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'd0' }] } },
      { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'dev', namespace: 'default' }, spec: { devices: { requests: [{ name: 'dev', exactly: { deviceClassName: 'example.com' } }] } } },
      {
        apiVersion: 'v1', kind: 'Pod',
        // Its container takes 5 s to stop, so the terminating pod can be read.
        metadata: { name: 'worker', namespace: 'default', annotations: { 'sim.drydock.dev/c': 'stopDelay: 5s' } },
        spec: { resourceClaims: [{ name: 'dev', resourceClaimName: 'dev' }], containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'], resources: { claims: [{ name: 'dev' }] } }] },
      },
    ];
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) });
    const pod = await until(async () => {
      const p = await json<Item>(dd, ['get', 'pod', 'worker']);
      return p.spec?.nodeName === 'cpu-0' && p.status?.phase === 'Running' && p;
    }, 'worker running');
    await until(async () => (await json<{ status?: { reservedFor?: { uid: string }[] } }>(dd, ['get', 'resourceclaim', 'dev'])).status?.reservedFor?.[0]?.uid === pod.metadata.uid, 'claim reserved');
    await dd.ok(['patch', 'resourceslice', 'example', '--type=json', '-p', JSON.stringify([{ op: 'add', path: '/spec/devices/0/taints', value: [{ key: 'example.com/unhealthy', value: 'true', effect: 'NoExecute' }] }])]);
    const terminating = await until(async () => {
      const p = await json<Item & { metadata: { deletionTimestamp?: string } }>(dd, ['get', 'pod', 'worker']);
      return p.metadata.deletionTimestamp !== undefined && p;
    }, 'worker terminating');
    const condition = terminating.status?.conditions?.find((c) => c.type === 'DisruptionTarget') as Record<string, unknown> | undefined;
    assert.deepEqual({ ...condition, lastTransitionTime: undefined }, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByDeviceTaintManager', message: 'Device Taint manager: deleting due to NoExecute taint', lastProbeTime: null, lastTransitionTime: undefined });
    const events = await json<{ items: { type: string; message: string; source?: { component?: string }; involvedObject: { kind: string; name: string; uid?: string } }[] }>(dd, ['get', 'events', '--field-selector', 'reason=DeviceTaintManagerEviction']);
    assert.deepEqual(events.items.map((e) => [e.type, e.message, e.source?.component, e.involvedObject.kind, e.involvedObject.name, e.involvedObject.uid]), [['Normal', 'Marking for deletion', 'device-taint-eviction-controller', 'Pod', 'worker', pod.metadata.uid]]);
    await until(async () => (await dd.kubectl(['get', 'pod', 'worker'])).stderr.includes('NotFound'), 'worker deleted');
  });
});
