import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/index.ts';
import { formatTime } from '../../core/index.ts';
import { calculateStatus, isDeploymentTimedOut, rolloutStatus, setCondition, stuckRequeueIn, terminatingReplicas } from './status.ts';

const now = Date.UTC(2026, 0, 1, 12);

function deployment(status: DeploymentStatus = {}): Deployment {
  return {
    metadata: { name: 'web', generation: 1 },
    spec: { replicas: 2, selector: {}, template: { spec: { containers: [] } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }, progressDeadlineSeconds: 600 },
    status,
  };
}

const rs = (replicas: number, ready: number, available: number): ReplicaSet => ({
  metadata: { name: 'web-5d8f7b9c4' },
  spec: { replicas },
  status: { replicas, readyReplicas: ready, availableReplicas: available, terminatingReplicas: 0 },
});

test('calculateStatus counts replicas and sets Available from replicas - maxUnavailable', () => {
  // 2 replicas at 25%: maxUnavailable rounds down to 0, so both must be available.
  const s = calculateStatus([rs(2, 2, 2)], rs(2, 2, 2), deployment(), now);
  assert.deepEqual({ ...s, conditions: undefined }, { observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, terminatingReplicas: 0, conditions: undefined });
  assert.deepEqual(s.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.']]);
  const none = calculateStatus([rs(2, 2, 1)], rs(2, 2, 1), deployment(), now);
  assert.equal(none.unavailableReplicas, 1);
  assert.deepEqual(none.conditions?.map((c) => [c.status, c.reason, c.message]), [['False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']]);
});

test('terminatingReplicas: a ReplicaSet not synced yet counts for nothing, one synced without the count leaves it unknown', () => {
  const fresh: ReplicaSet = { metadata: { name: 'web-new' }, spec: { replicas: 1 }, status: { replicas: 0 } };
  const synced: ReplicaSet = { ...fresh, status: { replicas: 1, observedGeneration: 1, terminatingReplicas: 2 } };
  const older: ReplicaSet = { ...fresh, status: { replicas: 1, observedGeneration: 3 } };
  assert.equal(terminatingReplicas([fresh]), 0, 'a new Deployment reports 0 before its ReplicaSet is synced');
  assert.equal(terminatingReplicas([fresh, synced]), 2);
  assert.equal(terminatingReplicas([synced, older]), undefined);
  assert.equal(calculateStatus([fresh], fresh, deployment(), now).terminatingReplicas, 0);
  assert.equal('terminatingReplicas' in calculateStatus([older], older, deployment(), now), false);
});

test('setCondition keeps lastTransitionTime while the status holds and skips identical reasons', () => {
  const s: DeploymentStatus = { conditions: [{ type: 'Available', status: 'True', reason: 'A', lastTransitionTime: 't0', lastUpdateTime: 't0' }] };
  setCondition(s, { type: 'Available', status: 'True', reason: 'A', lastTransitionTime: 't1', lastUpdateTime: 't1' });
  assert.equal(s.conditions?.[0]?.lastUpdateTime, 't0');
  setCondition(s, { type: 'Available', status: 'True', reason: 'B', lastTransitionTime: 't2', lastUpdateTime: 't2' });
  assert.deepEqual([s.conditions?.[0]?.reason, s.conditions?.[0]?.lastTransitionTime, s.conditions?.[0]?.lastUpdateTime], ['B', 't0', 't2']);
});

test('rolloutStatus: complete -> NewReplicaSetAvailable with the ReplicaSet message', () => {
  const s = rolloutStatus([rs(2, 2, 2)], rs(2, 2, 2), deployment(), now);
  const p = s.conditions?.find((c) => c.type === 'Progressing');
  assert.deepEqual([p?.status, p?.reason, p?.message], ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5d8f7b9c4" has successfully progressed.']);
});

test('the progress deadline is strict and counted from the last progress update', () => {
  const progressing = { type: 'Progressing', status: 'True' as const, reason: 'ReplicaSetUpdated', lastUpdateTime: formatTime(now - 600_000), lastTransitionTime: formatTime(now - 600_000) };
  const d = deployment({ conditions: [progressing] });
  assert.equal(isDeploymentTimedOut(d, { conditions: [progressing] }, now), false);
  assert.equal(isDeploymentTimedOut(d, { conditions: [progressing] }, now + 1), true);
  const s = rolloutStatus([rs(2, 0, 0)], rs(2, 0, 0), { ...d, status: { ...d.status, replicas: 2, updatedReplicas: 2 } }, now + 1);
  const p = s.conditions?.find((c) => c.type === 'Progressing');
  assert.deepEqual([p?.status, p?.reason, p?.message], ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-5d8f7b9c4" has timed out progressing.']);
  assert.equal(stuckRequeueIn(d, { conditions: [progressing] }, now - 10_000), 10_001);
});
