// Version order as apimachinery sorts Kubernetes-style versions (CRD deprecation warnings name the newest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareKubeAwareVersions } from './custom-resource.ts';

test('GA before beta before alpha, higher numbers first, other names last, alphabetically', () => {
  const versions = ['foo', 'v1alpha1', 'v11alpha2', 'v1', 'v12', 'v1beta1', 'v2beta3', 'bar', 'v10'];
  assert.deepEqual([...versions].sort((a, b) => compareKubeAwareVersions(b, a)), ['v12', 'v10', 'v1', 'v2beta3', 'v1beta1', 'v11alpha2', 'v1alpha1', 'bar', 'foo']);
});
