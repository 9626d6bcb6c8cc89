import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { horizontalPodAutoscalerDefinition as def, formatHPAMetrics } from './horizontal-pod-autoscaler.ts';
import type { HorizontalPodAutoscaler, MetricSpec } from './types.ts';

const now = Date.parse('2026-01-01T00:05:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const hpa = (spec: Partial<HorizontalPodAutoscaler['spec']> = {}): HorizontalPodAutoscaler => ({
  metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
});
const cpu = (averageUtilization: number): MetricSpec => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } });

test('defaults: minReplicas 1 and 80% CPU; behaviour rules filled in only when behaviour is given', () => {
  const plain = hpa();
  def.defaults?.(plain);
  assert.equal(plain.spec.minReplicas, 1);
  assert.deepEqual(plain.spec.metrics, [cpu(80)]);
  assert.equal(plain.spec.behavior, undefined);
  const tuned = hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } });
  def.defaults?.(tuned);
  assert.deepEqual(tuned.spec.behavior, {
    scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 60 },
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
});

test('validation messages are upstream', () => {
  const cases: [Partial<HorizontalPodAutoscaler['spec']>, string[]][] = [
    [{ minReplicas: 3, maxReplicas: 2, metrics: [cpu(50)] }, ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
    [{ minReplicas: 0, maxReplicas: 0, metrics: [cpu(0)] }, [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]],
    [{ scaleTargetRef: { kind: '', name: 'a/b' }, metrics: [cpu(50)] }, ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'']],
    [{ metrics: [{ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] }, [
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
    ]],
    [{ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } }, pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] }, [
      'spec.metrics[0].pods: Forbidden: must populate the given metric source only',
    ]],
    [{ metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue' } } }] }, ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization']],
    [{ metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '-1' } } }] }, ['spec.metrics[0].external.target.value: Invalid value: "-1": must be positive']],
    [{ metrics: [cpu(50)], behavior: { scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Most' as 'Max', policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] } } }, [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ]],
    [{ metrics: [cpu(50)], behavior: { scaleDown: { policies: [] } } }, ['spec.behavior.scaleDown.policies: Required value: must specify at least one Policy']],
  ];
  for (const [spec, expected] of cases) assert.deepEqual(msgs(def.validateCreate?.(hpa(spec), ctx)), expected, JSON.stringify(spec));
});

test('status is server-owned: reset on create, kept by spec writes, spec kept by status writes', () => {
  const created = hpa();
  created.status = { desiredReplicas: 9, currentReplicas: 9 };
  def.prepareForCreate?.(created, ctx);
  assert.deepEqual(created.status, { desiredReplicas: 0, currentMetrics: null });
  const statusWrite = hpa({ maxReplicas: 50 });
  statusWrite.status = { desiredReplicas: 3, currentReplicas: 2 };
  def.prepareForUpdate?.(statusWrite, created, { ...ctx, subresource: 'status' });
  assert.equal(statusWrite.spec.maxReplicas, 5);
  assert.equal(statusWrite.status.desiredReplicas, 3);
});

test('table: Reference, Targets text as upstream formatHPAMetrics, MinPods, MaxPods, Replicas', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  const h = hpa({ minReplicas: 1, metrics: [cpu(50)] });
  assert.deepEqual(def.table?.cells(h, now), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', 5, 0, '5m']);
  h.status = { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30, averageValue: '30m' } } }] };
  assert.equal(def.table?.cells(h, now)[2], 'cpu: 30%/50%');
  const mem: MetricSpec = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } };
  const ext: MetricSpec = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } };
  assert.equal(formatHPAMetrics([cpu(50), mem, ext], []), 'cpu: <unknown>/50%, memory: <unknown>/500Mi + 1 more...');
  assert.equal(formatHPAMetrics([mem], [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '209715200' } } }]), 'memory: 209715200/500Mi');
  assert.equal(formatHPAMetrics([], undefined), '<none>');
  assert.deepEqual([def.shortNames, def.categories], [['hpa'], ['all']]);
});
