// RuntimeClass validation in upstream's words, and MergeTolerations' superset rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { RuntimeClass } from './runtime-class.ts';
import { mergeTolerations, runtimeClassDefinition, validateRuntimeClass } from './runtime-class.ts';

const messages = (rc: RuntimeClass): string[] => validateRuntimeClass(rc).map((e) => formatFieldError(e, { withField: true }));

test('RuntimeClass validation: handler a DNS label, overhead quantities, unique tolerations; handler immutable', () => {
  assert.deepEqual(messages({ metadata: { name: 'nvidia' }, handler: 'nvidia', overhead: { podFixed: { cpu: '250m' } }, scheduling: { nodeSelector: { 'nvidia.com/gpu.present': 'true' } } }), []);
  assert.deepEqual(messages({ metadata: { name: 'x' }, handler: '' }), [
    `handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.deepEqual(messages({ metadata: { name: 'x' }, handler: 'runc', overhead: { podFixed: { cpu: '-1' } } }), ['overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  assert.deepEqual(messages({ metadata: { name: 'x' }, handler: 'runc', scheduling: { tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'a', operator: 'Exists' }] } }), [
    'scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"a", Operator:"Exists", Value:"", Effect:"", TolerationSeconds:(*int64)(nil)}',
  ]);
  const update = runtimeClassDefinition.validateUpdate?.({ metadata: { name: 'x', resourceVersion: '2' }, handler: 'kata' }, { metadata: { name: 'x', resourceVersion: '2' }, handler: 'runc' }, { now: 0 }) ?? [];
  assert.deepEqual(update.map((e) => formatFieldError(e, { withField: true })), ['handler: Invalid value: "kata": field is immutable']);
});

test('mergeTolerations keeps both lists without what another toleration covers', () => {
  const gpu = { key: 'nvidia.com/gpu', operator: 'Exists' as const, effect: 'NoSchedule' as const };
  assert.deepEqual(mergeTolerations([{ key: 'a', operator: 'Equal', value: '1' }], [gpu]), [{ key: 'a', operator: 'Equal', value: '1' }, gpu]);
  assert.deepEqual(mergeTolerations([gpu], [gpu]), [gpu], 'equal ones once');
  assert.deepEqual(mergeTolerations([gpu], [{ key: 'nvidia.com/gpu', operator: 'Exists' }]), [{ key: 'nvidia.com/gpu', operator: 'Exists' }], 'no effect covers every effect');
  assert.deepEqual(mergeTolerations([{ operator: 'Exists' }], [gpu]), [{ operator: 'Exists' }], 'an empty key with Exists covers all');
  const short = { key: 'k', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 30 };
  const long = { ...short, tolerationSeconds: 300 };
  assert.deepEqual(mergeTolerations([short], [long]), [long], 'the longer NoExecute toleration covers the shorter');
});
