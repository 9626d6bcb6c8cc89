// The simulated NVIDIA driver's kubelet plugin as a user meets it: the node's ResourceSlices are
// published when it registers, and a slice someone deletes is put back, as a new pool generation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { resourceV1 } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

/** One H100 node with dynamic MIG, its slices published; `slices` lists them. */
async function gpuNode(): Promise<{ c: Cluster; clock: VirtualClock; slices: () => Promise<resourceV1.ResourceSlice[]>; [Symbol.asyncDispose]: () => Promise<void> }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'gpu', count: 1, capacity: { cpu: '32', memory: '256Gi' }, gpus: { model: 'H100-80GB', count: 2, mig: 'dynamic' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true });
  await clock.advance(1_000);
  const slices = async (): Promise<resourceV1.ResourceSlice[]> => (await c.client.list<resourceV1.ResourceSlice>(refs.resourceSlices, { fieldSelector: 'spec.nodeName=gpu-0' })).items;
  return { c, clock, slices, [Symbol.asyncDispose]: () => c[Symbol.asyncDispose]() };
}

test('a deleted ResourceSlice is published again, and the pool is whole at a new generation', async () => {
  await using g = await gpuNode();
  const { c, clock, slices } = g;
  const before = await slices();
  assert.ok(before.length > 1, `${before.length} slices`);
  const victim = before[before.length - 1] as resourceV1.ResourceSlice;
  await c.client.delete(refs.resourceSlices, undefined, victim.metadata.name ?? '');
  await clock.advance(1_000);
  const after = await slices();
  assert.equal(after.length, before.length);
  const generation = before[0]?.spec.pool.generation ?? 0;
  assert.deepEqual(new Set(after.map((s) => s.spec.pool.generation)), new Set([generation + 1]));
  assert.deepEqual(after.map((s) => s.spec.devices?.map((d) => d.name)).sort(), before.map((s) => s.spec.devices?.map((d) => d.name)).sort());
});

test("a slice someone edited is written back at the pool's generation; the other slices are left alone", async () => {
  await using g = await gpuNode();
  const { c, clock, slices } = g;
  const before = await slices();
  const edited = before.find((s) => (s.spec.devices?.length ?? 0) > 0) as resourceV1.ResourceSlice;
  const untouched = before.filter((s) => s !== edited).map((s) => s.metadata.resourceVersion);
  await c.client.update(refs.resourceSlices, { ...edited, spec: { ...edited.spec, devices: edited.spec.devices?.slice(1) } });
  await clock.advance(1_000);
  const after = await slices();
  const restored = after.find((s) => s.metadata.name === edited.metadata.name);
  assert.deepEqual(restored?.spec, edited.spec, 'the edit is reverted, the generation kept');
  assert.deepEqual(after.filter((s) => s.metadata.name !== edited.metadata.name).map((s) => s.metadata.resourceVersion), untouched);
});
