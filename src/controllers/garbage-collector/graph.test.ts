import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, OwnerReference } from '../../core/index.ts';
import { DependencyGraph } from './graph.ts';

function obj(name: string, owners: OwnerReference[] = [], extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { metadata: { name, namespace: 'ns', uid: name, ownerReferences: owners, ...extra } };
}
const ref = (name: string, block = true): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: name, controller: true, blockOwnerDeletion: block });
const uids = (nodes: { identity: { uid: string } }[]): string[] => nodes.map((n) => n.identity.uid);

test('an unseen owner becomes a virtual node that is queued for verification', () => {
  const g = new DependencyGraph();
  const work = g.observe(obj('pod', [ref('rs')]), 'v1', 'Pod');
  assert.deepEqual(uids(work.attemptToDelete), ['rs']);
  assert.equal(g.get('rs')?.virtual, true);
  assert.deepEqual(g.get('rs')?.identity, { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'ns', name: 'rs', uid: 'rs' });
  g.observe(obj('rs'), 'apps/v1', 'ReplicaSet');
  assert.equal(g.get('rs')?.virtual, false);
});

test('removing an owner queues its dependents', () => {
  const g = new DependencyGraph();
  g.observe(obj('rs'), 'apps/v1', 'ReplicaSet');
  g.observe(obj('pod', [ref('rs')]), 'v1', 'Pod');
  assert.deepEqual(uids(g.remove('rs').attemptToDelete), ['pod']);
});

test('foreground deletion queues the dependents and the owner; the last blocking dependent unblocks it', () => {
  const g = new DependencyGraph();
  g.observe(obj('rs'), 'apps/v1', 'ReplicaSet');
  g.observe(obj('a', [ref('rs')]), 'v1', 'Pod');
  g.observe(obj('b', [ref('rs', false)]), 'v1', 'Pod');
  const work = g.observe(obj('rs', [], { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 'apps/v1', 'ReplicaSet');
  assert.deepEqual(uids(work.attemptToDelete).sort(), ['a', 'b', 'rs']);
  const rs = g.get('rs');
  assert.ok(rs?.deletingDependents);
  assert.deepEqual(uids(g.blockingDependents(rs)), ['a']);
  assert.deepEqual(uids(g.remove('a').attemptToDelete), ['rs']);
  // Dropping blockOwnerDeletion on a reference also wakes the owner.
  g.observe(obj('c', [ref('rs')]), 'v1', 'Pod');
  assert.deepEqual(uids(g.observe(obj('c', [ref('rs', false)]), 'v1', 'Pod').attemptToDelete), ['rs']);
});

test('the orphan finalizer queues the owner for orphaning once', () => {
  const g = new DependencyGraph();
  const deleting = obj('d', [], { deletionTimestamp: 't', finalizers: ['orphan'] });
  assert.deepEqual(uids(g.observe(deleting, 'apps/v1', 'Deployment').attemptToOrphan), ['d']);
  assert.deepEqual(uids(g.observe(deleting, 'apps/v1', 'Deployment').attemptToOrphan), []);
});

test('an update keeping the references changes nothing; dropping or replacing them moves the dependent', () => {
  const g = new DependencyGraph();
  g.observe(obj('rs'), 'apps/v1', 'ReplicaSet');
  const owners = [ref('rs')];
  g.observe(obj('pod', owners), 'v1', 'Pod');
  // A status write shares the references with the object before it.
  const again = g.observe(obj('pod', owners, { resourceVersion: '2' }), 'v1', 'Pod');
  assert.deepEqual(again, { attemptToDelete: [], attemptToOrphan: [] });
  assert.deepEqual(uids([...(g.get('rs')?.dependents ?? [])]), ['pod']);
  g.observe(obj('pod', []), 'v1', 'Pod');
  assert.deepEqual(uids([...(g.get('rs')?.dependents ?? [])]), []);
  assert.deepEqual(uids(g.observe(obj('pod', [ref('other')]), 'v1', 'Pod').attemptToDelete), ['other']);
  assert.deepEqual(uids([...(g.get('other')?.dependents ?? [])]), ['pod']);
});
