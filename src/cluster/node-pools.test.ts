import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultClusterConfig } from './config.ts';
import { addNodes, initialPoolState, parsePoolStates, poolOf, poolStatesConfigMap } from './node-pools.ts';

test('node names continue the pool index and survive a round trip through the ConfigMap', () => {
  const h100 = defaultClusterConfig().nodePools.find((p) => p.name === 'h100');
  assert.ok(h100);
  const initial = initialPoolState(h100);
  assert.deepEqual([initial.nodes, initial.nextIndex], [['h100-0', 'h100-1'], 2]);
  const { state, added } = addNodes({ ...initial, nodes: ['h100-1'] }, 2);
  assert.deepEqual(added, ['h100-2', 'h100-3'], 'a removed h100-0 is not reused');
  assert.deepEqual(state.nodes, ['h100-1', 'h100-2', 'h100-3']);
  const cm = poolStatesConfigMap(new Map([['h100', state]]));
  assert.deepEqual([cm.metadata.namespace, cm.metadata.name], ['kube-system', 'drydock-node-pools']);
  const back = parsePoolStates(cm);
  assert.deepEqual(back.get('h100'), state);
  assert.equal(poolOf(back, 'h100-3'), 'h100');
  assert.equal(poolOf(back, 'cpu-0'), undefined);
});

test('malformed pool entries are reported and skipped', () => {
  const bad: string[] = [];
  const states = parsePoolStates({ data: { cpu: '{"nodes":3}', gpu: 'not json' } }, (p) => bad.push(p));
  assert.equal(states.size, 0);
  assert.deepEqual(bad, ['cpu', 'gpu']);
});
