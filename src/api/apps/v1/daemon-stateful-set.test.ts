import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { daemonSetDefinition } from './daemon-set.ts';
import type { DaemonSet } from './daemon-set.ts';
import { statefulSetDefinition } from './stateful-set.ts';
import type { StatefulSet } from './stateful-set.ts';

const ctx = { now: Date.parse('2026-01-01T00:00:00Z') };
const messages = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };

test('DaemonSet defaults: RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10; the template generation starts at 1 and follows template changes', () => {
  const ds = { metadata: { name: 'agent', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'x' } }, template: structuredClone(template) } } as DaemonSet;
  daemonSetDefinition.defaults?.(ds);
  assert.deepEqual([ds.spec.updateStrategy, ds.spec.revisionHistoryLimit], [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, 10]);
  daemonSetDefinition.prepareForCreate?.(ds, ctx);
  assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '1');
  assert.deepEqual(messages(daemonSetDefinition.validateCreate?.(ds, ctx)), []);
  const next = structuredClone(ds);
  next.spec.template.spec = { containers: [{ name: 'c', image: 'i2' }] };
  daemonSetDefinition.prepareForUpdate?.(next, ds, ctx);
  assert.equal(next.metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
});

test('DaemonSet validation: both budgets set, neither set, and the pod template rules in DaemonSet words', () => {
  const ds = (rollingUpdate: object, extra: object = {}): DaemonSet => {
    const obj = { metadata: { name: 'agent', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'x' } }, template: { ...structuredClone(template), spec: { ...structuredClone(template.spec), ...extra } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate } } } as DaemonSet;
    daemonSetDefinition.defaults?.(obj);
    return obj;
  };
  assert.deepEqual(messages(daemonSetDefinition.validateCreate?.(ds({ maxUnavailable: 1, maxSurge: 1 }), ctx)), ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero']);
  assert.deepEqual(messages(daemonSetDefinition.validateCreate?.(ds({ maxUnavailable: 0, maxSurge: '0%' }, { activeDeadlineSeconds: 5 }), ctx)), [
    'spec.template.spec.activeDeadlineSeconds: Invalid value: 5: activeDeadlineSeconds in DaemonSet is not Supported',
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
  ]);
});

test('StatefulSet defaults (maxUnavailable 1 with MaxUnavailableStatefulSet beta); claim templates count as volumes; only some spec fields may change', () => {
  const sts = {
    metadata: { name: 'db', namespace: 'default', resourceVersion: '1' },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  } as StatefulSet;
  statefulSetDefinition.defaults?.(sts);
  assert.deepEqual(
    [sts.spec.replicas, sts.spec.podManagementPolicy, sts.spec.updateStrategy, sts.spec.persistentVolumeClaimRetentionPolicy, sts.spec.serviceName],
    [1, 'OrderedReady', { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } }, { whenDeleted: 'Retain', whenScaled: 'Retain' }, ''],
  );
  assert.deepEqual(messages(statefulSetDefinition.validateCreate?.(sts, ctx)), []);
  const scaled = { ...sts, spec: { ...sts.spec, replicas: 5 } };
  assert.deepEqual(messages(statefulSetDefinition.validateUpdate?.(scaled, sts, ctx)), []);
  const renamed = { ...sts, spec: { ...sts.spec, serviceName: 'other' } };
  assert.deepEqual(messages(statefulSetDefinition.validateUpdate?.(renamed, sts, ctx)), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
  const bad = { ...sts, spec: { ...sts.spec, podManagementPolicy: 'Random', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } } } } as unknown as StatefulSet;
  assert.deepEqual(messages(statefulSetDefinition.validateCreate?.(bad, ctx)), [
    'spec.podManagementPolicy: Invalid value: "Random": must be \'OrderedReady\' or \'Parallel\'',
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0',
  ]);
});
