import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, PodTemplateSpec } from '../../api/index.ts';
import { isEqualIgnoreHash, setNewReplicaSetAnnotations } from './revision.ts';

const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

test('EqualIgnoreHash ignores pod-template-hash and Go zero values (null, empty maps and lists)', () => {
  const rsTemplate = { ...template, metadata: { labels: { app: 'web', 'pod-template-hash': '5d8f7b9c4' } } };
  assert.equal(isEqualIgnoreHash(rsTemplate, template), true);
  // kubectl rollout undo sends the template back with creationTimestamp: null.
  const fromKubectl = { metadata: { labels: { app: 'web' }, creationTimestamp: null }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] } };
  assert.equal(isEqualIgnoreHash(rsTemplate, fromKubectl as unknown as PodTemplateSpec), true);
  assert.equal(isEqualIgnoreHash(rsTemplate, { ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }), false);
});

test('EqualIgnoreHash answers each pair of templates on its own, asked again in any order', () => {
  const rsTemplate = { ...template, metadata: { labels: { app: 'web', 'pod-template-hash': '5d8f7b9c4' } } };
  const updated = { ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };
  for (let i = 0; i < 2; i++) {
    assert.equal(isEqualIgnoreHash(rsTemplate, template), true);
    assert.equal(isEqualIgnoreHash(rsTemplate, updated), false);
    assert.equal(isEqualIgnoreHash(updated, rsTemplate), false);
    assert.equal(isEqualIgnoreHash(template, rsTemplate), true);
  }
});

test('a rolled-back ReplicaSet takes the new revision and remembers the old one in revision-history', () => {
  const d: Deployment = { metadata: { name: 'web', annotations: { 'kubernetes.io/change-cause': 'undo' } }, spec: { replicas: 2, selector: {}, template, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } };
  const annotations: Record<string, string> = { 'deployment.kubernetes.io/revision': '1' };
  assert.equal(setNewReplicaSetAnnotations(d, annotations, 3, true), true);
  assert.deepEqual(annotations, { 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1', 'kubernetes.io/change-cause': 'undo' });
  setNewReplicaSetAnnotations(d, annotations, 5, true);
  assert.equal(annotations['deployment.kubernetes.io/revision-history'], '1,3');
  const fresh: Record<string, string> = {};
  setNewReplicaSetAnnotations(d, fresh, 1, false);
  assert.deepEqual(fresh, { 'kubernetes.io/change-cause': 'undo', 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3' });
});
