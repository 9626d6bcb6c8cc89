// Table tests for the claim -> volume match (FindMatchingVolume on the controller path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/index.ts';
import { findBestMatchForClaim, volumeSatisfyClaimError } from './matching.ts';

const claim: PersistentVolumeClaim = {
  metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' },
};
function pv(name: string, over: { storage?: string; modes?: NonNullable<PersistentVolume['spec']>['accessModes']; cls?: string; phase?: 'Available' | 'Bound'; claimRef?: { name: string; namespace: string; uid?: string }; mode?: 'Block' } = {}): PersistentVolume {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: over.storage ?? '1Gi' },
      accessModes: over.modes ?? ['ReadWriteOnce'],
      storageClassName: over.cls ?? 'fast',
      ...(over.claimRef ? { claimRef: over.claimRef } : {}),
      ...(over.mode ? { volumeMode: over.mode } : {}),
    },
    status: { phase: over.phase ?? 'Available' },
  };
}

test('findBestMatchForClaim picks as upstream', () => {
  const cases: [string, PersistentVolume[], boolean, string | undefined][] = [
    ['smallest that fits', [pv('a', { storage: '5Gi' }), pv('b', { storage: '2Gi' }), pv('c', { storage: '512Mi' })], false, 'b'],
    ['modes must be a superset', [pv('rox', { modes: ['ReadOnlyMany'] }), pv('both', { modes: ['ReadWriteOnce', 'ReadOnlyMany'], storage: '3Gi' })], false, 'both'],
    ['class must match', [pv('slow', { cls: 'slow' })], false, undefined],
    ['volume mode must match', [pv('blk', { mode: 'Block' })], false, undefined],
    ['bound volumes are skipped', [pv('taken', { phase: 'Bound', claimRef: { name: 'other', namespace: 'ns' } })], false, undefined],
    ['pre-bound wins over a smaller one, whatever its class', [pv('small'), pv('mine', { storage: '9Gi', cls: 'x', claimRef: { name: 'c', namespace: 'ns' } })], false, 'mine'],
    ['delayed binding: only pre-bound volumes', [pv('free')], true, undefined],
    ['delayed binding keeps a pre-bound one', [pv('mine', { claimRef: { name: 'c', namespace: 'ns', uid: 'u1' } })], true, 'mine'],
  ];
  for (const [name, volumes, delay, want] of cases) assert.equal(findBestMatchForClaim(claim, volumes, delay)?.metadata.name, want, name);
});

test('volumeSatisfyClaimError: the reasons checkVolumeSatisfyClaim gives', () => {
  assert.equal(volumeSatisfyClaimError(pv('a', { storage: '1Mi' }), claim), 'requested PV is too small');
  assert.equal(volumeSatisfyClaimError(pv('a', { cls: 'slow' }), claim), 'storageClassName does not match');
  assert.equal(volumeSatisfyClaimError(pv('a', { mode: 'Block' }), claim), 'incompatible volumeMode');
  assert.equal(volumeSatisfyClaimError(pv('a', { modes: ['ReadWriteMany'] }), claim), 'incompatible accessMode');
  assert.equal(volumeSatisfyClaimError(pv('a'), claim), undefined);
});
