import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Pod } from './types.ts';
import { validatePodCreate } from './validation.ts';
import { container, pod } from './fixtures.test-helpers.ts';

const messages = (p: Pod): string[] => validatePodCreate(p).map((e) => formatFieldError(e, { withField: true }));

test('supplementalGroupsPolicy Merge and Strict are valid', () => {
  for (const policy of ['Merge', 'Strict'] as const) assert.deepEqual(messages(pod({ securityContext: { supplementalGroupsPolicy: policy } })), []);
});

test('an unknown supplementalGroupsPolicy is not supported, with the two values upstream lists', () => {
  const p = pod({ securityContext: { supplementalGroupsPolicy: 'Loose' as 'Merge' } });
  assert.deepEqual(messages(p), ['spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"']);
});

test('procMount Unmasked needs hostUsers: false', () => {
  const unmasked = container({ securityContext: { procMount: 'Unmasked' } });
  assert.deepEqual(messages(pod({ containers: [unmasked] })), ['spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`']);
  assert.deepEqual(messages(pod({ containers: [unmasked], hostUsers: true })), ['spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`']);
  assert.deepEqual(messages(pod({ containers: [unmasked], hostUsers: false })), []);
});

test('procMount Default is valid in any pod; another value is not supported', () => {
  assert.deepEqual(messages(pod({ containers: [container({ securityContext: { procMount: 'Default' } })] })), []);
  const odd = pod({ initContainers: [container({ name: 'init', securityContext: { procMount: 'Masked' as 'Default' } })], hostUsers: false });
  assert.deepEqual(messages(odd), ['spec.initContainers[0].securityContext.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"']);
});

test('a pod in a user namespace may share none of the host namespaces, named as upstream names them', () => {
  const p = pod({ hostUsers: false, hostNetwork: true, hostPID: true, hostIPC: true });
  p.spec.containers[0]!.ports = [];
  assert.deepEqual(messages(p), [
    'spec.hostNetwork: Forbidden: when `hostUsers` is false',
    'spec.HostPID: Forbidden: when `hostUsers` is false',
    'spec.HostIPC: Forbidden: when `hostUsers` is false',
  ]);
});

test('host namespaces stay allowed for a pod that shares the host user namespace', () => {
  assert.deepEqual(messages(pod({ hostUsers: true, hostPID: true, hostIPC: true })), []);
});
