import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Pod, VolumeMount } from './types.ts';
import { validatePodCreate } from './validation.ts';
import { container, pod } from './fixtures.test-helpers.ts';

const messages = (p: Pod): string[] => validatePodCreate(p).map((e) => formatFieldError(e, { withField: true }));
const withMount = (m: Partial<VolumeMount>): Pod =>
  pod({ volumes: [{ name: 'data', emptyDir: {} }], containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/data', ...m }] })] });

test('recursiveReadOnly on a read-only mount is valid in each mode', () => {
  for (const mode of ['Disabled', 'IfPossible', 'Enabled'] as const) assert.deepEqual(messages(withMount({ readOnly: true, recursiveReadOnly: mode })), []);
  assert.deepEqual(messages(withMount({ readOnly: true, recursiveReadOnly: 'Enabled', mountPropagation: 'None' })), []);
});

test('recursiveReadOnly Enabled or IfPossible needs readOnly, reported at the list path as upstream does', () => {
  assert.deepEqual(messages(withMount({ recursiveReadOnly: 'Enabled' })), ['spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true']);
  assert.deepEqual(messages(withMount({ readOnly: false, recursiveReadOnly: 'IfPossible' })), ['spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true']);
  assert.deepEqual(messages(withMount({ recursiveReadOnly: 'Disabled' })), []);
});

test('recursiveReadOnly is refused with a propagating mount', () => {
  assert.deepEqual(messages(withMount({ readOnly: true, recursiveReadOnly: 'Enabled', mountPropagation: 'HostToContainer' })), [
    'spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified',
  ]);
});

test('an unknown recursiveReadOnly mode is not supported', () => {
  assert.deepEqual(messages(withMount({ readOnly: true, recursiveReadOnly: 'Always' as 'Enabled' })), [
    'spec.containers[0].volumeMounts.recursiveReadOnly: Unsupported value: "Always": supported values: "Disabled", "Enabled", "IfPossible"',
  ]);
});

test('mountPropagation: known modes only, Bidirectional for privileged containers only', () => {
  assert.deepEqual(messages(withMount({ mountPropagation: 'Sideways' as 'None' })), [
    'spec.containers[0].volumeMounts.mountPropagation: Unsupported value: "Sideways": supported values: "Bidirectional", "HostToContainer", "None"',
  ]);
  assert.deepEqual(messages(withMount({ mountPropagation: 'Bidirectional' })), [
    'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
  ]);
});

test('subPath and subPathExpr are relative and never step up', () => {
  assert.deepEqual(messages(withMount({ subPath: '/etc' })), ['spec.containers[0].volumeMounts.subPath: Invalid value: "/etc": must be a relative path']);
  assert.deepEqual(messages(withMount({ subPathExpr: 'a/../../b' })), ["spec.containers[0].volumeMounts.subPathExpr: Invalid value: \"a/../../b\": must not contain '..'"]);
  assert.deepEqual(messages(withMount({ subPath: 'a/b..c' })), []);
});
