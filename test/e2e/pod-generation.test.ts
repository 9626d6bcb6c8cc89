// Pod generation with real kubectl (PodObservedGenerationTracking, GA in 1.35): every spec change
// bumps metadata.generation, and the kubelet reports it back in status.observedGeneration and in its
// conditions' observedGeneration, even for a change that moves nothing else in the status.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(1);

describe('pod observedGeneration with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  test('kubectl patch of activeDeadlineSeconds: generation 2, then observedGeneration 2 on the status and the kubelet\'s conditions', async () => {
    await dd.ok(['run', 'web', '--image=nginx']);
    await dd.ok(['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s'], { timeoutMs: 90_000 });
    await dd.ok(['patch', 'pod', 'web', '--type=merge', '-p', '{"spec":{"activeDeadlineSeconds":3600}}']);
    await dd.ok(['wait', '--for=jsonpath={.status.observedGeneration}=2', 'pod/web', '--timeout=30s'], { timeoutMs: 60_000 });
    const out = await dd.ok(['get', 'pod', 'web', '-o', 'jsonpath={.metadata.generation} {range .status.conditions[*]}{.type}={.observedGeneration} {end}']);
    assert.equal(out.trim(), '2 PodReadyToStartContainers=2 Initialized=2 Ready=2 ContainersReady=2 PodScheduled=2');
  });
});
