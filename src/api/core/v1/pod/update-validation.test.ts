import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import type { Pod } from './types.ts';
import { updatablePodSpecFields, validatePodResize, validatePodStatusUpdate, validatePodUpdate } from './update-validation.ts';
import { podDefinition, schedulingGatedMessage } from './definition.ts';
import { container, pod } from './fixtures.test-helpers.ts';

const fmt = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));
const stored = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, uid: 'u1', resourceVersion: '5', creationTimestamp: '2025-01-01T00:00:00Z' } });
const edit = (p: Pod, f: (q: Pod) => void): Pod => {
  const q = structuredClone(p);
  f(q);
  return q;
};

test('validatePodUpdate allows an image change', () => {
  const old = stored(pod());
  assert.deepEqual(fmt(validatePodUpdate(edit(old, (q) => { q.spec.containers[0]!.image = 'nginx:1.28'; }), old)), []);
});

test('validatePodUpdate rejects other spec changes with the upstream message', () => {
  const old = stored(pod());
  const errs = validatePodUpdate(edit(old, (q) => { q.spec.restartPolicy = 'Never'; }), old);
  assert.equal(errs.length, 1);
  const msg = formatFieldError(errs[0]!, { withField: true });
  const head = `spec: Forbidden: pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n`;
  assert.equal(msg.slice(0, head.length), head);
  assert.equal(
    head,
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
  );
});

test('validatePodUpdate rejects adding a container', () => {
  const old = stored(pod());
  const next = edit(old, (q) => q.spec.containers.push(container({ name: 'b', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' })));
  assert.deepEqual(fmt(validatePodUpdate(next, old)), ['spec.containers: Forbidden: pod updates may not add or remove containers']);
});

test('validatePodUpdate: activeDeadlineSeconds may only shrink', () => {
  const old = stored(pod({ activeDeadlineSeconds: 100 }));
  assert.deepEqual(fmt(validatePodUpdate(edit(old, (q) => { q.spec.activeDeadlineSeconds = 50; }), old)), []);
  assert.deepEqual(fmt(validatePodUpdate(edit(old, (q) => { q.spec.activeDeadlineSeconds = 200; }), old)), [
    'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
  ]);
});

test('validatePodUpdate: tolerations may be added, not changed', () => {
  const old = stored(pod({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] }));
  const added = edit(old, (q) => { q.spec.tolerations!.push({ key: 'b', operator: 'Exists' }); q.spec.tolerations![0]!.tolerationSeconds = 5; });
  assert.deepEqual(fmt(validatePodUpdate(added, old)), []);
  const changed = edit(old, (q) => { q.spec.tolerations![0]!.key = 'c'; });
  assert.deepEqual(fmt(validatePodUpdate(changed, old)).slice(0, 1), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
});

test('validatePodUpdate: scheduling gates may be removed, and a gated pod may gain nodeSelector entries', () => {
  const old = stored(pod({ schedulingGates: [{ name: 'a' }, { name: 'b' }], nodeSelector: { zone: 'x' } }));
  const next = edit(old, (q) => { q.spec.schedulingGates = [{ name: 'b' }]; q.spec.nodeSelector = { zone: 'x', gpu: 'h100' }; });
  assert.deepEqual(fmt(validatePodUpdate(next, old)), []);
  const added = edit(old, (q) => { q.spec.schedulingGates = [{ name: 'a' }, { name: 'b' }, { name: 'c' }]; });
  assert.deepEqual(fmt(validatePodUpdate(added, old)), ["spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'"]);
});

test('validatePodUpdate: terminationGracePeriodSeconds may go from negative to 1', () => {
  const old = stored(pod({ terminationGracePeriodSeconds: -1 }));
  assert.deepEqual(fmt(validatePodUpdate(edit(old, (q) => { q.spec.terminationGracePeriodSeconds = 1; }), old)), []);
});

test('validatePodUpdate rejects resource changes (they go through pods/resize)', () => {
  const old = stored(pod({ containers: [container({ resources: { requests: { cpu: '1' }, limits: { cpu: '1' } } })] }));
  const next = edit(old, (q) => { q.spec.containers[0]!.resources = { requests: { cpu: '2' }, limits: { cpu: '2' } }; });
  assert.equal(validatePodUpdate(next, old)[0]?.field, 'spec');
});

test('validatePodResize allows cpu changes and (since 1.34) memory-limit decreases under NotRequired', () => {
  const old = stored(pod({ containers: [container({ resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } })] }));
  const cpu = edit(old, (q) => { q.spec.containers[0]!.resources = { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } }; });
  assert.deepEqual(fmt(validatePodResize(cpu, old)), []);
  const mem = edit(old, (q) => { q.spec.containers[0]!.resources = { requests: { cpu: '1', memory: '512Mi' }, limits: { cpu: '1', memory: '512Mi' } }; });
  assert.deepEqual(fmt(validatePodResize(mem, old)), []);
  const qos = edit(old, (q) => { q.spec.containers[0]!.resources = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }; });
  assert.deepEqual(fmt(validatePodResize(qos, old)), ['spec: Invalid value: "": Pod QOS Class may not change as a result of resizing']);
});

test('validatePodStatusUpdate: phase values, nodeName and terminal container states', () => {
  const old = stored(pod({ restartPolicy: 'Never' }));
  old.status = { phase: 'Running', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 0 } } }] };
  const next = edit(old, (q) => {
    q.status!.phase = 'Done' as 'Running';
    q.status!.containerStatuses![0]!.state = { running: {} };
  });
  assert.deepEqual(fmt(validatePodStatusUpdate(next, old)), [
    'status.phase: Unsupported value: "Done": supported values: "Pending", "Running", "Succeeded", "Failed", "Unknown"',
    'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state',
  ]);
});

test('validatePodStatusUpdate: a condition a patch left without type or status is validated as Go\'s "" (not a crash)', () => {
  const old = stored(pod({}));
  const next = edit(old, (q) => {
    q.status = { conditions: [{ status: 'True' } as never, { type: 'example.com/ready' } as never] };
  });
  assert.deepEqual(fmt(validatePodStatusUpdate(next, old)), [
    'metadata.conditions[0].Type: Invalid value: "": name part must be non-empty',
    'metadata.conditions[0].Type: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'status.conditions[1].status: Unsupported value: "": supported values: "True", "False", "Unknown"',
  ]);
});

test('prepareForCreate resets status to Pending with the QoS class and sets generation 1; gated pods get the condition, with null times', () => {
  const p = pod({ schedulingGates: [{ name: 'g' }] });
  p.status = { phase: 'Running' };
  podDefinition.prepareForCreate?.(p, { now: 0 });
  assert.deepEqual(p.status, {
    phase: 'Pending',
    qosClass: 'BestEffort',
    // Go writes the zero times of the condition as null.
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: schedulingGatedMessage, lastProbeTime: null, lastTransitionTime: null }],
  });
  assert.equal(p.metadata.generation, 1);
});

test('prepareForUpdate keeps the old status; the status subresource keeps the old spec; spec changes bump generation', () => {
  const old = stored(pod());
  old.metadata.generation = 1;
  old.status = { phase: 'Running' };
  const next = edit(old, (q) => { q.status = { phase: 'Failed' }; q.spec.containers[0]!.image = 'nginx:2'; });
  podDefinition.prepareForUpdate?.(next, old, { now: 0 });
  assert.deepEqual([next.status, next.metadata.generation], [{ phase: 'Running' }, 2]);
  const st = edit(old, (q) => { q.status = { phase: 'Failed' }; q.spec.containers[0]!.image = 'nginx:2'; });
  podDefinition.prepareForUpdate?.(st, old, { now: 0, subresource: 'status' });
  assert.deepEqual([st.status, st.spec.containers[0]?.image], [{ phase: 'Failed' }, 'nginx:1.27']);
});

test('resize subresource takes only container resources from the request', () => {
  const old = stored(pod({ containers: [container({ resources: { requests: { cpu: '1' } } })] }));
  const next = edit(old, (q) => { q.spec.containers[0]!.image = 'other'; q.spec.containers[0]!.resources = { requests: { cpu: '2' } }; });
  podDefinition.prepareForUpdate?.(next, old, { now: 0, subresource: 'resize' });
  assert.deepEqual([next.spec.containers[0]?.image, next.spec.containers[0]?.resources], ['nginx:1.27', { requests: { cpu: '2' } }]);
});

test('field labels include spec.nodeName and status.phase', () => {
  const p = pod({ nodeName: 'n1' });
  p.status = { phase: 'Running' };
  assert.deepEqual([podDefinition.fieldLabels?.['spec.nodeName']?.(p), podDefinition.fieldLabels?.['status.phase']?.(p)], ['n1', 'Running']);
});

test('validatePodStatusUpdate: a container its own restart rules restart may leave Terminated in a Never pod; others may not', () => {
  const old = stored(pod({ restartPolicy: 'Never', containers: [container({ restartPolicy: 'Never', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }] })] }));
  const exited = (exitCode: number): Pod => {
    const p = structuredClone(old);
    p.status = { phase: 'Running', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode } } }] };
    return p;
  };
  const restarted = (from: Pod): Pod => edit(from, (q) => { q.status!.containerStatuses![0]!.state = { running: {} }; });
  assert.deepEqual(fmt(validatePodStatusUpdate(restarted(exited(42)), exited(42))), []);
  assert.deepEqual(fmt(validatePodStatusUpdate(restarted(exited(1)), exited(1))), ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state']);
});
