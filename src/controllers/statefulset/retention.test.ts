// Which owners a StatefulSet claim carries under each retention policy, for a pod in range and one
// scaled away; stale and foreign references.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/index.ts';
import type { OwnerReference } from '../../core/index.ts';
import { claimOwnersFor, hasStaleClaim } from './retention.ts';

const set = (whenDeleted: 'Retain' | 'Delete', whenScaled: 'Retain' | 'Delete'): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'default', uid: 'set-uid' },
  spec: { replicas: 2, serviceName: 'db', selector: {}, template: { spec: { containers: [] } }, persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } },
});
const pod = (ordinal: number, uid = `pod-${ordinal}`): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `db-${ordinal}`, namespace: 'default', uid }, spec: { containers: [] } });
const claim = (ownerReferences: OwnerReference[] = []): PersistentVolumeClaim => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-db-1', namespace: 'default', ownerReferences }, spec: {} });
const setRef: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'set-uid', controller: true, blockOwnerDeletion: true };
const podRef = (ordinal: number, uid = `pod-${ordinal}`): OwnerReference => ({ apiVersion: 'v1', kind: 'Pod', name: `db-${ordinal}`, uid, controller: true, blockOwnerDeletion: true });
const shown = (refs: OwnerReference[] | undefined): string[] | undefined => refs?.map((r) => `${r.kind}/${r.name}`);

test('each policy, in range and scaled away: the owners a claim with none should get', () => {
  const cases: [string, StatefulSet, number, string[] | undefined][] = [
    ['Retain/Retain in range', set('Retain', 'Retain'), 1, undefined],
    ['Retain/Retain scaled away', set('Retain', 'Retain'), 2, undefined],
    ['whenDeleted Delete in range', set('Delete', 'Retain'), 1, ['StatefulSet/db']],
    ['whenDeleted Delete scaled away', set('Delete', 'Retain'), 2, ['StatefulSet/db']],
    ['whenScaled Delete in range', set('Retain', 'Delete'), 1, undefined],
    ['whenScaled Delete scaled away', set('Retain', 'Delete'), 2, ['Pod/db-2']],
    ['both Delete in range', set('Delete', 'Delete'), 1, ['StatefulSet/db']],
    ['both Delete scaled away', set('Delete', 'Delete'), 2, ['Pod/db-2']],
  ];
  for (const [name, s, ordinal, want] of cases) assert.deepEqual(shown(claimOwnersFor(claim(), s, pod(ordinal))), want, name);
});

test('scaled away under both Delete: the set reference gives way to the pod, so the claim goes with the pod alone', () => {
  assert.deepEqual(claimOwnersFor(claim([setRef]), set('Delete', 'Delete'), pod(2)), [podRef(2)]);
  assert.equal(claimOwnersFor(claim([podRef(2)]), set('Delete', 'Delete'), pod(2)), undefined, 'already so');
});

test('a stale reference (an earlier pod of the same name) leaves the claim alone, and holds back the new pod', () => {
  const stale = claim([podRef(1, 'earlier')]);
  assert.equal(claimOwnersFor(stale, set('Delete', 'Delete'), pod(1)), undefined);
  assert.equal(hasStaleClaim(set('Retain', 'Delete'), { ...pod(1), metadata: { name: 'db-1' } }, [stale]), true);
  assert.equal(hasStaleClaim(set('Delete', 'Retain'), { ...pod(1), metadata: { name: 'db-1' } }, [stale]), false, 'whenScaled Retain: claims are reused');
});

test('another controller on the claim: ours are scrubbed and none added; a non-controller owner stays', () => {
  const foreign: OwnerReference = { apiVersion: 'example.com/v1', kind: 'Keeper', name: 'k', uid: 'k-uid', controller: true };
  assert.deepEqual(claimOwnersFor(claim([foreign, setRef]), set('Delete', 'Delete'), pod(1)), [foreign]);
  const plain: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'c-uid' };
  assert.deepEqual(claimOwnersFor(claim([plain]), set('Delete', 'Retain'), pod(1)), [plain, setRef]);
});
