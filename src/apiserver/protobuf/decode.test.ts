// Decoder behaviour on hand-built bytes: special shapes, Go pointer semantics, envelope errors.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeProtobufObject } from './index.ts';
import { bool, bytes, encode, entry, envelope, int, msg, str } from './wire-builder.test-support.ts';

function decode(data: Uint8Array): Record<string, unknown> {
  const result = decodeProtobufObject(data);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.object;
}

const meta = (name: string) => msg(1, str(1, name), str(2, ''), str(3, ''), msg(8));

test('IntOrString decodes to a number or a string; a zero non-pointer targetPort is dropped', () => {
  const ports = [
    msg(1, str(1, 'a'), int(3, 80), msg(4, int(1, 0), int(2, 8080), str(3, ''))),
    msg(1, str(1, 'b'), int(3, 81), msg(4, int(1, 1), int(2, 0), str(3, 'http'))),
    msg(1, str(1, 'c'), int(3, 82), msg(4, int(1, 0), int(2, 0), str(3, '')), int(5, 0)),
  ];
  const svc = decode(envelope('v1', 'Service', meta('s'), msg(2, ...ports)));
  assert.deepEqual(svc.spec, {
    ports: [
      { name: 'a', port: 80, targetPort: 8080 },
      { name: 'b', port: 81, targetPort: 'http' },
      { name: 'c', port: 82 },
    ],
  });
});

test('pointer IntOrString keeps an explicit 0 (maxUnavailable: 0 forbids disruption)', () => {
  const pdb = decode(envelope('policy/v1', 'PodDisruptionBudget', meta('p'), msg(2, msg(3, int(1, 0), int(2, 0)))));
  assert.deepEqual(pdb.spec, { maxUnavailable: 0 });
});

test('map<string, Quantity> decodes to quantity strings (requests, limits, claims)', () => {
  const resources = msg(8, entry(1, 'cpu', msg(2, str(1, '500m'))), entry(1, 'memory', msg(2, str(1, '1Gi'))), entry(2, 'nvidia.com/gpu', msg(2, str(1, '1'))), msg(3, str(1, 'gpu'), str(2, 'r0')));
  const pod = decode(envelope('v1', 'Pod', meta('p'), msg(2, msg(2, str(1, 'c'), str(2, 'img'), resources))));
  assert.deepEqual(pod.spec, {
    containers: [{ name: 'c', image: 'img', resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { 'nvidia.com/gpu': '1' }, claims: [{ name: 'gpu', request: 'r0' }] } }],
  });
});

test('Time is RFC3339 in seconds, MicroTime keeps microseconds, and the zero (empty) time is dropped', () => {
  const ev = decode(
    envelope('v1', 'Event', msg(1, str(1, 'e'), msg(8, int(1, 1700000000), int(2, 5))), msg(2, str(1, 'Pod'), str(3, 'p')), str(3, 'Started'), msg(6), msg(7, int(1, 0)), msg(10, int(1, 1700000000), int(2, 123456789))),
  );
  assert.deepEqual(ev, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', creationTimestamp: '2023-11-14T22:13:20Z' },
    involvedObject: { kind: 'Pod', name: 'p' },
    reason: 'Started',
    lastTimestamp: '1970-01-01T00:00:00Z',
    eventTime: '2023-11-14T22:13:20.123456Z',
  });
});

test('bytes fields (Secret.data, ConfigMap.binaryData) become base64, string maps stay text', () => {
  const secret = decode(envelope('v1', 'Secret', meta('s'), entry(2, 'k', bytes(2, new Uint8Array([0x76]))), entry(2, 'empty', bytes(2, new Uint8Array(0))), str(3, 'Opaque'), entry(4, 'plain', str(2, 'x'))));
  assert.deepEqual(secret, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==', empty: '' }, type: 'Opaque', stringData: { plain: 'x' } });
  const cm = decode(envelope('v1', 'ConfigMap', meta('c'), entry(2, 'a', str(2, '')), entry(3, 'b', bytes(2, new Uint8Array([0, 255])))));
  assert.deepEqual(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '' }, binaryData: { b: 'AP8=' } });
});

test('pointer fields keep explicit zero values; non-pointer zero values are dropped', () => {
  const template = msg(3, msg(1), msg(2, bool(11, false), bool(21, false), msg(1, str(1, 'v'), msg(2, msg(2, str(1, '')))), msg(2, str(1, 'c'), str(2, 'i'), msg(8), bool(16, false))));
  const dep = decode(envelope('apps/v1', 'Deployment', meta('d'), msg(2, int(1, 0), template, msg(4), int(5, 0), int(6, 0))));
  assert.deepEqual(dep.spec, {
    replicas: 0,
    template: { spec: { volumes: [{ name: 'v', emptyDir: {} }], containers: [{ name: 'c', image: 'i' }], automountServiceAccountToken: false } },
    revisionHistoryLimit: 0,
  });
});

test('embedded structs are inlined: Volume.VolumeSource, Probe.ProbeHandler, LocalObjectReference', () => {
  const probe = msg(10, msg(1, msg(2, str(1, '/healthz'), msg(2, int(1, 1), str(3, 'http')))), int(2, 3), int(4, 0));
  const env = msg(19, str(1, 'P_'), msg(2, msg(1, str(1, 'cm')), bool(2, false)));
  const pod = decode(envelope('v1', 'Pod', meta('p'), msg(2, msg(1, str(1, 'cfg'), msg(2, msg(19, msg(1, str(1, 'cm')), int(3, 420)))), msg(2, str(1, 'c'), probe, env))));
  assert.deepEqual(pod.spec, {
    volumes: [{ name: 'cfg', configMap: { name: 'cm', defaultMode: 420 } }],
    containers: [{ name: 'c', envFrom: [{ prefix: 'P_', configMapRef: { name: 'cm', optional: false } }], livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 3 } }],
  });
});

test('RawExtension holds parsed JSON; repeated int32 decodes packed and unpacked', () => {
  const cr = decode(envelope('apps/v1', 'ControllerRevision', meta('r'), msg(2, bytes(1, new TextEncoder().encode('{"spec":{"x":1}}'))), int(3, 2)));
  assert.deepEqual(cr, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, data: { spec: { x: 1 } }, revision: 2 });
  const unpacked = decode(envelope('v1', 'Pod', meta('p'), msg(2, msg(14, int(4, 1000), int(4, 2000)))));
  assert.deepEqual(unpacked.spec, { securityContext: { supplementalGroups: [1000, 2000] } });
  const packedPod = decode(envelope('v1', 'Pod', meta('p'), msg(2, msg(14, bytes(4, encode((w) => void w.int64(7).int64(8)))))));
  assert.deepEqual(packedPod.spec, { securityContext: { supplementalGroups: [7, 8] } });
});

test('DeleteOptions with preconditions, as client-go sends for a conditional delete', () => {
  const opts = decode(envelope('v1', 'DeleteOptions', int(1, 0), msg(2, str(1, 'uid-1'), str(2, '42')), str(4, 'Foreground'), str(5, 'All')));
  assert.deepEqual(opts, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: 'uid-1', resourceVersion: '42' }, propagationPolicy: 'Foreground', dryRun: ['All'] });
});

test('ObjectMeta carries labels, owner references and managed fields (FieldsV1 as JSON)', () => {
  const owner = msg(13, str(5, 'apps/v1'), str(1, 'ReplicaSet'), str(3, 'rs'), str(4, 'u1'), bool(6, true), bool(7, true));
  const managed = msg(17, str(1, 'kubectl'), str(2, 'Update'), str(3, 'v1'), msg(4, int(1, 1700000000)), str(6, 'FieldsV1'), msg(7, bytes(1, new TextEncoder().encode('{"f:metadata":{}}'))));
  const pod = decode(envelope('v1', 'Pod', msg(1, str(1, 'p'), str(3, 'ns'), int(7, 0), entry(11, 'app', str(2, 'x')), owner, str(14, 'f/x'), managed)));
  assert.deepEqual(pod.metadata, {
    name: 'p',
    namespace: 'ns',
    labels: { app: 'x' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true, blockOwnerDeletion: true }],
    finalizers: ['f/x'],
    managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2023-11-14T22:13:20Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': {} } }],
  });
});

test('unknown fields are skipped', () => {
  const ns = decode(envelope('v1', 'Namespace', meta('n'), str(99, 'future'), msg(2, int(77, 5))));
  assert.deepEqual(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } });
});

test('an unregistered kind is refused with the scheme error text', () => {
  const cases: [string, string, string][] = [
    ['v1', 'Foo', 'no kind "Foo" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ['apps/v1beta1', 'Deployment', 'no kind "Deployment" is registered for version "apps/v1beta1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ['apps/v1', 'PodSpec', 'no kind "PodSpec" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ['', 'Pod', `Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"Pod"}'`],
  ];
  for (const [apiVersion, kind, message] of cases) {
    assert.deepEqual(decodeProtobufObject(envelope(apiVersion, kind)), { ok: false, message });
  }
});

test('bodies that are not protobuf envelopes are refused like upstream', () => {
  assert.deepEqual(decodeProtobufObject(new Uint8Array(0)), { ok: false, message: 'empty data' });
  assert.deepEqual(decodeProtobufObject(new TextEncoder().encode('{"kind":"Pod"}')), {
    ok: false,
    message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
  });
  assert.deepEqual(decodeProtobufObject(new Uint8Array([0x6b, 0x38, 0x73, 0x00])), { ok: false, message: 'empty body' });
  const truncated = envelope('v1', 'Namespace', meta('n')).subarray(0, 20);
  assert.equal(decodeProtobufObject(truncated).ok, false);
  const wrongWire = decodeProtobufObject(envelope('v1', 'Namespace', int(1, 5)));
  assert.equal(wrongWire.ok, false);
});
