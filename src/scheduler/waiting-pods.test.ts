import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterEventWithHint, PodRO, QueuedPodInfo } from './framework.ts';
import { ActionType } from './framework.ts';
import { PodInfo } from './node-info.ts';
import { WaitingPods, listeningOf } from './waiting-pods.ts';

const pod = (name: string, claims: string[] = []): PodRO =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: name }, spec: { containers: [], resourceClaims: claims.map((c) => ({ name: c, resourceClaimName: c })) } }) as PodRO;

const qpi = (p: PodRO, plugins: string[]): QueuedPodInfo => ({ podInfo: PodInfo.of(p), timestamp: 0, attempts: 1, unschedulablePlugins: new Set(plugins), pendingPlugins: new Set() });

const hints: Record<string, ClusterEventWithHint[]> = {
  DynamicResources: [
    { event: { resource: 'ResourceClaim', actionType: ActionType.Add | ActionType.Update }, keys: { ofPod: (p) => (p.spec.resourceClaims ?? []).map((c) => `ns/${c.resourceClaimName ?? ''}`), ofEvent: () => undefined } },
    { event: { resource: 'Pod', actionType: ActionType.UpdatePodGeneratedResourceClaim } },
  ],
  NodeResourcesFit: [{ event: { resource: 'Node', actionType: ActionType.Add } }],
};

function pool(): WaitingPods {
  const waiting = new WaitingPods();
  for (const [p, plugins] of [[pod('a', ['a-gpu']), ['DynamicResources']], [pod('b', ['b-gpu']), ['DynamicResources']], [pod('c'), ['NodeResourcesFit']], [pod('d'), []]] as const) {
    const q = qpi(p, [...plugins]);
    waiting.set(q.podInfo.uid, { qpi: q, since: 0 }, listeningOf(q, [...plugins], (plugin) => hints[plugin]));
  }
  return waiting;
}

const names = (pods: Iterable<{ qpi: QueuedPodInfo }>): string[] => [...pods].map((w) => w.qpi.podInfo.pod.metadata.name ?? '');
const claimEvent = { resource: 'ResourceClaim', actionType: ActionType.Update };

test('a claim event with keys is offered to the pods naming that claim and to pods taking every event', () => {
  assert.deepEqual(names(pool().candidates(claimEvent, ['ns/a-gpu'])), ['a', 'd']);
  assert.deepEqual(names(pool().candidates(claimEvent, [])), ['d']);
});

test('a claim event without keys (a deallocation) is offered to every pod listening by key', () => {
  assert.deepEqual(names(pool().candidates(claimEvent, undefined)), ['a', 'b', 'd']);
});

test('unkeyed resources, Pod aliases and wildcard events reach their listeners in arrival order', () => {
  const waiting = pool();
  assert.deepEqual(names(waiting.candidates({ resource: 'Node', actionType: ActionType.Add }, [])), ['c', 'd']);
  assert.deepEqual(names(waiting.candidates({ resource: 'UnscheduledPod', actionType: ActionType.UpdatePodGeneratedResourceClaim }, [])), ['a', 'b', 'd']);
  assert.deepEqual(names(waiting.candidates({ resource: '*', actionType: ActionType.All }, [])), ['a', 'b', 'c', 'd']);
});

test('re-filing a pod under new keys keeps its place; a deleted pod is offered nothing', () => {
  const waiting = pool();
  const b = waiting.get('b');
  assert.ok(b);
  const renamed = qpi(pod('b', ['a-gpu']), ['DynamicResources']);
  waiting.set('b', { qpi: renamed, since: 0 }, listeningOf(renamed, ['DynamicResources'], (plugin) => hints[plugin]));
  assert.deepEqual(names(waiting.candidates(claimEvent, ['ns/a-gpu'])), ['a', 'b', 'd']);
  assert.deepEqual(names(waiting.candidates(claimEvent, ['ns/b-gpu'])), ['d']);
  waiting.delete('a');
  assert.deepEqual(names(waiting.candidates(claimEvent, ['ns/a-gpu'])), ['b', 'd']);
  assert.equal(waiting.size, 3);
});
