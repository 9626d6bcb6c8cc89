import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodFailurePolicy } from '../../api/index.ts';
import { countsAsFailure, matchPodFailurePolicy } from './pod-failure-policy.ts';

function failedPod(exits: Record<string, number | 'running'>, conditions: { type: string; status: 'True' | 'False' }[] = [], initExits: Record<string, number> = {}): Pod {
  const status = (name: string, code: number | 'running'): ContainerStatus => ({
    name,
    image: 'i',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: code === 'running' ? { running: {} } : { terminated: { exitCode: code } },
  });
  return {
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: Object.keys(exits).map((name) => ({ name })) },
    status: {
      phase: 'Failed',
      conditions,
      containerStatuses: Object.entries(exits).map(([n, c]) => status(n, c)),
      initContainerStatuses: Object.entries(initExits).map(([n, c]) => status(n, c)),
    },
  };
}

const policy: PodFailurePolicy = {
  rules: [
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    { action: 'Count', onExitCodes: { operator: 'In', values: [3] } },
    { action: 'FailIndex', onExitCodes: { operator: 'NotIn', values: [1, 2, 3] } },
  ],
};

const cases: { name: string; pod: Pod; want: ReturnType<typeof matchPodFailurePolicy> }[] = [
  { name: 'exit code 42 of main matches FailJob at index 1', pod: failedPod({ main: 42 }), want: { action: 'FailJob', message: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 1' } },
  { name: 'exit 42 of another container skips the containerName rule', pod: failedPod({ side: 42 }), want: { action: 'FailIndex' } },
  { name: 'a DisruptionTarget condition is ignored', pod: failedPod({ main: 42 }, [{ type: 'DisruptionTarget', status: 'True' }]), want: { action: 'Ignore' } },
  { name: 'a False condition does not match', pod: failedPod({ main: 1 }, [{ type: 'DisruptionTarget', status: 'False' }]), want: { action: 'None' } },
  { name: 'Count on exit 3', pod: failedPod({ main: 3 }), want: { action: 'Count' } },
  { name: 'exit 0 never matches NotIn', pod: failedPod({ main: 0 }), want: { action: 'None' } },
  { name: 'a running container has no exit code', pod: failedPod({ main: 'running' }), want: { action: 'None' } },
  { name: 'init container exit codes match too', pod: failedPod({}, [], { setup: 9 }), want: { action: 'FailIndex' } },
  { name: 'no rule matches exit 1', pod: failedPod({ main: 1 }), want: { action: 'None' } },
];

for (const c of cases) {
  test(`matchPodFailurePolicy: ${c.name}`, () => {
    assert.deepEqual(matchPodFailurePolicy(policy, c.pod), c.want);
  });
}

test('matchPodFailurePolicy: a condition rule names the condition in the FailJob message', () => {
  const p: PodFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue' }] }] };
  assert.deepEqual(matchPodFailurePolicy(p, failedPod({ main: 1 }, [{ type: 'ConfigIssue', status: 'True' }])), {
    action: 'FailJob',
    message: 'Pod ns/p has condition ConfigIssue matching FailJob rule at index 0',
  });
});

test('countsAsFailure: only Ignore keeps a failure out of the counters', () => {
  assert.deepEqual(
    (['None', 'FailJob', 'FailIndex', 'Count', 'Ignore'] as const).map((action) => countsAsFailure(action === 'FailJob' ? { action, message: '' } : { action })),
    [true, true, true, true, false],
  );
});

test('matchPodFailurePolicy without a policy matches nothing', () => {
  assert.deepEqual(matchPodFailurePolicy(undefined, failedPod({ main: 42 })), { action: 'None' });
});
