import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { StrategyContext } from '../../resource.ts';
import { deploymentDefinition as def } from './deployment.ts';
import type { Deployment } from './deployment.ts';
import { deploymentScaleSpec } from './scale.ts';

const ctx: StrategyContext = { now: Date.parse('2025-01-01T00:10:00Z') };
const messages = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));

function deployment(over: Partial<Deployment['spec']> = {}, labels: Record<string, string> = { app: 'web' }): Deployment {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2025-01-01T00:00:00Z', resourceVersion: '1' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      ...over,
    },
  };
  def.defaults?.(d);
  return d;
}

test('Deployment defaults: replicas 1, RollingUpdate 25%/25%, history 10, deadline 600', () => {
  const d = deployment();
  assert.equal(d.spec.replicas, 1);
  assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(d.spec.revisionHistoryLimit, 10);
  assert.equal(d.spec.progressDeadlineSeconds, 600);
  assert.equal(d.spec.minReadySeconds, undefined, 'int32 with omitempty: 0 is not written');
  assert.equal(d.spec.template.spec.restartPolicy, 'Always');
});

test('Deployment defaults leave a Recreate strategy without rollingUpdate', () => {
  const d = deployment({ strategy: { type: 'Recreate' } });
  assert.deepEqual(d.spec.strategy, { type: 'Recreate' });
});

test('Deployment validation messages match upstream', () => {
  const cases: [string, Deployment, string[]][] = [
    ['valid', deployment(), []],
    [
      'selector mismatch',
      deployment({}, { app: 'other' }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`'],
    ],
    ['missing selector', (() => { const d = deployment(); delete d.spec.selector; return d; })(), ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['negative replicas', deployment({ replicas: -1 }), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'restartPolicy Never',
      (() => { const d = deployment(); d.spec.template.spec.restartPolicy = 'Never'; return d; })(),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'both surge and unavailable zero',
      deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'],
    ],
    [
      'over 100%',
      deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '150%' } } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
    ],
    [
      'Recreate with rollingUpdate',
      deployment({ strategy: { type: 'Recreate', rollingUpdate: {} } }),
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'deadline not above minReadySeconds',
      deployment({ minReadySeconds: 600 }),
      ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds'],
    ],
    [
      'empty selector',
      deployment({ selector: {} }),
      ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
    ],
  ];
  for (const [name, d, want] of cases) {
    assert.deepEqual(messages(def.validateCreate!(d, ctx)), want, name);
  }
});

test('Deployment selector is immutable on update', () => {
  const old = deployment();
  const next = deployment({ selector: { matchLabels: { app: 'web', tier: 'x' } } }, { app: 'web', tier: 'x' });
  assert.deepEqual(messages(def.validateUpdate!(next, old, ctx)), [
    'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
  ]);
});

test('Deployment strategies split spec and status', () => {
  const old = deployment();
  old.metadata.generation = 3;
  old.status = { replicas: 1 };
  const user = deployment({ replicas: 5 });
  user.status = { replicas: 99 };
  def.prepareForUpdate!(user, old, ctx);
  assert.deepEqual(user.status, { replicas: 1 });

  const writer = deployment({ replicas: 7 });
  writer.status = { replicas: 2 };
  def.prepareForUpdate!(writer, old, { ...ctx, subresource: 'status' });
  assert.equal(writer.spec.replicas, 1);
  assert.deepEqual(writer.status, { replicas: 2 });

  const annotated = deployment();
  annotated.metadata.annotations = { note: 'x' };
  def.prepareForUpdate!(annotated, old, ctx);
  assert.equal(annotated.metadata.generation, 4, 'annotation changes bump the generation');
});

test('Deployment status validation', () => {
  const old = deployment();
  old.status = { collisionCount: 2 };
  const next = deployment();
  next.status = { replicas: 1, readyReplicas: 2, collisionCount: 1 };
  assert.deepEqual(messages(def.validateStatusUpdate!(next, old, ctx)), [
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.collisionCount: Invalid value: 1: cannot be decremented',
  ]);
});

test('Deployment table cells', () => {
  const d = deployment({ replicas: 3 });
  d.status = { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 };
  assert.deepEqual(def.table!.columns.map((c) => [c.name, c.priority]), [
    ['Name', 0], ['Ready', 0], ['Up-to-date', 0], ['Available', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1],
  ]);
  assert.deepEqual(def.table!.cells(d, ctx.now), ['web', '2/3', 3, 2, '10m', 'nginx', 'nginx:1.27', 'app=web']);
});

test('Deployment discovery names', () => {
  assert.deepEqual(def.shortNames, ['deploy']);
  assert.deepEqual(def.categories, ['all']);
  assert.deepEqual(def.subresources?.map((s) => [s.name, s.group ?? '', s.kind ?? '']), [['status', '', ''], ['scale', 'autoscaling', 'Scale']]);
});

test('Deployment scale subresource round trip', () => {
  const d = deployment({ replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] } });
  d.metadata.uid = 'u1';
  d.metadata.resourceVersion = '42';
  d.status = { replicas: 2 };
  const scale = deploymentScaleSpec.toScale(d);
  assert.deepEqual(scale, {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '42', creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: { replicas: 3 },
    status: { replicas: 2, selector: 'app=web,tier in (a,b)' },
  });
  const applied = deploymentScaleSpec.applyScale(d, { ...scale, spec: { replicas: 5 } });
  assert.ok('object' in applied);
  assert.equal(applied.object.spec.replicas, 5);
  assert.equal(d.spec.replicas, 3, 'the input is not mutated');
  const rejected = deploymentScaleSpec.applyScale(d, { ...scale, spec: { replicas: -1 } });
  assert.ok('errors' in rejected);
  assert.deepEqual(messages(rejected.errors), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
});

test('Deployment template pod spec is validated with the Pod rules', () => {
  const d = deployment();
  delete d.spec.template.spec.containers[0]!.image;
  assert.ok(messages(def.validateCreate!(d, ctx)).includes('spec.template.spec.containers[0].image: Required value'));
});
