import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillZeroFields, zeroFields } from './empty-objects.ts';

test('fillZeroFields writes what Go encodes for unset fields and leaves set ones, whatever their type', () => {
  const target: Record<string, unknown> = { a: 'kept', nested: { x: 1 }, nulled: null, wrong: 'not a struct' };
  fillZeroFields(target, { a: '', b: 0, c: null, nested: { x: 0, y: '' }, nulled: { z: '' }, wrong: { z: '' }, made: { deep: { n: 0 } } });
  assert.deepEqual(target, { a: 'kept', b: 0, c: null, nested: { x: 1, y: '' }, nulled: { z: '' }, wrong: 'not a struct', made: { deep: { n: 0 } } });
});

test('the shared zero values are copied, never handed out', () => {
  const a: Record<string, unknown> = {};
  const b: Record<string, unknown> = {};
  fillZeroFields(a, zeroFields('', 'v1', 'Service'));
  fillZeroFields(b, zeroFields('', 'v1', 'Service'));
  (a.status as Record<string, unknown>).loadBalancer = { ingress: [] };
  assert.deepEqual(b, { spec: {}, status: { loadBalancer: {} } });
  assert.deepEqual(zeroFields('', 'v1', 'Service'), { spec: {}, status: { loadBalancer: {} } });
});
