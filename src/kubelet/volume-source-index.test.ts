// The kubelet's index of pods by the ConfigMaps and Secrets they mount.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/index.ts';
import { VolumeSourceIndex } from './volume-source-index.ts';

const pod = (name: string, namespace: string, volumes: NonNullable<Pod['spec']['volumes']>): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'c', image: 'x' }], volumes } });

test('pods are found by the ConfigMaps and Secrets their volumes and projected sources read, in their namespace, until removed', () => {
  const index = new VolumeSourceIndex<string>();
  const a = pod('a', 'ml', [{ name: 'cfg', configMap: { name: 'app' } }, { name: 'api', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }, { secret: { name: 'token' } }] } }]);
  const b = pod('b', 'ml', [{ name: 'cfg', configMap: { name: 'app', optional: true } }]);
  const c = pod('c', 'other', [{ name: 'cfg', configMap: { name: 'app' } }]);
  index.add('a', a);
  index.add('b', b);
  index.add('c', c);
  assert.deepEqual([...index.mounting('configMap', 'ml', 'app')], ['a', 'b']);
  assert.deepEqual([...index.mounting('secret', 'ml', 'token')], ['a']);
  assert.deepEqual([...index.mounting('secret', 'ml', 'app')], [], 'a Secret of the same name is another object');
  assert.deepEqual([...index.mounting('configMap', 'ml', 'kube-root-ca.crt')], ['a']);
  index.remove('a', a);
  assert.deepEqual([...index.mounting('configMap', 'ml', 'app')], ['b']);
  assert.deepEqual([...index.mounting('secret', 'ml', 'token')], []);
});
