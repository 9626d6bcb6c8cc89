import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario } from './scenario-harness.test.ts';

test('GPU pods: three bind to the three one-GPU nodes, the fourth gets the upstream FitError', async () => {
  await using s = await startScenario();
  for (const n of ['gpu-0', 'gpu-1', 'gpu-2']) await s.addNode(n, { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1' });
  for (const p of ['p0', 'p1', 'p2', 'p3']) await s.addPod(p, { requests: { 'nvidia.com/gpu': '1' } });
  await s.until(async () => (await s.events('p3')).some((e) => e.reason === 'FailedScheduling'));
  const nodes = [];
  for (const p of ['p0', 'p1', 'p2', 'p3']) nodes.push((await s.pod(p)).spec.nodeName ?? '');
  assert.deepEqual(nodes.slice(0, 3).sort(), ['gpu-0', 'gpu-1', 'gpu-2']);
  assert.equal(nodes[3], '');
  const msg = '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
  const cond = await s.scheduledCondition('p3');
  assert.deepEqual({ status: cond?.status, reason: cond?.reason, message: cond?.message }, { status: 'False', reason: 'Unschedulable', message: msg });
  const ev = (await s.events('p3')).find((e) => e.reason === 'FailedScheduling');
  assert.equal(ev?.message, msg);
  assert.equal(ev?.type, 'Warning');
  assert.equal(ev?.source?.component, 'default-scheduler');
  const scheduled = (await s.events('p0')).find((e) => e.reason === 'Scheduled');
  assert.equal(scheduled?.message, `Successfully assigned default/p0 to ${nodes[0]}`);
  // A new node requeues the pending pod (NodeResourcesFit registers Node/Add).
  await s.addNode('gpu-3', { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1' });
  await s.until(async () => (await s.pod('p3')).spec.nodeName === 'gpu-3');
});
