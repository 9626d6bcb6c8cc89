// PodTopologySpread's scores equal a count done by hand (matching pods per zone over every node,
// per hostname over the candidates), whether the snapshot has the cache's pod-label index (few
// nodes counted) or only its node list (every node counted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/index.ts';
import { defaultFeatureGates } from '../../api/index.ts';
import { SeededRandom } from '../../core/index.ts';
import { SchedulerCache } from '../cache.ts';
import { CycleState } from '../framework.ts';
import type { Handle, SnapshotLister } from '../framework.ts';
import { PodInfo } from '../node-info.ts';
import type { NodeInfo } from '../node-info.ts';
import { newPodTopologySpread } from './pod-topology-spread.ts';

const zoneKey = 'topology.kubernetes.io/zone';
const node = (i: number): Node => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, [zoneKey]: `z${i % 4}` } },
  status: { allocatable: { cpu: '8', memory: '8Gi', pods: '110' } },
});
const spread = [zoneKey, 'kubernetes.io/hostname'].map((topologyKey, i) => ({ maxSkew: i + 1, topologyKey, whenUnsatisfiable: 'ScheduleAnyway' as const, labelSelector: { matchLabels: { app: 'web' } } }));
const pod = (i: number, app: string, nodeName?: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}`, labels: { app } },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'i' }], topologySpreadConstraints: spread },
});

/** The raw score by hand: per constraint, matching pods in the node's domain times log(domains + 2), plus maxSkew - 1. */
function expected(all: readonly NodeInfo[], candidates: readonly NodeInfo[], ni: NodeInfo): number {
  const matching = (n: NodeInfo): number => n.pods.filter((p) => p.pod.metadata.labels?.app === 'web').length;
  const zone = (n: NodeInfo): string => n.labels?.[zoneKey] ?? '';
  const inZone = all.filter((n) => zone(n) === zone(ni)).reduce((sum, n) => sum + matching(n), 0);
  const zones = new Set(candidates.map(zone)).size;
  return Math.round(inZone * Math.log(zones + 2) + 0 + matching(ni) * Math.log(candidates.length + 2) + 1);
}

test('topology spread scores match a count by hand, with and without the pod-label index', () => {
  const r = new SeededRandom(3);
  const cache = new SchedulerCache();
  for (let i = 0; i < 24; i++) cache.addNode(node(i));
  const listOnly: SnapshotLister = { list: () => cache.list(), get: (n) => cache.get(n), havePodsWithAffinity: () => [], havePodsWithRequiredAntiAffinity: () => [], pvcRefCount: () => 0 };
  // One plugin per snapshot for the whole test: what a preScore keeps between pods must not leak into the next.
  const plugins = [cache, listOnly].map((snapshot) => ({ snapshot, plugin: newPodTopologySpread({ defaultingType: 'List' }, { snapshot: () => snapshot } as unknown as Handle, defaultFeatureGates) }));
  // Few matching pods first (the index's few nodes), then many (every node counted).
  for (let i = 0; i < 40; i++) {
    cache.addOrUpdatePod(PodInfo.of(pod(i, r.int(3) === 0 ? 'db' : 'web', `n${r.int(24)}`)));
    for (const { snapshot, plugin } of plugins) {
      const candidates = cache.list().filter(() => r.int(3) > 0);
      const incoming = PodInfo.of(pod(1000 + i, 'web'));
      const state = new CycleState();
      plugin.preScore?.(state, incoming, candidates);
      for (const ni of candidates) {
        assert.equal(plugin.score?.(state, incoming, ni), expected(cache.list(), candidates, ni), `${ni.name} after ${i + 1} pods, ${snapshot === cache ? 'indexed' : 'list'}`);
      }
    }
  }
});
