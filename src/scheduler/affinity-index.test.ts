// The cache's incremental InterPodAffinity counts equal a full rescan after every kind of change
// (pods placed, assumed, forgotten, relabelled nodes, removed and re-added nodes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../api/index.ts';
import { SeededRandom } from '../core/index.ts';
import { topologyPair } from './affinity-index.ts';
import type { Counts } from './affinity-index.ts';
import { SchedulerCache } from './cache.ts';
import type { AffinityTerm } from './node-info.ts';
import { affinityTermMatches, PodInfo } from './node-info.ts';

const node = (name: string, zone: string): Node => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});

const term = (group: string, topologyKey: string) => ({ labelSelector: { matchLabels: { group } }, topologyKey });

function pod(i: number, r: SeededRandom): Pod {
  const group = `g${r.int(3)}`;
  const other = `g${r.int(3)}`;
  const topo = r.int(2) === 0 ? 'kubernetes.io/hostname' : 'topology.kubernetes.io/zone';
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: r.int(4) === 0 ? 'other' : 'default', uid: `u${i}`, labels: { group } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  const kind = r.int(3);
  if (kind === 1) p.spec.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(other, topo)] } };
  if (kind === 2) p.spec.affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(other, topo), term(group, 'topology.kubernetes.io/zone')] } };
  return p;
}

function bruteExisting(cache: SchedulerCache, incoming: PodInfo): Counts {
  const out: Counts = new Map();
  for (const ni of cache.list()) {
    for (const e of ni.pods) {
      for (const t of e.requiredAntiAffinityTerms) {
        const v = ni.labels?.[t.topologyKey];
        if (v !== undefined && affinityTermMatches(t, incoming.pod, undefined)) out.set(topologyPair(t.topologyKey, v), (out.get(topologyPair(t.topologyKey, v)) ?? 0) + 1);
      }
    }
  }
  return out;
}

function bruteIncoming(cache: SchedulerCache, terms: readonly AffinityTerm[], mode: 'all' | 'each'): Counts {
  const out: Counts = new Map();
  for (const ni of cache.list()) {
    for (const e of ni.pods) {
      if (mode === 'all' && !terms.every((t) => affinityTermMatches(t, e.pod, undefined))) continue;
      for (const t of terms) {
        if (mode === 'each' && !affinityTermMatches(t, e.pod, undefined)) continue;
        const v = ni.labels?.[t.topologyKey];
        if (v !== undefined) out.set(topologyPair(t.topologyKey, v), (out.get(topologyPair(t.topologyKey, v)) ?? 0) + 1);
      }
    }
  }
  return out;
}

const sorted = (m: Counts): [string, number][] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

test('incremental affinity counts match a full rescan through pod and node changes', () => {
  const r = new SeededRandom(7);
  const cache = new SchedulerCache();
  for (let n = 0; n < 6; n++) cache.addNode(node(`n${n}`, `z${n % 2}`));
  const index = cache.affinityIndex();
  const placed: PodInfo[] = [];
  const probes = Array.from({ length: 12 }, (_, i) => PodInfo.of(pod(1000 + i, r)));
  const scan = function* () {
    for (const ni of cache.list()) for (const e of ni.pods) yield [e, ni.labels] as const;
  };
  // Watch every probe's lists from the start, so later changes must keep them current.
  for (const p of probes) {
    if (p.requiredAffinityTerms.length > 0) index.incomingCounts(p.requiredAffinityTerms, 'all', scan);
    if (p.requiredAntiAffinityTerms.length > 0) index.incomingCounts(p.requiredAntiAffinityTerms, 'each', scan);
  }
  for (let step = 0; step < 300; step++) {
    const op = r.int(10);
    if (op < 5 || placed.length === 0) {
      const pi = PodInfo.of(pod(step, r));
      if (r.int(2) === 0) cache.assumePod(pi, `n${r.int(7)}`);
      else cache.addOrUpdatePod(PodInfo.of({ ...pi.pod, spec: { ...pi.pod.spec, nodeName: `n${r.int(7)}` } }));
      placed.push(PodInfo.of(pi.pod));
    } else if (op < 7) {
      const [victim] = placed.splice(r.int(placed.length), 1);
      if (victim) {
        cache.forgetPod(victim);
        cache.removePod(victim.uid);
      }
    } else if (op < 9) {
      const n = r.int(7);
      cache.updateNode(node(`n${n}`, `z${r.int(3)}`));
    } else {
      cache.removeNode(node(`n${r.int(7)}`, 'z0'));
    }
    for (const p of probes) {
      assert.deepEqual(sorted(index.existingAntiCounts(p.pod)), sorted(bruteExisting(cache, p)), `existing anti at step ${step}`);
      if (p.requiredAffinityTerms.length > 0) assert.deepEqual(sorted(index.incomingCounts(p.requiredAffinityTerms, 'all', scan)), sorted(bruteIncoming(cache, p.requiredAffinityTerms, 'all')), `affinity at step ${step}`);
      if (p.requiredAntiAffinityTerms.length > 0) assert.deepEqual(sorted(index.incomingCounts(p.requiredAntiAffinityTerms, 'each', scan)), sorted(bruteIncoming(cache, p.requiredAntiAffinityTerms, 'each')), `anti at step ${step}`);
    }
  }
  assert.ok(placed.length > 0);
});
