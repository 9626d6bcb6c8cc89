import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { leaseDefinition as def } from './lease.ts';
import type { Lease } from './lease.ts';

const now = Date.parse('2026-01-01T00:00:10Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const lease = (spec: NonNullable<Lease['spec']>): Lease => ({ metadata: { name: 'cpu-0', namespace: 'kube-node-lease', creationTimestamp: '2026-01-01T00:00:00Z' }, spec });

test('lease table: Name Holder Age', () => {
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Holder', 'Age']);
  assert.deepEqual(def.table?.cells(lease({ holderIdentity: 'cpu-0', leaseDurationSeconds: 40 }), now), ['cpu-0', 'cpu-0', '10s']);
  assert.deepEqual(def.table?.cells(lease({}), now), ['cpu-0', '', '10s']);
});

test('lease validation messages', () => {
  assert.deepEqual(msgs(def.validateCreate?.(lease({ leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'x' }), ctx)), [
    'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
  ]);
  assert.deepEqual(msgs(def.validateCreate?.(lease({ strategy: 'Newest' }), ctx)), [
    'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
  ]);
});
