import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { priorityClassDefinition as def, systemPriorityClasses } from './priority-class.ts';
import type { PriorityClass } from './priority-class.ts';

const now = Date.parse('2026-01-01T00:00:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const pc = (name: string, value: number, over: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name, resourceVersion: '1' }, value, ...over });

test('the built-in system classes validate and carry upstream values', () => {
  const classes = systemPriorityClasses();
  assert.deepEqual(classes.map((c) => [c.metadata.name, c.value]), [['system-node-critical', 2000001000], ['system-cluster-critical', 2000000000]]);
  for (const c of classes) {
    def.defaults?.(c);
    assert.deepEqual(msgs(def.validateCreate?.(c, ctx)), []);
    assert.equal(c.preemptionPolicy, 'PreemptLowerPriority');
  }
});

test('priority class validation messages', () => {
  assert.deepEqual(msgs(def.validateCreate?.(pc('system-mine', 5), ctx)), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pc('system-node-critical', 5), ctx)), [
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(pc('high', 1_000_000_001, { preemptionPolicy: 'Sometimes' as 'Never' }), ctx)), [
    'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
  ]);
  const old = pc('high', 100, { preemptionPolicy: 'PreemptLowerPriority' });
  assert.deepEqual(msgs(def.validateUpdate?.(pc('high', 200, { preemptionPolicy: 'Never' }), old, ctx)), [
    'value: Forbidden: may not be changed in an update.',
    'preemptionPolicy: Invalid value: "Never": field is immutable',
  ]);
});

test('priority class table', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy']);
  const c = pc('high', 1000, { globalDefault: true, metadata: { name: 'high', creationTimestamp: '2025-12-31T00:00:00Z' } });
  def.defaults?.(c);
  assert.deepEqual(def.table?.cells(c, now), ['high', 1000, true, '24h', 'PreemptLowerPriority']);
  assert.deepEqual(def.shortNames, ['pc']);
});
