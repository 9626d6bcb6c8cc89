import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeletMetrics, imageSizeBucket } from './kubelet-metrics.ts';
import type { ContainerStateLabel, KubeletGauges } from './kubelet-metrics.ts';

const mib = 1024 * 1024;
const samples = (text: string, name: string): string[] => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
const gauges = (over: Partial<KubeletGauges> = {}): KubeletGauges => ({ runningPods: 0, containers: new Map(), pendingResizes: new Map(), inProgressResizes: 0, claimsByDriver: new Map(), claims: 0, ...over });

test('an image size falls in the highest bucket whose lower bound it exceeds; an unknown size is N/A', () => {
  assert.deepEqual([0, 1, 10 * mib, 10 * mib + 1, 187 * mib, 1024 * mib + 1, 200 * 1024 * mib].map(imageSizeBucket), ['N/A', '0-10MB', '0-10MB', '10MB-100MB', '100MB-500MB', '1GB-5GB', 'GT100GB']);
});

test('a pending-resize reason has its gauge once a resize was pending for it; a container state keeps its last count', () => {
  const m = new KubeletMetrics('cpu-0', 'v1.35.0');
  const containers = new Map<ContainerStateLabel, number>([['running', 2], ['exited', 1]]);
  assert.deepEqual(samples(m.text(gauges({ containers })), 'kubelet_pod_pending_resizes'), []);
  m.resizePending('Deferred');
  assert.deepEqual(samples(m.text(gauges({ pendingResizes: new Map([['Deferred', 1]]), containers: new Map([['running', 1]]) })), 'kubelet_pod_pending_resizes'), ['kubelet_pod_pending_resizes{reason="deferred"} 1']);
  const later = m.text(gauges());
  assert.deepEqual(samples(later, 'kubelet_pod_pending_resizes'), ['kubelet_pod_pending_resizes{reason="deferred"} 0']);
  assert.deepEqual(samples(later, 'kubelet_running_containers'), ['kubelet_running_containers{container_state="exited"} 1', 'kubelet_running_containers{container_state="running"} 1']);
});

test('claims in use count per driver and in all as <any>', () => {
  const m = new KubeletMetrics('h100-0', 'v1.35.0');
  assert.deepEqual(samples(m.text(gauges()), 'dra_resource_claims_in_use'), ['dra_resource_claims_in_use{driver_name="<any>"} 0']);
  const text = m.text(gauges({ claims: 2, claimsByDriver: new Map([['gpu.nvidia.com', 2], ['dra.net', 1]]) }));
  assert.deepEqual(samples(text, 'dra_resource_claims_in_use'), ['dra_resource_claims_in_use{driver_name="<any>"} 2', 'dra_resource_claims_in_use{driver_name="dra.net"} 1', 'dra_resource_claims_in_use{driver_name="gpu.nvidia.com"} 2']);
});

test("probe results are counted by result, durations kept for successes, and a pod's series go with its probe workers", () => {
  const m = new KubeletMetrics('cpu-0', 'v1.35.0');
  const web = { probeType: 'Readiness' as const, container: 'web', pod: 'p', namespace: 'default', podUID: 'u1' };
  m.probed(web, true, 0.002);
  m.probed(web, false, 1);
  m.probed(web, true, 0.3);
  const text = m.probesText(1_796_000_000);
  assert.deepEqual(samples(text, 'prober_probe_total'), [
    'prober_probe_total{container="web",namespace="default",pod="p",pod_uid="u1",probe_type="Readiness",result="failed"} 1',
    'prober_probe_total{container="web",namespace="default",pod="p",pod_uid="u1",probe_type="Readiness",result="successful"} 2',
  ]);
  assert.deepEqual(samples(text, 'prober_probe_duration_seconds_count'), ['prober_probe_duration_seconds_count{container="web",namespace="default",pod="p",probe_type="Readiness"} 2']);
  assert.deepEqual(samples(text, 'process_start_time_seconds'), ['process_start_time_seconds 1.796e+09']);
  m.podProbesStopped('u1');
  assert.doesNotMatch(m.probesText(1_796_000_000), /prober_probe/);
});
