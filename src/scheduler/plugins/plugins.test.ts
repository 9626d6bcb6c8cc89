import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/index.ts';
import { defaultFeatureGates } from '../../api/index.ts';
import { VirtualClock } from '../../core/index.ts';
import { CycleState } from '../framework.ts';
import type { Handle, QueuedPodInfo } from '../framework.ts';
import { NodeInfo, PodInfo } from '../node-info.ts';
import { SchedulingQueue } from '../queue.ts';
import { balancedResourceScorer } from './node-resources-balanced-allocation.ts';
import { fitsRequest, leastRequestedScore, mostRequestedScore } from './node-resources-fit.ts';
import { newNodeAffinity } from './node-affinity.ts';
import { newTaintToleration } from './taint-toleration.ts';
import { success } from '../framework.ts';

let n = 0;
const pod = (spec: Partial<Pod['spec']> & { requests?: Record<string, string> } = {}): PodInfo => {
  const { requests, ...rest } = spec;
  return PodInfo.of({ metadata: { name: `p${++n}`, namespace: 'default', uid: `u${n}` }, spec: { containers: [{ name: 'c', ...(requests ? { resources: { requests } } : {}) }], ...rest } });
};
const node = (alloc: Record<string, string>, extra: Partial<Node> = {}): NodeInfo =>
  new NodeInfo('n1', { metadata: { name: 'n1', labels: { zone: 'a' } }, status: { allocatable: { pods: '110', ...alloc } }, ...extra });

test('NodeResourcesFit reasons and resolvability, as fitsRequest reports them', () => {
  const ni = node({ cpu: '2', memory: '1Gi', 'nvidia.com/gpu': '1' });
  ni.addPod(pod({ requests: { cpu: '1', 'nvidia.com/gpu': '1' } }));
  const cases: [Record<string, string>, [string, boolean][]][] = [
    [{ cpu: '1' }, []],
    [{ cpu: '1500m' }, [['Insufficient cpu', false]]],
    [{ cpu: '3' }, [['Insufficient cpu', true]]],
    [{ memory: '2Gi', 'nvidia.com/gpu': '1' }, [['Insufficient memory', true], ['Insufficient nvidia.com/gpu', false]]],
    [{ 'nvidia.com/mig-1g.10gb': '1' }, [['Insufficient nvidia.com/mig-1g.10gb', true]]],
  ];
  for (const [requests, want] of cases) {
    assert.deepEqual(fitsRequest(pod({ requests }), ni).map((r) => [r.reason, r.unresolvable]), want, JSON.stringify(requests));
  }
  const full = node({ cpu: '2', pods: '1' });
  full.addPod(pod());
  assert.deepEqual(fitsRequest(pod(), full).map((r) => r.reason), ['Too many pods']);
});

test('resource scorers follow upstream integer arithmetic', () => {
  assert.equal(leastRequestedScore(3000, 4000), 25);
  assert.equal(leastRequestedScore(5000, 4000), 0);
  assert.equal(mostRequestedScore(3000, 4000), 75);
  assert.equal(mostRequestedScore(5000, 4000), 100);
  assert.equal(balancedResourceScorer([1000, 2 ** 30], [4000, 4 * 2 ** 30]), 100);
  assert.equal(balancedResourceScorer([3000, 2 ** 30], [4000, 4 * 2 ** 30]), 75);
});

test('TaintToleration and NodeAffinity filters give the upstream reasons', () => {
  const handle = {} as Handle;
  const taints = newTaintToleration({}, handle, defaultFeatureGates);
  const tainted = node({ cpu: '1' }, { spec: { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] } });
  assert.deepEqual(taints.filter?.(new CycleState(), pod(), tainted), { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] });
  assert.equal(taints.filter?.(new CycleState(), pod({ tolerations: [{ key: 'gpu', operator: 'Exists' }] }), tainted), success);
  const aff = newNodeAffinity({}, handle, defaultFeatureGates);
  assert.deepEqual(aff.filter?.(new CycleState(), pod({ nodeSelector: { zone: 'b' } }), node({})), { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] });
  assert.equal(aff.filter?.(new CycleState(), pod({ nodeSelector: { zone: 'a' } }), node({})), success);
});

test('queue backoff doubles from 1 s to a 10 s cap, and an event moves a pod out of the unschedulable pool', async () => {
  const clock = new VirtualClock();
  const q = new SchedulingQueue({ clock, less: (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp, preEnqueue: () => success, hintsFor: () => [{ event: { resource: 'Node', actionType: 1 } }] });
  const p = pod().pod;
  q.add(p);
  const durations: number[] = [];
  for (let i = 0; i < 6; i++) {
    const item = q.tryPop();
    assert.ok(item);
    item.unschedulablePlugins = new Set();
    const failedAt = clock.now();
    q.addUnschedulable(item); // an error: straight to (error) backoff
    q.done(item.podInfo.uid);
    assert.equal(q.tryPop(), undefined, 'error backoff is not popped early');
    await clock.settle(60_000);
    durations.push(clock.now() - failedAt);
  }
  assert.deepEqual(durations, [1000, 2000, 4000, 8000, 10000, 10000]);
  const item = q.tryPop();
  assert.ok(item);
  item.unschedulablePlugins = new Set(['NodeResourcesFit']);
  q.addUnschedulable(item);
  q.done(item.podInfo.uid);
  assert.equal(q.where(item.podInfo.uid), 'unschedulable');
  q.onEvent({ resource: 'Node', actionType: 1 }, undefined, {});
  assert.equal(q.where(item.podInfo.uid), 'backoff');
  q.close();
});
