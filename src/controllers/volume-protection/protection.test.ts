import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, Pod } from '../../api/index.ts';
import { claimsOf, isDeletionCandidate, needsFinalizer, podUsesClaim, pvcProtectionFinalizer, volumeInUse, withFinalizer } from './protection.ts';

const pod = (extra: Partial<Pod['spec']>, meta: Partial<Pod['metadata']> = {}, phase?: string): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...meta }, spec: { containers: [], ...extra }, ...(phase ? { status: { phase } } : {}) }) as Pod;

test('a scheduled pod naming the claim uses it, finished or not; an unscheduled one does not', () => {
  const volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }];
  assert.equal(podUsesClaim(pod({ nodeName: 'n', volumes }), 'data'), true);
  assert.equal(podUsesClaim(pod({ nodeName: 'n', volumes }, {}, 'Succeeded'), 'data'), true, 'upstream keeps the claim until the pod object goes');
  assert.equal(podUsesClaim(pod({ volumes }), 'data'), false);
  assert.equal(podUsesClaim(pod({ nodeName: 'n', volumes }), 'other'), false);
});

test('a generic ephemeral volume holds its <pod>-<volume> claim until the pod is shut down', () => {
  const volumes = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] as NonNullable<Pod['spec']['volumes']>;
  assert.deepEqual(claimsOf(pod({ volumes })), ['p-scratch']);
  assert.equal(podUsesClaim(pod({ nodeName: 'n', volumes }), 'p-scratch'), true);
  assert.equal(podUsesClaim(pod({ nodeName: 'n', volumes }, { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 }), 'p-scratch'), false);
});

test('finalizer bookkeeping: added to live objects, lifted from deleting ones', () => {
  const live = { metadata: { name: 'c' } };
  assert.equal(needsFinalizer(live, pvcProtectionFinalizer), true);
  const guarded = withFinalizer(live as never, pvcProtectionFinalizer, true) as { metadata: { finalizers: string[] } };
  assert.deepEqual(guarded.metadata.finalizers, [pvcProtectionFinalizer]);
  assert.equal(needsFinalizer(guarded, pvcProtectionFinalizer), false);
  const deleting = { metadata: { ...guarded.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
  assert.equal(isDeletionCandidate(deleting, pvcProtectionFinalizer), true);
  assert.equal(needsFinalizer(deleting, pvcProtectionFinalizer), false, 'a deleting object never gains it');
  assert.deepEqual((withFinalizer(deleting as never, pvcProtectionFinalizer, false) as { metadata: { finalizers: string[] } }).metadata.finalizers, []);
});

test('a volume is in use while Bound', () => {
  assert.equal(volumeInUse({ status: { phase: 'Bound' } } as PersistentVolume), true);
  assert.equal(volumeInUse({ status: { phase: 'Released' } } as PersistentVolume), false);
});
