// What a restarted kubelet takes back from a pod's status: its own containers, in the state they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/index.ts';
import { survivingPod } from './surviving-containers.ts';

const id = (n: number): string => `drydock://${String(n).repeat(64).slice(0, 64)}`;

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: {
    initContainers: [{ name: 'setup', image: 'busybox' }],
    containers: [
      { name: 'app', image: 'nginx', readinessProbe: { httpGet: { path: '/', port: 80 } } },
      { name: 'crashy', image: 'busybox' },
    ],
  },
  status: {
    phase: 'Running',
    podIP: '10.128.0.7',
    startTime: '2026-01-01T00:00:00Z',
    initContainerStatuses: [
      { name: 'setup', image: 'busybox', imageID: '', ready: true, restartCount: 0, containerID: id(1), state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z', containerID: id(1) } } },
    ],
    containerStatuses: [
      { name: 'app', image: 'nginx', imageID: '', ready: false, started: true, restartCount: 2, containerID: id(2), state: { running: { startedAt: '2026-01-01T00:00:03Z' } }, lastState: { terminated: { exitCode: 137, reason: 'Error', startedAt: '2026-01-01T00:00:02Z', finishedAt: '2026-01-01T00:00:03Z', containerID: id(3) } } },
      { name: 'crashy', image: 'busybox', imageID: '', ready: false, started: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:05Z', finishedAt: '2026-01-01T00:00:05Z', containerID: id(4) } } },
    ],
  },
};

test('running, terminated and crash-looping containers come back with their ids, counts and times', () => {
  const found = survivingPod(pod);
  assert.ok(found);
  assert.equal(found.podIP, '10.128.0.7');
  assert.equal(found.startTime, Date.parse('2026-01-01T00:00:00Z'));
  assert.equal(found.initialized, true);
  const app = found.containers.get('app');
  assert.equal(app?.restartCount, 2);
  assert.equal(app?.current?.startedAt, Date.parse('2026-01-01T00:00:03Z'));
  assert.equal(app?.current?.exit, undefined);
  assert.equal(app?.current?.readinessPassed, false, 'the readiness probe had not passed');
  assert.equal(app?.previous?.exit?.exitCode, 137);
  assert.equal(found.containers.get('setup')?.current?.exit?.reason, 'Completed');
  const crashy = found.containers.get('crashy');
  assert.equal(crashy?.restartCount, 4);
  assert.equal(crashy?.current?.exit?.exitCode, 1, 'waits to restart after the instance lastState shows');
});

test('a pod whose containers this runtime never made has nothing to take back', () => {
  assert.equal(survivingPod({ ...pod, status: { phase: 'Pending' } }), undefined);
  const foreign = structuredClone(pod);
  for (const s of [...(foreign.status?.initContainerStatuses ?? []), ...(foreign.status?.containerStatuses ?? [])]) {
    s.containerID = 'containerd://abc';
    if (s.state?.terminated) s.state.terminated.containerID = 'containerd://abc';
    if (s.lastState?.terminated) s.lastState.terminated.containerID = 'containerd://abc';
  }
  assert.equal(survivingPod(foreign), undefined);
});
