import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../api/index.ts';
import { DeviceManager, pluginGpus } from './device-manager.ts';

const gpu = (name: string, n: number, extra: Partial<Container> = {}): Container => ({ name, image: 'cuda', resources: { limits: { 'nvidia.com/gpu': String(n) } }, ...extra });
const pod = (uid: string, containers: Container[], initContainers: Container[] = []): Pod => ({ metadata: { name: uid, namespace: 'default', uid }, spec: { containers, initContainers } });
const indexes = (m: DeviceManager, uid: string, c: string): number[] | undefined => m.gpusOf(uid, c)?.map((g) => g.index);

test('containers get the lowest free GPUs; a regular init container\'s pass to the next containers, a sidecar keeps what it takes', () => {
  const m = new DeviceManager(pluginGpus('n', 4, 'NVIDIA H100 80GB HBM3'));
  assert.deepEqual(m.allocate(pod('a', [gpu('app', 2)], [gpu('setup', 2), gpu('side', 1, { restartPolicy: 'Always' })])), { ok: true });
  assert.deepEqual(indexes(m, 'a', 'setup'), [0, 1]);
  assert.deepEqual(indexes(m, 'a', 'side'), [0], 'a sidecar may reuse one too, and keeps it (upstream removes it from the reusable set)');
  assert.deepEqual(indexes(m, 'a', 'app'), [1, 2], 'the rest of the init container\'s, then a free one');
  assert.deepEqual(m.allocate(pod('b', [gpu('app', 1)])), { ok: true });
  assert.deepEqual(indexes(m, 'b', 'app'), [3]);
  assert.deepEqual(m.allocate(pod('c', [gpu('app', 1)])), { ok: false, message: 'Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected' });
  m.release('a');
  assert.deepEqual(m.allocate(pod('c', [gpu('app', 2)])), { ok: true });
  assert.deepEqual(indexes(m, 'c', 'app'), [0, 1]);
});

test('the plugin\'s GPUs carry the uuids the DRA driver would publish for the same node', () => {
  const [first] = pluginGpus('h100-0', 1, 'NVIDIA H100 80GB HBM3');
  // The uuid the default cluster's DRA driver publishes for h100-0's gpu-0 (a ResourceSlice attribute).
  assert.equal(first?.uuid, 'GPU-54938707-7fd5-8112-31e1-85912fc57e98');
});
