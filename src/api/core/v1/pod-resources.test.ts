import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from './pod/types.ts';
import { podEffectiveRequests, podResourceLimits, podResourceRequests, isRestartableInitContainer } from './pod-resources.ts';
import { getPodQOS } from './pod/qos.ts';

const c = (name: string, requests: Record<string, string>, limits?: Record<string, string>): Container => ({
  name,
  resources: { requests, ...(limits ? { limits } : {}) },
});
const sidecar = (name: string, requests: Record<string, string>): Container => ({ ...c(name, requests), restartPolicy: 'Always' });
const pod = (containers: Container[], initContainers: Container[] = [], extra: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'p' },
  spec: { containers, initContainers, ...extra },
});

// Cases from component-helpers/resource/helpers_test.go (TestPodRequestsAndLimits*), cpu in millicores.
const requestCases: { name: string; pod: Pod; cpu: number }[] = [
  { name: 'a restartable init container adds to the containers', pod: pod([c('c1', { cpu: '1' })], [sidecar('ri1', { cpu: '1' })]), cpu: 2000 },
  {
    name: 'multiple restartable init containers: max(5, 3+2+1+1)',
    pod: pod([c('c1', { cpu: '1' })], [c('i1', { cpu: '5' }), sidecar('ri1', { cpu: '1' }), sidecar('ri2', { cpu: '2' }), sidecar('ri3', { cpu: '3' })]),
    cpu: 7000,
  },
  {
    name: 'multiple restartable and regular init containers: init-2 5 + sidecars before it 1+2',
    pod: pod(
      [c('c1', { cpu: '1' })],
      [c('i1', { cpu: '5' }), sidecar('ri1', { cpu: '1' }), sidecar('ri2', { cpu: '2' }), c('i2', { cpu: '5' }), sidecar('ri3', { cpu: '3' })],
    ),
    cpu: 8000,
  },
  { name: 'restartable-init, init and regular', pod: pod([c('c1', { cpu: '100' })], [sidecar('ri1', { cpu: '10' }), c('i1', { cpu: '200' })]), cpu: 210000 },
  { name: 'regular init containers take the max', pod: pod([c('c1', { cpu: '100m' })], [c('i1', { cpu: '300m' }), c('i2', { cpu: '200m' })]), cpu: 300 },
  { name: 'overhead is added', pod: pod([c('c1', { cpu: '100m' })], [], { overhead: { cpu: '250m' } }), cpu: 350 },
  {
    name: 'pod-level requests replace the aggregate',
    pod: pod([c('c1', { cpu: '100m' }), c('c2', { cpu: '100m' })], [], { resources: { requests: { cpu: '1' } } }),
    cpu: 1000,
  },
];

for (const tc of requestCases) {
  test(`podResourceRequests: ${tc.name}`, () => {
    assert.equal(podResourceRequests(tc.pod).cpu, tc.cpu);
  });
}

test('podResourceRequests counts memory in bytes and extended resources as units', () => {
  const r = podResourceRequests(pod([c('a', { memory: '1Gi', 'nvidia.com/gpu': '2' }), c('b', { memory: '500M' })]));
  assert.deepEqual(r, { memory: 1073741824 + 500_000_000, 'nvidia.com/gpu': 2 });
});

test('podResourceRequests fills missing container requests with nonMissingContainerRequests', () => {
  const r = podResourceRequests(pod([c('a', {}), c('b', { cpu: '0' })]), { nonMissingContainerRequests: { cpu: 100 } });
  assert.equal(r.cpu, 100);
});

test('podEffectiveRequests reserves the larger of spec and allocated during a resize', () => {
  const p = pod([c('a', { cpu: '500m' })]);
  p.status = { containerStatuses: [{ name: 'a', ready: true, restartCount: 0, image: '', imageID: '', allocatedResources: { cpu: '1' } }] };
  assert.equal(podEffectiveRequests(p).cpu, 1000);
  assert.equal(podResourceRequests(p).cpu, 500);
});

test('podEffectiveRequests ignores the spec when the resize is infeasible', () => {
  const p = pod([c('a', { cpu: '4' })]);
  p.status = {
    conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }],
    containerStatuses: [{ name: 'a', ready: true, restartCount: 0, image: '', imageID: '', allocatedResources: { cpu: '1' } }],
  };
  assert.equal(podEffectiveRequests(p).cpu, 1000);
});

test('podResourceLimits adds overhead only to non-zero limits', () => {
  const p = pod([c('a', {}, { cpu: '1' })], [], { overhead: { cpu: '100m', memory: '10Mi' } });
  assert.deepEqual(podResourceLimits(p), { cpu: 1100 });
});

test('isRestartableInitContainer is true only for restartPolicy Always', () => {
  assert.equal(isRestartableInitContainer({ restartPolicy: 'Always' }), true);
  assert.equal(isRestartableInitContainer({}), false);
});

const qosCases: { name: string; pod: Pod; want: string }[] = [
  { name: 'no resources', pod: pod([c('a', {})]), want: 'BestEffort' },
  { name: 'zero requests only', pod: pod([c('a', { cpu: '0' })]), want: 'BestEffort' },
  { name: 'equal cpu and memory limits and requests', pod: pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]), want: 'Guaranteed' },
  { name: 'limits only (requests defaulted from them by then)', pod: pod([c('a', { cpu: '1', memory: '1G' }, { cpu: '1000m', memory: '1G' })]), want: 'Guaranteed' },
  { name: 'memory limit missing', pod: pod([c('a', { cpu: '1' }, { cpu: '1' })]), want: 'Burstable' },
  {
    name: 'one guaranteed container, one best effort',
    pod: pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }), c('b', {})]),
    want: 'Burstable',
  },
  {
    name: 'init container counts',
    pod: pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], [c('i', { cpu: '1' })]),
    want: 'Burstable',
  },
  {
    name: 'pod-level resources decide',
    pod: pod([c('a', {})], [], { resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }),
    want: 'Guaranteed',
  },
];
for (const tc of qosCases) {
  test(`getPodQOS: ${tc.name} -> ${tc.want}`, () => {
    assert.equal(getPodQOS(tc.pod), tc.want);
  });
}
