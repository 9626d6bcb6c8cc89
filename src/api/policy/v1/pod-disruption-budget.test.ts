import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { podDisruptionBudgetDefinition as def } from './pod-disruption-budget.ts';
import type { PodDisruptionBudget } from './pod-disruption-budget.ts';

const now = Date.parse('2026-01-01T00:05:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const pdb = (spec: PodDisruptionBudget['spec']): PodDisruptionBudget => ({
  metadata: { name: 'web', namespace: 'default', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
});

test('pdb create clears status to zero counts; status writes keep spec', () => {
  const p = pdb({ minAvailable: 1 });
  p.status = { disruptionsAllowed: 5, currentHealthy: 5, desiredHealthy: 1, expectedPods: 5 };
  def.prepareForCreate?.(p, ctx);
  assert.deepEqual(p.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  const upd = pdb({ minAvailable: 3 });
  upd.status = { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 };
  def.prepareForUpdate?.(upd, p, { ...ctx, subresource: 'status' });
  assert.deepEqual(upd.spec?.minAvailable, 1);
  assert.equal(upd.status?.disruptionsAllowed, 1);
});

test('pdb validation messages', () => {
  const both = pdb({ minAvailable: 1, maxUnavailable: '150%' });
  assert.deepEqual(msgs(def.validateCreate?.(both, ctx)), [
    'spec: Invalid value: {"selector":{"matchLabels":{"app":"web"}},"minAvailable":1,"maxUnavailable":"150%"}: minAvailable and maxUnavailable cannot be both set',
    'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pdb({ minAvailable: -1 }), ctx)), ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']);
  const st = pdb({});
  st.status = { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  assert.deepEqual(msgs(def.validateStatusUpdate?.(st, pdb({}), ctx)), ['status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0']);
});

test('pdb table', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  const p = pdb({ maxUnavailable: '25%' });
  p.status = { disruptionsAllowed: 2, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 };
  assert.deepEqual(def.table?.cells(p, now), ['web', 'N/A', '25%', 2, '5m']);
  assert.deepEqual(def.shortNames, ['pdb']);
});
