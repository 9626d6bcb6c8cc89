// Scenario tests of DRA scheduling on simulated NVIDIA nodes (spec/dra.md §11), end to end in
// process: claim controller, DynamicResources plugin, driver slices and kubelets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { resourceV1 } from '../../api/index.ts';
import { filterTimeoutMs } from './dynamic-resources.ts';
import { claim, claimPod, claimSpec, eventually, getClaim, getPod, migClass, startDraScenario, tail, waitRunning, waitUnschedulable } from './dynamic-resources.test-helpers.ts';
import type { Scenario } from './dynamic-resources.test-helpers.ts';

const oneH100 = `- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1, mig: dynamic}\n`;

test('a claim for a 1g.10gb MIG slice is allocated on the H100, reserved for its pod, and the pod runs', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  await c.create(refs.deviceClasses, migClass('1g.10gb'));
  await c.create(refs.resourceClaims, claim('mig', claimSpec('mig-1g-10gb')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('p1', { resourceClaimName: 'mig' }), { namespace: 'default' });
  const pod = await waitRunning(s, 'p1');
  assert.equal(pod.spec.nodeName, 'h100-0');
  const got = await getClaim(s, 'mig');
  assert.deepEqual(got.metadata.finalizers, ['resource.kubernetes.io/delete-protection']);
  assert.deepEqual(got.status?.allocation?.devices?.results, [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'h100-0', device: 'gpu-0-mig-1g10gb-19-0' }]);
  assert.deepEqual(got.status?.allocation?.nodeSelector, { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['h100-0'] }] }] });
  assert.deepEqual(got.status?.reservedFor, [{ resource: 'pods', name: 'p1', uid: pod.metadata.uid }]);
});

test('eight 1g.10gb pods on one dynamic-MIG H100: seven run, the eighth gets the upstream message', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  await c.create(refs.deviceClasses, migClass('1g.10gb'));
  for (let i = 0; i < 8; i++) {
    await c.create(refs.resourceClaims, claim(`mig-${i}`, claimSpec('mig-1g-10gb')), { namespace: 'default' });
    await c.create(refs.pods, claimPod(`p${i}`, { resourceClaimName: `mig-${i}` }), { namespace: 'default' });
  }
  const running = await eventually(s.clock, async () => {
    const pods = (await c.list(refs.pods, { namespace: 'default' })).items as { status?: { phase?: string } }[];
    return pods.filter((p) => p.status?.phase === 'Running').length === 7 && pods;
  }, 'seven running');
  assert.equal(running.length, 8);
  const pending = await Promise.all([...Array(8).keys()].map((i) => getPod(s, `p${i}`)));
  const stuck = pending.filter((p) => !p.spec.nodeName);
  assert.equal(stuck.length, 1);
  const msg = await waitUnschedulable(s, stuck[0]?.metadata.name ?? '');
  assert.equal(msg, `0/1 nodes are available: 1 cannot allocate all claims.${tail(1)}`);
  const devices = new Set<string>();
  for (let i = 0; i < 8; i++) for (const r of (await getClaim(s, `mig-${i}`)).status?.allocation?.devices?.results ?? []) devices.add(r.device);
  assert.equal(devices.size, 7);
});

test('4g.40gb and 3g.40gb share one H100; a second 4g.40gb does not fit; a full GPU excludes MIG devices', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  for (const p of ['4g.40gb', '3g.40gb']) await c.create(refs.deviceClasses, migClass(p));
  await c.create(refs.resourceClaims, claim('big', claimSpec('mig-4g-40gb')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('big', { resourceClaimName: 'big' }), { namespace: 'default' });
  await waitRunning(s, 'big');
  await c.create(refs.resourceClaims, claim('mid', claimSpec('mig-3g-40gb')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('mid', { resourceClaimName: 'mid' }), { namespace: 'default' });
  await waitRunning(s, 'mid');
  assert.deepEqual((await getClaim(s, 'big')).status?.allocation?.devices?.results?.map((r) => r.device), ['gpu-0-mig-4g40gb-5-0']);
  assert.deepEqual((await getClaim(s, 'mid')).status?.allocation?.devices?.results?.map((r) => r.device), ['gpu-0-mig-3g40gb-9-4']);
  await c.create(refs.resourceClaims, claim('big2', claimSpec('mig-4g-40gb')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('big2', { resourceClaimName: 'big2' }), { namespace: 'default' });
  assert.equal(await waitUnschedulable(s, 'big2'), `0/1 nodes are available: 1 cannot allocate all claims.${tail(1)}`);
  await c.create(refs.resourceClaims, claim('whole', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('whole', { resourceClaimName: 'whole' }), { namespace: 'default' });
  assert.equal(await waitUnschedulable(s, 'whole'), `0/1 nodes are available: 1 cannot allocate all claims.${tail(1)}`);
  // Freeing the GPU lets the full-GPU claim in. big2 goes first: deleted after big, it could take big's
  // slice and be deleted while binding, and then (as upstream's Unreserve does) only its reservation is
  // removed, so its claim would keep the slice allocated.
  for (const n of ['big2', 'big', 'mid']) await c.delete(refs.pods, 'default', n, { gracePeriodSeconds: 0 });
  await waitRunning(s, 'whole');
  assert.deepEqual((await getClaim(s, 'whole')).status?.allocation?.devices?.results?.map((r) => r.device), ['gpu-0']);
  assert.equal((await getClaim(s, 'big')).status?.allocation, undefined);
});

test('two GPUs with matchAttribute on the NVLink domain land in one domain, or fail with the upstream message', async () => {
  await using s = await startDraScenario(`- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 4, nvlinkDomainSize: 2}\n`);
  const c = s.cluster.client;
  const slices = (await c.list<resourceV1.ResourceSlice>(refs.resourceSlices)).items;
  const attr = Object.keys(slices.flatMap((x) => x.spec.devices ?? [])[0]?.attributes ?? {}).find((k) => /nvlink/i.test(k)) ?? '';
  assert.ok(attr, 'an NVLink-domain attribute');
  const qualified = attr.includes('/') ? attr : `gpu.nvidia.com/${attr}`;
  const spec = (count: number): resourceV1.ResourceClaimSpec => ({ devices: { requests: [{ name: 'tp', exactly: { deviceClassName: 'gpu.nvidia.com', count } }], constraints: [{ matchAttribute: qualified }] } });
  await c.create(refs.resourceClaims, claim('tp', spec(2)), { namespace: 'default' });
  await c.create(refs.pods, claimPod('tp', { resourceClaimName: 'tp' }), { namespace: 'default' });
  await waitRunning(s, 'tp');
  const results = (await getClaim(s, 'tp')).status?.allocation?.devices?.results ?? [];
  const byName = new Map(slices.flatMap((x) => x.spec.devices ?? []).map((d) => [d.name, d]));
  const domains = results.map((r) => JSON.stringify(byName.get(r.device)?.attributes?.[attr]));
  assert.equal(results.length, 2);
  assert.equal(domains[0], domains[1]);
  await c.create(refs.resourceClaims, claim('tp3', spec(3)), { namespace: 'default' });
  await c.create(refs.pods, claimPod('tp3', { resourceClaimName: 'tp3' }), { namespace: 'default' });
  assert.equal(await waitUnschedulable(s, 'tp3'), `0/1 nodes are available: 1 cannot allocate all claims.${tail(1)}`);
});

test('a search for devices past the filterTimeout leaves the node "timed out trying to allocate devices"', async () => {
  const elapsed = elapsedClock();
  await using s = await startSixteenSliceSearch(1, '50ms', elapsed);
  await s.cluster.client.create(refs.pods, claimPod('sixteen', { resourceClaimName: 'sixteen' }), { namespace: 'default' });
  await searching(s, elapsed);
  elapsed.ms += 51;
  assert.equal(await waitUnschedulable(s, 'sixteen'), `0/1 nodes are available: 1 timed out trying to allocate devices.${tail(1)}`);
  assert.equal((await getClaim(s, 'sixteen')).status?.allocation, undefined);
  assert.equal(elapsed.exhausted, false);
});

test('the nodes of one cycle share their searches\' time as upstream\'s 16 parallel filters do: three nodes time out in one filterTimeout, not three', async () => {
  const elapsed = elapsedClock();
  await using s = await startSixteenSliceSearch(3, '1s', elapsed);
  await s.cluster.client.create(refs.pods, claimPod('sixteen', { resourceClaimName: 'sixteen' }), { namespace: 'default' });
  await searching(s, elapsed);
  // One second on, the first node's search is out of time, and so is the cycle's: the other two
  // end at once. Each with a second of its own would search on until the step budget ran out.
  elapsed.ms += 1001;
  assert.equal(await waitUnschedulable(s, 'sixteen'), `0/3 nodes are available: 3 timed out trying to allocate devices.${tail(3)}`);
  assert.equal(elapsed.exhausted, false);
});

test('while a search for devices runs to its filterTimeout, the API server goes on answering', async () => {
  const elapsed = elapsedClock();
  await using s = await startSixteenSliceSearch(1, '3s', elapsed);
  const c = s.cluster.client;
  await c.create(refs.pods, claimPod('sixteen', { resourceClaimName: 'sixteen' }), { namespace: 'default' });
  await searching(s, elapsed);
  // Its time stands still, so the search is still on when the get answers; one that held the
  // thread would keep the get waiting until the step budget ended it, and fail the check below.
  assert.equal((await c.get(refs.namespaces, undefined, 'default')).metadata.name, 'default');
  assert.equal((await getPod(s, 'sixteen')).status?.conditions?.find((x) => x.type === 'PodScheduled'), undefined, 'the search is still running');
  assert.equal(elapsed.exhausted, false);
  elapsed.ms += 3001;
  assert.equal(await waitUnschedulable(s, 'sixteen'), `0/1 nodes are available: 1 timed out trying to allocate devices.${tail(1)}`);
});

test('a scheduler stopped during a search for devices does not wait for the filterTimeout', async () => {
  const elapsed = elapsedClock();
  const s = await startSixteenSliceSearch(1, '60s', elapsed);
  await s.cluster.client.create(refs.pods, claimPod('sixteen', { resourceClaimName: 'sixteen' }), { namespace: 'default' });
  await searching(s, elapsed);
  // The search's time stands still: only the stop can end it before the step budget does.
  await s[Symbol.asyncDispose]();
  assert.equal(elapsed.exhausted, false);
});

/**
 * The filterTimeout's clock for a test: it stands still until the test moves it, so a search runs
 * until the test says its time is up. A search that looks at it a million times (16 million devices
 * tried) sees it run out: a step budget that ends a search the test did not end, which `exhausted`
 * then reports.
 */
function elapsedClock(): { ms: number; exhausted: boolean; reads: number; now: () => number } {
  const c = {
    ms: 0,
    exhausted: false,
    reads: 0,
    now: (): number => {
      c.exhausted ||= ++c.reads > 1_000_000;
      return c.exhausted ? Number.MAX_SAFE_INTEGER : c.ms;
    },
  };
  return c;
}

/** Until a search has looked at the clock beyond its start. */
async function searching(s: Scenario, elapsed: { reads: number }): Promise<void> {
  await eventually(s.clock, async () => elapsed.reads > 1, 'a search for devices');
}

/**
 * H100 nodes with dynamic MIG and a claim "sixteen" for sixteen MIG devices on one GPU, one request
 * each: no GPU has room, and the search tries the requests' devices in every order, as upstream's does.
 */
async function startSixteenSliceSearch(nodes: number, filterTimeout: string, elapsed: { now: () => number }) {
  const scheduler = { profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'DynamicResources', args: { filterTimeout } }] }] };
  const s = await startDraScenario(`- name: h100\n  count: ${nodes}\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 8, mig: dynamic, expose: dra}\n`, 7, {}, scheduler, elapsed.now);
  const requests = Array.from({ length: 16 }, (_, i) => ({ name: `slice-${i}`, exactly: { deviceClassName: 'mig.nvidia.com' } }));
  const spec: resourceV1.ResourceClaimSpec = { devices: { requests, constraints: [{ matchAttribute: 'gpu.nvidia.com/parentUUID' }] } };
  try {
    await s.cluster.client.create(refs.resourceClaims, claim('sixteen', spec), { namespace: 'default' });
  } catch (error) {
    await s[Symbol.asyncDispose]();
    throw error;
  }
  return s;
}

test('filterTimeout: upstream\'s 10 s by default, "0s" or the gate off for no limit, a bad value refused', () => {
  assert.equal(filterTimeoutMs({}, true), 10_000);
  assert.equal(filterTimeoutMs({ filterTimeout: '1m30s' }, true), 90_000);
  assert.equal(filterTimeoutMs({ filterTimeout: '0s' }, true), undefined);
  assert.equal(filterTimeoutMs({}, false), undefined);
  assert.throws(() => filterTimeoutMs({ filterTimeout: '-1s' }, true), /filterTimeout: Invalid value: "-1s": must be zero or positive/);
  assert.throws(() => filterTimeoutMs({ filterTimeout: 10 }, true), /filterTimeout: Invalid value: 10: must be a duration like "10s"/);
});

test('a selector that fails at run time is a scheduler error, wrapped as RunFilterPlugins wraps a filter\'s error', async () => {
  await using s = await startDraScenario(oneH100);
  const c = s.cluster.client;
  const spec = claimSpec('gpu.nvidia.com', 1, { selectors: [{ cel: { expression: "device.attributes['gpu.nvidia.com'].foo == 'x'" } }] });
  await c.create(refs.resourceClaims, claim('celerr', spec), { namespace: 'default' });
  await c.create(refs.pods, claimPod('p1', { resourceClaimName: 'celerr' }), { namespace: 'default' });
  const condition = await eventually(s.clock, async () => (await getPod(s, 'p1')).status?.conditions?.find((x) => x.type === 'PodScheduled' && x.status === 'False'), 'PodScheduled False');
  assert.deepEqual([condition.reason, condition.message], ['SchedulerError', 'running "DynamicResources" filter plugin: claim default/celerr: selector #0: CEL runtime error: no such key: foo']);
});
