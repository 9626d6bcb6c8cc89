import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { replicaSetDefinition as def } from './replica-set.ts';
import type { ReplicaSet } from './replica-set.ts';
import { replicaSetScaleSpec } from './scale.ts';

const now = Date.parse('2025-01-02T01:00:00Z');
const messages = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));

function replicaSet(spec: Partial<ReplicaSet['spec']> = {}): ReplicaSet {
  const rs: ReplicaSet = {
    metadata: { name: 'web-5d9c', namespace: 'default', creationTimestamp: '2025-01-01T00:00:00Z', resourceVersion: '7' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } },
      ...spec,
    },
  };
  def.defaults?.(rs);
  return rs;
}

test('ReplicaSet defaults replicas to 1 and the template restartPolicy to Always', () => {
  const rs = replicaSet();
  assert.equal(rs.spec.replicas, 1);
  assert.equal(rs.spec.template?.spec.restartPolicy, 'Always');
});

test('ReplicaSet validation messages match upstream', () => {
  const cases: [string, ReplicaSet, string[]][] = [
    ['valid', replicaSet(), []],
    ['negative minReadySeconds', replicaSet({ minReadySeconds: -1 }), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']],
    [
      'bad selector operator',
      replicaSet({ selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] } }),
      ["spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", 'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"k","operator":"Exists","values":["v"]}]}: invalid label selector'],
    ],
    [
      'activeDeadlineSeconds',
      (() => { const rs = replicaSet(); rs.spec.template!.spec.activeDeadlineSeconds = 5; return rs; })(),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
  ];
  for (const [name, rs, want] of cases) assert.deepEqual(messages(def.validateCreate!(rs, { now })), want, name);
});

test('ReplicaSet status update keeps the spec and checks counters', () => {
  const old = replicaSet();
  const next = replicaSet({ replicas: 9 });
  next.status = { replicas: 1, availableReplicas: 1, readyReplicas: 0 };
  def.prepareForUpdate!(next, old, { now, subresource: 'status' });
  assert.equal(next.spec.replicas, 1);
  assert.deepEqual(messages(def.validateStatusUpdate!(next, old, { now })), [
    'status.availableReplicas: Invalid value: 1: cannot be greater than readyReplicas',
  ]);
});

test('ReplicaSet table cells, field label and discovery', () => {
  const rs = replicaSet({ replicas: 3 });
  rs.status = { replicas: 3, readyReplicas: 1 };
  assert.deepEqual(def.table!.columns.map((c) => c.name), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
  assert.deepEqual(def.table!.cells(rs, now), ['web-5d9c', 3, 3, 1, '25h', 'a,b', 'x,y', 'app=web']);
  assert.equal(def.fieldLabels!['status.replicas']!(rs), '3');
  assert.deepEqual(def.shortNames, ['rs']);
  assert.deepEqual(def.categories, ['all']);
});

test('ReplicaSet scale omits zero replicas from the spec, as int32 omitempty does', () => {
  const rs = replicaSet({ replicas: 0 });
  assert.deepEqual(replicaSetScaleSpec.toScale(rs).spec, {});
  assert.deepEqual(replicaSetScaleSpec.toScale(rs).status, { replicas: 0, selector: 'app=web' });
});

test('a ReplicaSet status always carries replicas, the count Go writes even at 0', () => {
  const created: ReplicaSet = { metadata: { name: 'idle' }, spec: { replicas: 0 } };
  def.prepareForCreate?.(created, { now: 0 });
  assert.deepEqual(created.status, { replicas: 0 });
  const written: ReplicaSet = { metadata: { name: 'idle' }, spec: { replicas: 0 }, status: { observedGeneration: 2, terminatingReplicas: 0 } };
  def.defaults?.(written);
  assert.deepEqual(written.status, { observedGeneration: 2, terminatingReplicas: 0, replicas: 0 });
});
