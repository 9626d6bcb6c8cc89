// The warnings `kubectl label ns` shows when a namespace's enforce level tightens: a header, then one
// line per distinct set of reasons naming the lexically first pod and how many others share it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/index.ts';
import { maxPodsToCheck, namespacePodWarnings } from './namespace-check.ts';

const restrictedSecurity = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' as const } };
const pod = (name: string, spec: Partial<Pod['spec']> = {}, owner?: string): Pod => ({
  metadata: { name, namespace: 'ns', ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }] } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

test('existing pods are grouped by the reasons they break the new level', () => {
  const pods = [pod('web-2'), pod('web-1'), pod('web-3'), pod('agent', { hostNetwork: true }), pod('good', { containers: [{ name: 'c', image: 'nginx', securityContext: restrictedSecurity }] }), pod('db', { hostPID: true })];
  assert.deepEqual(namespacePodWarnings('ns', { level: 'restricted', version: 'latest' }, pods), [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'agent (and 1 other pod): host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'web-1 (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
  assert.deepEqual(namespacePodWarnings('ns', { level: 'baseline', version: 0 }, [pod('agent', { hostNetwork: true })]), [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.0"',
    'agent: host namespaces',
  ]);
  assert.deepEqual(namespacePodWarnings('ns', { level: 'restricted', version: 'latest' }, []), []);
});

test('past the limit, one pod of each controller is checked first and the cut is reported', () => {
  const replicas = Array.from({ length: maxPodsToCheck }, (_, i) => pod(`replica-${i}`, {}, 'rs'));
  const warnings = namespacePodWarnings('ns', { level: 'baseline', version: 'latest' }, [...replicas, pod('z-agent', { hostIPC: true })]);
  assert.deepEqual(warnings, [
    `new PodSecurity enforce level only checked against the first ${maxPodsToCheck} of ${maxPodsToCheck + 1} existing pods`,
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
    'z-agent: host namespaces',
  ]);
});
