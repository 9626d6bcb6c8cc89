import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../api/index.ts';
import { defaultFeatureGates } from '../../api/index.ts';
import { CycleState, skip, success } from '../framework.ts';
import type { Handle } from '../framework.ts';
import { NodeInfo, PodInfo } from '../node-info.ts';
import { imageLocalityScore, newImageLocality, normalizedImageName } from './image-locality.ts';

const mb = 1024 * 1024;
const pytorch = 'nvcr.io/nvidia/pytorch:24.12-py3';
const nodeWith = (name: string, images: { names: string[]; sizeBytes: number }[]): NodeInfo => new NodeInfo(name, { metadata: { name }, status: { allocatable: { pods: '110' }, images } } as Node);
const podWith = (...images: string[]): PodInfo => PodInfo.of({ metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) } });

/** The plugin over these nodes, seeded from a Node informer that also reports later changes through `update`. */
function plugin(nodes: NodeInfo[]) {
  let handlers: { onUpdate?: (old: Node, node: Node) => void } = {};
  const informer = { list: () => nodes.map((n) => n.node as Node), addHandlers: (h: typeof handlers) => (handlers = h) };
  const p = newImageLocality({}, { snapshot: () => ({ list: () => nodes }), informer: () => informer } as unknown as Handle, defaultFeatureGates);
  return { p, update: (old: Node, node: Node) => handlers.onUpdate?.(old, node) };
}

test('calculatePriority: below 23 MB is nothing, 1,000 MB a container is everything, integer arithmetic between', () => {
  assert.equal(imageLocalityScore(10 * mb, 1), 0);
  assert.equal(imageLocalityScore(1000 * mb, 1), 100);
  assert.equal(imageLocalityScore(500 * mb, 1), Math.trunc((100 * (500 - 23)) / (1000 - 23)));
  assert.equal(imageLocalityScore(1000 * mb, 2), Math.trunc((100 * (1000 - 23)) / (2000 - 23)));
  assert.equal(normalizedImageName('nginx'), 'nginx:latest');
  assert.equal(normalizedImageName('localhost:5000/app'), 'localhost:5000/app:latest');
  assert.equal(normalizedImageName('nginx:1.27'), 'nginx:1.27');
});

test('a node with the pod\'s image scores by its size times the share of nodes that have it; a short name matches nothing', () => {
  const image = { names: [`nvcr.io/nvidia/pytorch@sha256:${'a'.repeat(64)}`, pytorch], sizeBytes: 900 * mb };
  const nodes = [nodeWith('has', [image]), nodeWith('also', [image]), nodeWith('bare', []), nodeWith('none', [])];
  const { p, update } = plugin(nodes);
  const state = new CycleState();
  assert.equal(p.preScore?.(state, podWith(pytorch), nodes), success);
  // Half the nodes have it: 450 MB counts.
  assert.deepEqual(nodes.map((n) => p.score?.(state, podWith(pytorch), n)), [imageLocalityScore(450 * mb, 1), imageLocalityScore(450 * mb, 1), 0, 0]);
  assert.equal(p.preScore?.(new CycleState(), podWith('pytorch:24.12-py3'), nodes), skip, 'as containerd lists names, a short one never matches');
  // The image pulled onto a third node: three quarters of its size count now, on those three.
  const bare = nodes[2]?.node as Node;
  const pulled = { ...bare, status: { ...bare.status, images: [image] } };
  update(bare, pulled);
  nodes[2]?.setNode(pulled);
  const again = new CycleState();
  p.preScore?.(again, podWith(pytorch), nodes);
  assert.deepEqual(nodes.map((n) => p.score?.(again, podWith(pytorch), n)), [675, 675, 675, 0].map((m) => imageLocalityScore(m * mb, 1)));
});
