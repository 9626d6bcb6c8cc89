// The cache's index of nodes by their pods' labels (topology spreading's shortcut) equals a rescan
// of every node's pods after each kind of change: pods placed, assumed, forgotten, relabelled,
// moved and deleted, nodes removed and re-added.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../api/index.ts';
import { SeededRandom } from '../core/index.ts';
import { SchedulerCache } from './cache.ts';
import { labelCountKey, PodInfo } from './node-info.ts';

const node = (name: string): Node => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});

const pod = (uid: string, app: string, nodeName: string, namespace = 'default'): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: uid, namespace, uid, labels: { app, 'pod-template-hash': `h-${app}` } },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
});

const keys = ['default', 'other'].flatMap((ns) => ['a', 'b', 'c'].flatMap((app) => [labelCountKey(ns, 'app', app), labelCountKey(ns, 'pod-template-hash', `h-${app}`)]));

function rescan(cache: SchedulerCache, key: string): string[] {
  const out = new Set<string>();
  for (const ni of cache.list()) if (ni.pods.some((p) => p.labelCountKeys.includes(key))) out.add(ni.name);
  return [...out].sort();
}

function indexed(cache: SchedulerCache, key: string): string[] {
  // Nodes that are gone keep their pods' placeholders; topology spreading skips them.
  return [...cache.nodesWithPodLabel(key)].filter((ni) => ni.node).map((ni) => ni.name).sort();
}

test('nodes indexed by pod label match a rescan through pod and node changes', () => {
  const r = new SeededRandom(11);
  const cache = new SchedulerCache();
  for (let n = 0; n < 5; n++) cache.addNode(node(`n${n}`));
  const live = new Map<string, PodInfo>();
  for (let step = 0; step < 400; step++) {
    const op = r.int(10);
    const uid = `p${r.int(30)}`;
    const app = ['a', 'b', 'c'][r.int(3)] as string;
    const where = `n${r.int(6)}`;
    const current = live.get(uid);
    if (op < 5) {
      // A new pod, or a known one relabelled or moved: the informer's update.
      const pi = PodInfo.of(pod(uid, app, where, r.int(4) === 0 ? 'other' : 'default'));
      if (!current && r.int(2) === 0) cache.assumePod(pi, where);
      else cache.addOrUpdatePod(pi);
      live.set(uid, pi);
    } else if (op < 8) {
      if (current) {
        cache.forgetPod(current);
        cache.removePod(uid);
        live.delete(uid);
      }
    } else if (op < 9) {
      cache.removeNode(node(where));
    } else {
      cache.addNode(node(where));
    }
    for (const key of keys) assert.deepEqual(indexed(cache, key), rescan(cache, key), `${key.replaceAll('\0', '/')} at step ${step}`);
  }
});

test("a status write keeps a pod's derived values; a resize's status recomputes its requests", () => {
  const cache = new SchedulerCache();
  cache.addNode(node('n0'));
  const starting: Pod = {
    ...pod('u1', 'a', 'n0'),
    spec: { nodeName: 'n0', containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '500m' } } }] },
    status: { phase: 'Pending', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'i', imageID: '', resources: { requests: { cpu: '500m' } } }] },
  };
  const first = PodInfo.of(starting);
  cache.addOrUpdatePod(first);
  const ready: Pod = { ...starting, status: { phase: 'Running', containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: 'i', imageID: '', resources: { requests: { cpu: '500m' } } }] } };
  const second = PodInfo.of(ready, cache.podInfo('u1'));
  assert.ok(second.sameDerivedValues(first), 'the same spec object and status resources: nothing recomputed');
  cache.addOrUpdatePod(second);
  const [ni] = cache.list();
  assert.equal(ni?.pods[0], second, 'the node holds the newer version');
  assert.equal(ni?.requested.milliCPU, 500);
  // The kubelet reports a larger allocation (an in-place resize): requests are recomputed and re-summed.
  const resized: Pod = { ...ready, status: { ...ready.status, containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: 'i', imageID: '', allocatedResources: { cpu: '1' }, resources: { requests: { cpu: '1' } } }] } };
  const third = PodInfo.of(resized, cache.podInfo('u1'));
  assert.equal(third.sameDerivedValues(second), false);
  cache.addOrUpdatePod(third);
  assert.equal(cache.list()[0]?.requested.milliCPU, 1000);
  assert.equal(PodInfo.of({ ...ready, spec: { ...ready.spec } }, second).sameDerivedValues(second), false, 'another spec object is not trusted to be the same');
});
