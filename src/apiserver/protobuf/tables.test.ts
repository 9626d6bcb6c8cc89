// Integrity of the generated field tables and the special-shape formatters.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTO_PACKAGES, findKindMessage, findMessage } from './registry.ts';
import { formatDuration, formatTimestamp } from './special-types.ts';

test('every message a field refers to has a table, and field numbers are unique per message', () => {
  const missing: string[] = [];
  for (const pkg of PROTO_PACKAGES) {
    for (const name of Object.keys(pkg.messages)) {
      const spec = findMessage(`${pkg.proto}.${name}`);
      assert.ok(spec);
      assert.equal(spec.byNumber.size, spec.fields.length, `duplicate field number in ${spec.name}`);
      for (const field of spec.fields) {
        if (field.value.kind === 'message' && !findMessage(field.value.message)) missing.push(`${spec.name}.${field.name ?? '...'} -> ${field.value.message}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('the kinds kubectl and typed clients send are registered', () => {
  const kinds: [string, string][] = [
    ['v1', 'Namespace'], ['v1', 'ConfigMap'], ['v1', 'Secret'], ['v1', 'ServiceAccount'], ['v1', 'Service'], ['v1', 'Pod'],
    ['v1', 'Binding'], ['v1', 'Event'], ['v1', 'PersistentVolumeClaim'], ['v1', 'ResourceQuota'], ['v1', 'Node'], ['v1', 'DeleteOptions'],
    ['apps/v1', 'Deployment'], ['apps/v1', 'ReplicaSet'], ['apps/v1', 'StatefulSet'], ['apps/v1', 'DaemonSet'], ['apps/v1', 'DeleteOptions'],
    ['batch/v1', 'Job'], ['batch/v1', 'CronJob'], ['policy/v1', 'PodDisruptionBudget'], ['policy/v1', 'Eviction'],
    ['scheduling.k8s.io/v1', 'PriorityClass'], ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
    ['authentication.k8s.io/v1', 'TokenRequest'], ['authentication.k8s.io/v1', 'SelfSubjectReview'],
    ['authorization.k8s.io/v1', 'SelfSubjectAccessReview'], ['authorization.k8s.io/v1', 'SelfSubjectRulesReview'],
    ['coordination.k8s.io/v1', 'Lease'], ['events.k8s.io/v1', 'Event'], ['autoscaling/v1', 'Scale'],
    ['resource.k8s.io/v1', 'ResourceClaim'], ['resource.k8s.io/v1', 'ResourceSlice'], ['meta.k8s.io/v1', 'DeleteOptions'],
  ];
  const unregistered = kinds.filter(([apiVersion, kind]) => !findKindMessage(apiVersion, kind)).map(([v, k]) => `${v} ${k}`);
  assert.deepEqual(unregistered, []);
  assert.equal(findKindMessage('v1', 'PodSpec'), undefined);
  assert.equal(findKindMessage('v1', 'PodTemplateSpec'), undefined);
});

test('durations print like Go time.Duration.String', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'], [1n, '1ns'], [1_500n, '1.5µs'], [300_000_000n, '300ms'], [1_500_000_000n, '1.5s'],
    [90_000_000_000n, '1m30s'], [3_600_000_000_000n, '1h0m0s'], [-5_000_000_000n, '-5s'], [3_723_000_000_001n, '1h2m3.000000001s'],
  ];
  for (const [nanos, text] of cases) assert.equal(formatDuration(nanos), text, String(nanos));
});

test('timestamps print as RFC3339 (seconds) and RFC3339 with microseconds', () => {
  assert.equal(formatTimestamp(0, 0, false), '1970-01-01T00:00:00Z');
  assert.equal(formatTimestamp(1700000000, 999_999_999, false), '2023-11-14T22:13:20Z');
  assert.equal(formatTimestamp(1700000000, 1_000, true), '2023-11-14T22:13:20.000001Z');
});
