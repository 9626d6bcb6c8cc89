// The pods/resize subresource as the API server runs it: the resize strategy's prepareForUpdate, then
// validateUpdate, with the upstream 1.35 messages (test/e2e/common/node/pod_resize.go's patch errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Container, Pod, ResourceRequirements } from './types.ts';
import { podDefinition } from './definition.ts';
import { computePodQOS } from './qos.ts';
import { validatePodUpdate } from './update-validation.ts';
import { container, pod } from './fixtures.test-helpers.ts';

const running = (p: Pod): Pod => {
  const out = structuredClone(p);
  out.metadata = { ...out.metadata, uid: 'u1', resourceVersion: '5', creationTimestamp: '2025-01-01T00:00:00Z', generation: 1 };
  out.status = {
    phase: 'Running',
    qosClass: computePodQOS(out),
    containerStatuses: out.spec.containers.map((c) => ({ name: c.name, ready: true, restartCount: 0, image: c.image ?? '', imageID: '', state: { running: {} }, resources: {} })),
  };
  return out;
};

/** Runs the resize strategy on a request built from the stored pod; returns the errors and the result. */
function resize(old: Pod, change: (q: Pod) => void): { errors: string[]; pod: Pod } {
  const next = structuredClone(old);
  change(next);
  podDefinition.prepareForUpdate?.(next, old, { now: 0, subresource: 'resize' });
  const errs = podDefinition.validateUpdate?.(next, old, { now: 0, subresource: 'resize' }) ?? [];
  return { errors: errs.map((e) => formatFieldError(e, { withField: true })), pod: next };
}

const res = (cpuReq: string, cpuLim: string | undefined, memReq: string, memLim: string | undefined): ResourceRequirements => ({
  requests: { cpu: cpuReq, memory: memReq },
  ...(cpuLim || memLim ? { limits: { ...(cpuLim ? { cpu: cpuLim } : {}), ...(memLim ? { memory: memLim } : {}) } } : {}),
});
const burstable = (over: Partial<Container> = {}): Container => container({ resources: res('500m', '1', '512Mi', '1Gi'), ...over });
const setRes = (i: number, r: ResourceRequirements) => (q: Pod): void => {
  q.spec.containers[i]!.resources = r;
};

const cases: { name: string; old: Pod; change: (q: Pod) => void; errors: string[] }[] = [
  { name: 'cpu increase', old: running(pod({ containers: [burstable()] })), change: setRes(0, res('800m', '1500m', '512Mi', '1Gi')), errors: [] },
  { name: 'memory limit decrease under NotRequired (allowed since 1.34)', old: running(pod({ containers: [burstable()] })), change: setRes(0, res('500m', '1', '256Mi', '512Mi')), errors: [] },
  {
    name: 'BestEffort gains a memory request',
    old: running(pod({ containers: [container()] })),
    change: setRes(0, { requests: { memory: '100Mi' } }),
    errors: ['spec: Invalid value: "BestEffort": Pod QOS Class may not change as a result of resizing'],
  },
  {
    name: 'Burstable made requests == limits',
    old: running(pod({ containers: [burstable()] })),
    change: setRes(0, res('1', '1', '1Gi', '1Gi')),
    errors: ['spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing'],
  },
  {
    name: 'a request removed',
    old: running(pod({ containers: [container({ resources: { requests: { cpu: '100m', memory: '100Mi' } } })] })),
    change: setRes(0, { requests: { cpu: '100m' } }),
    errors: ['spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed'],
  },
  {
    name: 'limits removed',
    old: running(pod({ containers: [burstable()] })),
    change: setRes(0, { requests: { cpu: '600m', memory: '600Mi' } }),
    errors: ['spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed'],
  },
  {
    name: 'ephemeral-storage changed',
    old: running(pod({ containers: [container({ resources: { requests: { cpu: '100m', 'ephemeral-storage': '1' } } })] })),
    change: setRes(0, { requests: { cpu: '100m', 'ephemeral-storage': '3' } }),
    errors: ['spec: Forbidden: only cpu and memory resources are mutable'],
  },
  {
    name: 'resizePolicy changed (immutable)',
    old: running(pod({ containers: [burstable({ resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })] })),
    change: (q) => { q.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }]; },
    errors: ['spec: Forbidden: only cpu and memory resources are mutable'],
  },
  {
    name: 'containers reordered',
    old: running(pod({ containers: [burstable({ name: 'c1' }), burstable({ name: 'c2' })] })),
    change: (q) => { q.spec.containers.reverse(); },
    errors: [
      'spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize',
      'spec.containers[1].name: Forbidden: containers may not be renamed or reordered on resize',
    ],
  },
  {
    name: 'a non-sidecar init container resized',
    old: running(pod({ initContainers: [container({ name: 'init', resources: { requests: { cpu: '100m' } } })], containers: [burstable()] })),
    change: (q) => { q.spec.initContainers![0]!.resources = { requests: { cpu: '200m' } }; },
    errors: ['spec: Forbidden: resources for non-sidecar init containers are immutable'],
  },
  {
    name: 'a sidecar resized',
    old: running(pod({ initContainers: [container({ name: 'sc', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } })], containers: [burstable()] })),
    change: (q) => { q.spec.initContainers![0]!.resources = { requests: { cpu: '200m' } }; },
    errors: [],
  },
  {
    name: 'pod-level resources',
    old: running(pod({ resources: { requests: { cpu: '1' } }, containers: [burstable()] })),
    change: setRes(0, res('600m', '1', '512Mi', '1Gi')),
    errors: ['[]: Forbidden: pods with pod-level resources cannot be resized'],
  },
];

for (const c of cases) {
  test(`pods/resize: ${c.name}`, () => {
    assert.deepEqual(resize(c.old, c.change).errors, c.errors);
  });
}

test('pods/resize keeps everything but resources and resizePolicy, resets metadata, and bumps generation', () => {
  const old = running(pod({ containers: [burstable()] }));
  const { errors, pod: out } = resize(old, (q) => {
    q.spec.containers[0]!.image = 'other';
    q.spec.containers[0]!.resources = res('800m', '1500m', '512Mi', '1Gi');
    q.metadata.labels = { sneaky: 'yes' };
    q.status = { phase: 'Failed' };
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(
    [out.spec.containers[0]?.image, out.spec.containers[0]?.resources, out.metadata.labels, out.status?.phase, out.metadata.generation],
    ['nginx:1.27', res('800m', '1500m', '512Mi', '1Gi'), undefined, 'Running', 2],
  );
});

test('pods/resize without a change keeps the generation', () => {
  const old = running(pod({ containers: [burstable()] }));
  assert.equal(resize(old, () => {}).pod.metadata.generation, 1);
});

test('a plain update of resources is rejected with the upstream message', () => {
  const old = running(pod({ containers: [burstable()] }));
  const next = structuredClone(old);
  next.spec.containers[0]!.resources = res('800m', '1500m', '512Mi', '1Gi');
  const [first] = validatePodUpdate(next, old).map((e) => formatFieldError(e, { withField: true }));
  const head =
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';
  assert.equal(first?.slice(0, head.length), head);
});
