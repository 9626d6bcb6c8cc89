import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletionConditions } from './conditions.ts';

const none = { byResource: new Map<string, number>(), byFinalizer: new Map<string, number>(), deleteErrors: [] };

test('content held by a finalizer: the remaining resources and finalizers in upstream words, the other conditions ok', () => {
  const conditions = deletionConditions([], { byResource: new Map([['configmaps.', 1], ['widgets.example.com', 2]]), byFinalizer: new Map([['example.com/hold', 3]]), deleteErrors: [] }, 't1');
  assert.deepEqual(conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
    ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
    ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances, widgets.example.com has 2 resource instances'],
    ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizerRemain', 'Some finalizers are remaining: example.com/hold in 3 resource instances'],
  ]);
});

test('once the content is gone the conditions turn False with a new transition time; an unchanged pass writes nothing', () => {
  const stuck = deletionConditions([], { byResource: new Map([['configmaps.', 1]]), byFinalizer: new Map([['example.com/hold', 1]]), deleteErrors: [] }, 't1') ?? [];
  assert.equal(deletionConditions(stuck, { byResource: new Map([['configmaps.', 1]]), byFinalizer: new Map([['example.com/hold', 1]]), deleteErrors: [] }, 't2'), undefined);
  const cleared = deletionConditions(stuck, none, 't3') ?? [];
  const remaining = cleared.find((c) => c.type === 'NamespaceContentRemaining');
  assert.deepEqual(remaining, { type: 'NamespaceContentRemaining', status: 'False', lastTransitionTime: 't3', reason: 'ContentRemoved', message: 'All content successfully removed' });
  assert.equal(cleared.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')?.lastTransitionTime, 't1');
});

test('a failed delete is reported with its errors sorted', () => {
  const conditions = deletionConditions([], { ...none, deleteErrors: ['b failed', 'a failed'] }, 't1');
  assert.deepEqual(conditions?.find((c) => c.type === 'NamespaceDeletionContentFailure'), { type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: 't1', reason: 'ContentDeletionFailed', message: 'Failed to delete all resource types, 2 remaining: a failed, b failed' });
});
