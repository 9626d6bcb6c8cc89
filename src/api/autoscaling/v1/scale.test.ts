import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../core/index.ts';
import { applyScale, toScale } from './scale.ts';

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z', labels: { a: 'b' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] } },
  status: { replicas: 1 },
};

test('toScale: identity, desired and observed replicas, selector string', () => {
  assert.deepEqual(toScale(deployment), {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicas: 3 },
    status: { replicas: 1, selector: 'app=web,tier in (a,b)' },
  });
});

test('applyScale writes spec.replicas on a copy', () => {
  const scaled = applyScale(deployment, { metadata: {}, spec: { replicas: 5 } });
  assert.equal((scaled['spec'] as { replicas: number }).replicas, 5);
  assert.equal((deployment['spec'] as { replicas: number }).replicas, 3);
});
