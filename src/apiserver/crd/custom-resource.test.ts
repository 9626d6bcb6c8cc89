// Version order as apimachinery sorts Kubernetes-style versions (CRD deprecation warnings name the newest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareKubeAwareVersions, readPath, writePath } from './custom-resource.ts';

test('GA before beta before alpha, higher numbers first, other names last, alphabetically', () => {
  const versions = ['foo', 'v1alpha1', 'v11alpha2', 'v1', 'v12', 'v1beta1', 'v2beta3', 'bar', 'v10'];
  assert.deepEqual([...versions].sort((a, b) => compareKubeAwareVersions(b, a)), ['v12', 'v10', 'v1', 'v2beta3', 'v1beta1', 'v11alpha2', 'v1alpha1', 'bar', 'foo']);
});

test('a scale path splits at dots only: `.spec.jobs[0].replicas` names a field jobs[0], not a list item', () => {
  const obj: Record<string, unknown> = { spec: { jobs: [{ replicas: 3 }] } };
  assert.equal(readPath(obj, '.spec.jobs[0].replicas'), undefined);
  writePath(obj, '.spec.jobs[0].replicas', 5);
  assert.deepEqual(obj, { spec: { jobs: [{ replicas: 3 }], 'jobs[0]': { replicas: 5 } } });
  assert.equal(readPath(obj, '.spec.jobs[0].replicas'), 5);
});
