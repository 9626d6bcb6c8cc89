import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { workloadDefinition as def } from './workload.ts';
import type { Workload, WorkloadSpec } from './workload.ts';

const ctx = { now: 0 };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const w = (spec: Partial<WorkloadSpec>, name = 'w'): Workload => ({ metadata: { name, namespace: 'default', resourceVersion: '1' }, spec: { podGroups: [], ...spec } });

test('a gang workload with a controllerRef validates', () => {
  assert.deepEqual(msgs(def.validateCreate?.(w({ controllerRef: { apiGroup: 'batch', kind: 'Job', name: 'j' }, podGroups: [{ name: 'workers', policy: { gang: { minCount: 4 } } }, { name: 'driver', policy: { basic: {} } }] }), ctx)), []);
});

test('workload validation messages are upstream', () => {
  const cases: [Partial<WorkloadSpec>, string[]][] = [
    [{}, ['spec.podGroups: Required value: must have at least one item']],
    [{ podGroups: Array.from({ length: 9 }, (_, i) => ({ name: `g${i}`, policy: { basic: {} } })) }, ['spec.podGroups: Too many: 9: must have at most 8 items']],
    [{ podGroups: [{ name: 'pg', policy: {} }] }, ['spec.podGroups[0].policy: Required value: exactly one of `basic`, `gang` is required']],
    [{ podGroups: [{ name: 'pg', policy: { basic: {}, gang: { minCount: 1 } } }] }, ['spec.podGroups[0].policy: Invalid value: "{`basic`, `gang`}": exactly one of `basic`, `gang` is required, but multiple fields are set']],
    [{ podGroups: [{ name: 'pg', policy: { gang: { minCount: 0 } } }] }, ['spec.podGroups[0].policy.gang.minCount: Invalid value: 0: must be greater than zero']],
    [{ podGroups: [{ name: 'pg', policy: { basic: {} } }, { name: 'pg', policy: { basic: {} } }] }, ['spec.podGroups[1].name: Duplicate value: "pg"']],
    [{ podGroups: [{ name: 'Bad_Name', policy: { basic: {} } }] }, ["spec.podGroups[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    [{ controllerRef: { kind: '', name: 'a/b' }, podGroups: [{ name: 'pg', policy: { basic: {} } }] }, ['spec.controllerRef.kind: Required value', "spec.controllerRef.name: Invalid value: \"a/b\": may not contain '/'"]],
  ];
  for (const [spec, want] of cases) assert.deepEqual(msgs(def.validateCreate?.(w(spec), ctx)), want, JSON.stringify(spec));
});

test('podGroups and a set controllerRef are immutable, reported at upstream root paths', () => {
  const old = w({ controllerRef: { kind: 'Job', name: 'a' }, podGroups: [{ name: 'pg', policy: { gang: { minCount: 2 } } }] });
  const next = w({ controllerRef: { kind: 'Job', name: 'b' }, podGroups: [{ name: 'pg', policy: { gang: { minCount: 3 } } }] });
  assert.deepEqual(def.validateUpdate?.(next, old, ctx).map((e) => [e.field, e.detail]), [['controllerRef', 'field is immutable'], ['podGroups', 'field is immutable']]);
  // Setting a controllerRef that was unset is allowed.
  const unset = w({ podGroups: old.spec.podGroups });
  assert.deepEqual(msgs(def.validateUpdate?.({ ...unset, spec: { ...unset.spec, controllerRef: { kind: 'Job', name: 'a' } } }, unset, ctx)), []);
});

test('the workload kind is namespaced, status-less and has no printer (default table)', () => {
  assert.equal(def.namespaced, true);
  assert.equal(def.hasStatus, false);
  assert.equal(def.table, undefined);
  assert.equal(def.resource, 'workloads');
});
