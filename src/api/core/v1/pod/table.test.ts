import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodStatus } from './types.ts';
import { podTable } from './table.ts';
import { container } from './fixtures.test-helpers.ts';

const now = Date.parse('2025-01-01T00:10:00Z');
const cs = (over: Partial<ContainerStatus>): ContainerStatus => ({ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', ...over });

function row(status: PodStatus, extra: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): unknown[] {
  const p: Pod = {
    metadata: { name: 'test1', creationTimestamp: '2025-01-01T00:00:00Z', ...meta },
    spec: { containers: [container({ name: 'a' }), container({ name: 'b' })], ...extra },
    status,
  };
  return podTable.cells(p, now);
}

// Cases modelled on pkg/printers/internalversion/printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer).
const cases: { name: string; status: PodStatus; spec?: Partial<Pod['spec']>; meta?: Partial<Pod['metadata']>; want: unknown[] }[] = [
  {
    name: 'phase with one ready container',
    status: { phase: 'Running', containerStatuses: [cs({ ready: true, restartCount: 3, state: { running: {} } }), cs({ restartCount: 3 })] },
    want: ['test1', '1/2', 'Running', '6', '10m'],
  },
  {
    name: 'waiting reason wins',
    status: { phase: 'Pending', containerStatuses: [cs({ state: { waiting: { reason: 'ContainerCreating' } } }), cs({ state: { waiting: { reason: 'ErrImagePull' } } })] },
    want: ['test1', '0/2', 'ContainerCreating', '0', '10m'],
  },
  {
    name: 'terminated reason',
    status: { phase: 'Running', containerStatuses: [cs({ state: { terminated: { exitCode: 1, reason: 'Error' } } }), cs({ ready: true, state: { running: {} } })] },
    want: ['test1', '1/2', 'Error', '0', '10m'],
  },
  {
    name: 'terminated without reason: signal then exit code',
    status: { phase: 'Running', containerStatuses: [cs({ state: { terminated: { exitCode: 137, signal: 9 } } }), cs({ state: { terminated: { exitCode: 2 } } })] },
    want: ['test1', '0/2', 'Signal:9', '0', '10m'],
  },
  {
    name: 'Completed while a container still runs and pod Ready -> Running',
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [cs({ state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs({ ready: true, state: { running: {} } })],
    },
    want: ['test1', '1/2', 'Running', '0', '10m'],
  },
  {
    name: 'Completed while a container still runs and pod not Ready -> NotReady',
    status: { phase: 'Running', containerStatuses: [cs({ state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs({ ready: true, state: { running: {} } })] },
    want: ['test1', '1/2', 'NotReady', '0', '10m'],
  },
  {
    name: 'init container still running -> Init:0/2',
    spec: { initContainers: [container({ name: 'i1' }), container({ name: 'i2' })] },
    status: { phase: 'Pending', initContainerStatuses: [cs({ name: 'i1', state: { running: {} } }), cs({ name: 'i2', state: { waiting: { reason: 'PodInitializing' } } })] },
    want: ['test1', '0/2', 'Init:0/2', '0', '10m'],
  },
  {
    name: 'init container failed with exit code -> Init:ExitCode:1',
    spec: { initContainers: [container({ name: 'i1' })] },
    status: { phase: 'Pending', initContainerStatuses: [cs({ name: 'i1', restartCount: 2, state: { terminated: { exitCode: 1 } } })] },
    want: ['test1', '0/2', 'Init:ExitCode:1', '2', '10m'],
  },
  {
    name: 'init container crash looping -> Init:CrashLoopBackOff',
    spec: { initContainers: [container({ name: 'i1' })] },
    status: { phase: 'Pending', initContainerStatuses: [cs({ name: 'i1', state: { waiting: { reason: 'CrashLoopBackOff' } } })] },
    want: ['test1', '0/2', 'Init:CrashLoopBackOff', '0', '10m'],
  },
  {
    name: 'started sidecar counts towards READY and total',
    spec: { initContainers: [container({ name: 'proxy', restartPolicy: 'Always' })] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Initialized', status: 'True' }],
      initContainerStatuses: [cs({ name: 'proxy', started: true, ready: true, state: { running: {} } })],
      containerStatuses: [cs({ ready: true, state: { running: {} } }), cs({ ready: true, state: { running: {} } })],
    },
    want: ['test1', '3/3', 'Running', '0', '10m'],
  },
  {
    name: 'not yet started sidecar blocks initialization',
    spec: { initContainers: [container({ name: 'proxy', restartPolicy: 'Always' })] },
    status: { phase: 'Pending', initContainerStatuses: [cs({ name: 'proxy', started: false, state: { running: {} } })] },
    want: ['test1', '0/3', 'Init:0/1', '0', '10m'],
  },
  {
    name: 'scheduling gated',
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    want: ['test1', '0/2', 'SchedulingGated', '0', '10m'],
  },
  {
    name: 'pod reason wins over phase',
    status: { phase: 'Failed', reason: 'Evicted' },
    want: ['test1', '0/2', 'Evicted', '0', '10m'],
  },
  {
    name: 'deleting a running pod -> Terminating',
    meta: { deletionTimestamp: '2025-01-01T00:09:00Z' },
    status: { phase: 'Running', containerStatuses: [cs({ ready: true, state: { running: {} } })] },
    want: ['test1', '1/2', 'Terminating', '0', '10m'],
  },
  {
    name: 'deleting a pod on a lost node -> Unknown',
    meta: { deletionTimestamp: '2025-01-01T00:09:00Z' },
    status: { phase: 'Running', reason: 'NodeLost' },
    want: ['test1', '0/2', 'Unknown', '0', '10m'],
  },
  {
    name: 'restarts show when the last one happened',
    status: {
      phase: 'Running',
      containerStatuses: [cs({ ready: true, restartCount: 3, state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2025-01-01T00:05:00Z' } } })],
    },
    want: ['test1', '1/2', 'Running', '3 (5m ago)', '10m'],
  },
];

for (const tc of cases) {
  test(`pod table: ${tc.name}`, () => {
    assert.deepEqual(row(tc.status, tc.spec, tc.meta).slice(0, 5), tc.want);
  });
}

test('pod table wide cells: podIPs[0], node, nominated node, readiness gates; <none> when empty', () => {
  assert.deepEqual(row({ phase: 'Pending' }).slice(5), ['<none>', '<none>', '<none>', '<none>']);
  const cells = row(
    { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }], nominatedNodeName: 'n2', conditions: [{ type: 'example.com/ready', status: 'True' }] },
    { nodeName: 'n1', readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'example.com/other' }] },
  );
  assert.deepEqual(cells.slice(5), ['10.0.0.5', 'n1', 'n2', '1/2']);
});

test('pod table columns match upstream names and priorities', () => {
  assert.deepEqual(
    podTable.columns.map((c) => [c.name, c.priority]),
    [['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0], ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1]],
  );
});
