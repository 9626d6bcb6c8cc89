import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Pod, VolumeMount } from './types.ts';
import { validatePodCreate, validatePodSpec } from './validation.ts';
import { FieldPath } from '../../../../core/index.ts';
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

const imagePod = (image: { reference?: string; pullPolicy?: string }, mount: Partial<VolumeMount> = {}): Pod => {
  const p = pod({ containers: [container({ volumeMounts: [{ name: 'model', mountPath: '/model', ...mount }] })] });
  p.spec.volumes = [{ name: 'model', image: image as { reference: string } }, ...(p.spec.volumes ?? [])];
  return p;
};

test('an image volume with a reference and a pull policy is valid, a subPath into it too', () => {
  assert.deepEqual(messages(imagePod({ reference: 'quay.io/org/model:v1', pullPolicy: 'IfNotPresent' }, { subPath: 'weights' })), []);
});

test('a pod image volume needs a reference and a known pull policy', () => {
  assert.deepEqual(messages(imagePod({ pullPolicy: 'Sometimes' })), [
    'spec.volumes[0].image.reference: Required value',
    'spec.volumes[0].image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
  ]);
});

test('a pod template may leave an image volume reference for a controller to fill in', () => {
  const spec = imagePod({ pullPolicy: 'Always' }).spec;
  assert.deepEqual(validatePodSpec(spec, new FieldPath('spec'), { resourceIsPod: false }), []);
});
