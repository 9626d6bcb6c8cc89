import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterTracker } from './counters.ts';
import { buildInventory } from './inventory.ts';
import { nvidiaResourceSlices } from './driver/nvidia-slices.ts';

test('maxTogether bounds how many devices fit their counter sets together: seven MIG slices per H100, fewer as the attempt takes some', () => {
  const [pool] = buildInventory(nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 2, mig: 'dynamic' })).poolsForNode({ metadata: { name: 'node-a' } });
  assert.ok(pool);
  const onGpu = (gpu: string) => pool.devices.filter((d) => d.name.startsWith(`${gpu}-mig-`)).map((device) => ({ pool, device }));
  const tracker = new CounterTracker(new Set());
  assert.equal(tracker.maxTogether(onGpu('gpu-0')), 7);
  assert.equal(tracker.maxTogether([...onGpu('gpu-0'), ...onGpu('gpu-1')]), 14);
  // A 3g.40gb taken in this attempt leaves four compute slices of gpu-0; gpu-1 keeps its seven.
  const half = pool.devices.find((d) => d.name === 'gpu-0-mig-3g40gb-9-0');
  assert.ok(half && tracker.tryConsume(pool, half));
  assert.equal(tracker.maxTogether(onGpu('gpu-0')), 4);
  assert.equal(tracker.maxTogether([...onGpu('gpu-0'), ...onGpu('gpu-1')]), 11);
  tracker.release(pool, half);
  assert.equal(tracker.maxTogether(onGpu('gpu-0')), 7);
  // Devices that draw on no counters are each one more.
  const whole = buildInventory(nvidiaResourceSlices('node-a', { model: 'H100-80GB', count: 3, mig: 'none' })).poolsForNode({ metadata: { name: 'node-a' } })[0];
  assert.equal(tracker.maxTogether((whole?.devices ?? []).map((device) => ({ pool: whole ?? pool, device }))), 3);
});
