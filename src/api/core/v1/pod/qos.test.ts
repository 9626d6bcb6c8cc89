import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodQOS } from './qos.ts';
import type { Pod, PodQOSClass, ResourceList } from './types.ts';

// Upstream's cases: pkg/apis/core/v1/helper/qos/qos_test.go (TestComputePodQOS), with PodLevelResources on.
const list = (cpu: string, memory: string): ResourceList => ({ ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) });
const container = (name: string, requests: ResourceList, limits: ResourceList): Pod['spec']['containers'][number] => ({ name, image: 'busybox', resources: { requests, limits } });
const pod = (containers: Pod['spec']['containers'], extra: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers, ...extra } });

test('computePodQOS classes pods as upstream does', () => {
  const cases: [string, Pod, PodQOSClass][] = [
    ['guaranteed', pod([container('g', list('100m', '100Mi'), list('100m', '100Mi'))]), 'Guaranteed'],
    ['guaranteed-guaranteed', pod([container('g', list('100m', '100Mi'), list('100m', '100Mi')), container('g2', list('100m', '100Mi'), list('100m', '100Mi'))]), 'Guaranteed'],
    ['best-effort-best-effort', pod([container('b', list('', ''), list('', '')), container('b2', list('', ''), list('', ''))]), 'BestEffort'],
    ['best-effort', pod([container('b', list('', ''), list('', ''))]), 'BestEffort'],
    ['best-effort-burstable', pod([container('b', list('', ''), list('', '')), container('u', list('1', ''), list('2', ''))]), 'Burstable'],
    ['best-effort-guaranteed', pod([container('b', list('', ''), list('', '')), container('g', list('10m', '100Mi'), list('10m', '100Mi'))]), 'Burstable'],
    ['burstable-cpu-guaranteed-memory', pod([container('u', list('', '100Mi'), list('', '100Mi'))]), 'Burstable'],
    ['burstable-no-limits', pod([container('u', list('100m', '100Mi'), list('', ''))]), 'Burstable'],
    ['burstable-guaranteed', pod([container('u', list('1', '100Mi'), list('2', '100Mi')), container('g', list('100m', '100Mi'), list('100m', '100Mi'))]), 'Burstable'],
    ['burstable-unbounded-but-requests-match-limits', pod([container('u', list('100m', '100Mi'), list('200m', '200Mi')), container('v', list('100m', '100Mi'), list('', ''))]), 'Burstable'],
    ['burstable-1', pod([container('u', list('10m', '100Mi'), list('100m', '200Mi'))]), 'Burstable'],
    ['burstable-2', pod([container('u', list('0', '0'), list('100m', '200Mi'))]), 'Burstable'],
    ['best-effort-hugepages', pod([container('b', { ...list('0', '0'), 'hugepages-2Mi': '1Gi' }, { ...list('0', '0'), 'hugepages-2Mi': '1Gi' })]), 'BestEffort'],
    ['init-container', pod([container('b', list('', ''), list('', ''))], { initContainers: [container('i', list('10m', '100Mi'), list('100m', '200Mi'))] }), 'Burstable'],
    ['guaranteed-with-pod-level-resources', pod([container('b', list('', ''), list('', ''))], { resources: { requests: list('10m', '100Mi'), limits: list('10m', '100Mi') } }), 'Guaranteed'],
    ['guaranteed-with-pod-and-container-level-resources', pod([container('u', list('3m', '10Mi'), list('5m', '20Mi'))], { resources: { requests: list('10m', '100Mi'), limits: list('10m', '100Mi') } }), 'Guaranteed'],
    ['burstable-with-pod-level-resources', pod([container('b', list('', ''), list('', ''))], { resources: { requests: list('10m', '10Mi'), limits: list('20m', '50Mi') } }), 'Burstable'],
    ['burstable-with-pod-and-container-level-resources', pod([container('u', list('5m', '10Mi'), list('5m', '10Mi'))], { resources: { requests: list('10m', '10Mi'), limits: list('20m', '50Mi') } }), 'Burstable'],
    ['burstable-with-pod-and-container-level-requests', pod([container('u', list('5m', '10Mi'), list('', ''))], { resources: { requests: list('10m', '10Mi'), limits: list('', '') } }), 'Burstable'],
    ['burstable-with-pod-and-container-level-resources-2', pod([container('u', list('5m', '10Mi'), list('', '')), container('g', list('5m', '10Mi'), list('5m', '10Mi'))], { resources: { requests: list('10m', '10Mi'), limits: list('5m', '') } }), 'Burstable'],
    // Requests summed over containers and init containers equal the limits' sums, each set in a unit of its own.
    ['guaranteed-across-containers-in-other-units', pod([container('g', list('0.1', '128Mi'), list('100m', '134217728'))], { initContainers: [container('i', list('1', '1Gi'), list('1000m', '1024Mi'))] }), 'Guaranteed'],
  ];
  for (const [name, p, expected] of cases) assert.equal(computePodQOS(p), expected, name);
});
