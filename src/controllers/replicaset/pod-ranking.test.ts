import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/index.ts';
import { formatTime } from '../../core/index.ts';
import { isDeletedBefore, podDeletionCost, podsToDelete } from './pod-ranking.ts';

const now = Date.UTC(2026, 0, 1, 12);

interface PodOpts {
  name: string;
  node?: string;
  phase?: 'Pending' | 'Running' | 'Unknown';
  readySince?: number;
  cost?: string;
  restarts?: number;
  created?: number;
}

function pod(o: PodOpts): Pod {
  const p: Pod = {
    metadata: { name: o.name, uid: o.name, creationTimestamp: formatTime(o.created ?? now - 3_600_000) },
    spec: { containers: [{ name: 'c', image: 'x' }] },
    status: { phase: o.phase ?? 'Running' },
  };
  if (o.node) p.spec.nodeName = o.node;
  if (o.cost !== undefined) p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': o.cost };
  if (o.readySince !== undefined) p.status = { ...p.status, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(o.readySince) }] };
  if (o.restarts !== undefined) p.status = { ...p.status, containerStatuses: [{ name: 'c', restartCount: o.restarts } as never] };
  return p;
}

const cases: { name: string; first: PodOpts; second: PodOpts; rank?: [number, number] }[] = [
  { name: 'unassigned before assigned', first: { name: 'a' }, second: { name: 'b', node: 'n1' } },
  { name: 'Pending before Unknown', first: { name: 'a', node: 'n', phase: 'Pending' }, second: { name: 'b', node: 'n', phase: 'Unknown' } },
  { name: 'Unknown before Running', first: { name: 'a', node: 'n', phase: 'Unknown' }, second: { name: 'b', node: 'n', phase: 'Running' } },
  { name: 'not ready before ready', first: { name: 'a', node: 'n' }, second: { name: 'b', node: 'n', readySince: now - 1000 } },
  { name: 'lower deletion cost first', first: { name: 'a', node: 'n', cost: '-5' }, second: { name: 'b', node: 'n', cost: '10' } },
  { name: 'more pods on the same node first', first: { name: 'a', node: 'n1' }, second: { name: 'b', node: 'n2' }, rank: [3, 1] },
  { name: 'ready more recently first (different log2 buckets)', first: { name: 'a', node: 'n', readySince: now - 1000 }, second: { name: 'b', node: 'n', readySince: now - 3_600_000 } },
  { name: 'more restarts first', first: { name: 'a', node: 'n', restarts: 4 }, second: { name: 'b', node: 'n', restarts: 1 } },
  { name: 'newer first', first: { name: 'a', node: 'n', created: now - 1000 }, second: { name: 'b', node: 'n', created: now - 3_600_000 } },
];

for (const c of cases) {
  test(`pod ranking: ${c.name}`, () => {
    const [ri, rj] = c.rank ?? [0, 0];
    const a = { pod: pod(c.first), rank: ri };
    const b = { pod: pod(c.second), rank: rj };
    assert.equal(isDeletedBefore(a, b, now), true);
    assert.equal(isDeletedBefore(b, a, now), false);
  });
}

test('pod ranking: creation times in the same log2 bucket fall back to uid order', () => {
  const a = { pod: pod({ name: 'a', node: 'n', created: now - 1_000_000 }), rank: 0 };
  const b = { pod: pod({ name: 'b', node: 'n', created: now - 1_000_500 }), rank: 0 };
  assert.equal(isDeletedBefore(a, b, now), true);
  assert.equal(isDeletedBefore(b, a, now), false);
});

test('podDeletionCost reads an int32 and treats anything else as 0', () => {
  assert.equal(podDeletionCost(pod({ name: 'a', cost: '42' })), 42);
  assert.equal(podDeletionCost(pod({ name: 'a', cost: 'x' })), 0);
  assert.equal(podDeletionCost(pod({ name: 'a', cost: '99999999999' })), 0);
  // validFirstDigit: a sign of '+' or a leading zero is no cost either.
  assert.equal(podDeletionCost(pod({ name: 'a', cost: '+10' })), 0);
  assert.equal(podDeletionCost(pod({ name: 'a', cost: '008' })), 0);
  assert.equal(podDeletionCost(pod({ name: 'a', cost: '-5' })), -5);
});

test('podsToDelete picks the unscheduled and pending pods of a mixed set', () => {
  const pods = [pod({ name: 'ready', node: 'n', readySince: now - 10_000 }), pod({ name: 'unscheduled' }), pod({ name: 'pending', node: 'n', phase: 'Pending' })];
  assert.deepEqual(podsToDelete(pods, pods, 2, now).map((p) => p.metadata.name), ['unscheduled', 'pending']);
  assert.equal(podsToDelete(pods, pods, 3, now).length, 3);
});
