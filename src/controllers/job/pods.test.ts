import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Job, Pod } from '../../api/index.ts';
import { activePodsForRemoval, compareForDeletion, isPodFailed } from './pods.ts';

function pod(name: string, o: { node?: string; phase?: Pod['status'] extends infer S ? S extends { phase?: infer P } ? P : never : never; ready?: boolean; index?: string; deleting?: boolean; created?: string } = {}): Pod {
  return {
    metadata: {
      name,
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.index !== undefined ? { annotations: { 'batch.kubernetes.io/job-completion-index': o.index } } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
    },
    spec: { containers: [{ name: 'c' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
  };
}

const job = (spec: Partial<Job['spec']> = {}): Job => ({ metadata: { name: 'j' }, spec: { template: { spec: { containers: [] } }, ...spec } });

test('compareForDeletion: unscheduled, then pending, then not ready, then newer pods go first', () => {
  const pods = [pod('ready', { node: 'n', ready: true }), pod('old', { node: 'n' }), pod('new', { node: 'n', created: '2026-01-01T00:05:00Z' }), pod('pending', { node: 'n', phase: 'Pending' }), pod('unscheduled', { phase: 'Pending' })];
  assert.deepEqual(pods.sort(compareForDeletion).map((p) => p.metadata.name), ['unscheduled', 'pending', 'new', 'old', 'ready']);
});

test('activePodsForRemoval on an Indexed Job removes out-of-range and duplicate indexes first', () => {
  const indexed = job({ completionMode: 'Indexed', completions: 3 });
  const pods = [pod('a0', { index: '0', node: 'n', ready: true }), pod('b0', { index: '0' }), pod('c5', { index: '5' }), pod('d1', { index: '1' }), pod('e', {})];
  assert.deepEqual(activePodsForRemoval(indexed, pods, 0).map((p) => p.metadata.name).sort(), ['b0', 'c5', 'e']);
  assert.deepEqual(activePodsForRemoval(indexed, pods, 4).map((p) => p.metadata.name).sort(), ['b0', 'c5', 'd1', 'e']);
});

test('isPodFailed: a deleted pod counts as failed unless only failed pods are replaced', () => {
  const deleting = pod('x', { deleting: true });
  assert.equal(isPodFailed(deleting, job()), true);
  assert.equal(isPodFailed(deleting, job({ podReplacementPolicy: 'Failed' })), false);
  assert.equal(isPodFailed(pod('y', { phase: 'Failed' }), job({ podReplacementPolicy: 'Failed' })), true);
  assert.equal(isPodFailed(pod('z', { phase: 'Succeeded', deleting: true }), job()), false);
});
