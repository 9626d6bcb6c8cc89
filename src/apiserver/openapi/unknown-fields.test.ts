import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unknownFields } from './unknown-fields.ts';

test('unknownFields names typos with upstream paths and accepts maps and opaque fields', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', labels: { app: 'x' }, labelz: {}, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }] },
    spec: {
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      containers: [
        { name: 'a', image: 'nginx', resources: { limits: { cpu: '1' } } },
        { name: 'b', image: 'nginx', imagePullPolicyy: 'Always', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired', extra: 1 }] },
      ],
    },
  };
  assert.deepEqual(unknownFields(pod, '', 'v1', 'Pod'), [
    'metadata.labelz',
    'spec.containers[1].imagePullPolicyy',
    'spec.containers[1].resizePolicy[0].extra',
  ]);
});

test("unknownFields reports fields named as Object.prototype's members", () => {
  const pod = { metadata: { name: 'p', labels: { constructor: 'x' } }, spec: { toString: 1, containers: [{ name: 'a', valueOf: 2 }] } };
  assert.deepEqual(unknownFields(pod, '', 'v1', 'Pod'), ['spec.toString', 'spec.containers[0].valueOf']);
});

test('unknownFields walks DRA map values and leaves unserved kinds alone', () => {
  const slice = { spec: { driver: 'gpu.nvidia.com', devices: [{ name: 'gpu-0', attributes: { model: { string: 'H100', strin: 'x' } } }] } };
  assert.deepEqual(unknownFields(slice, 'resource.k8s.io', 'v1', 'ResourceSlice'), ['spec.devices[0].attributes.model.strin']);
  assert.deepEqual(unknownFields({ spec: { anything: 1 } }, 'example.com', 'v1', 'Widget'), []);
});
