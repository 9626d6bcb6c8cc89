// NodeSelector matching for ResourceSlices (and per-device node selection): the terms are ORed, each
// matched as a pod's required node affinity term is (api's termMatches).
// Upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { DeepReadonly } from '../core/index.ts';
import type { NodeSelector, SelectedNode } from '../api/index.ts';
import { termMatches } from '../api/index.ts';

/** The part of a Node the allocator reads. A full `Node` satisfies it. */
export type AllocatorNode = SelectedNode;

export function nodeSelectorMatches(selector: DeepReadonly<NodeSelector>, node: AllocatorNode): boolean {
  return selector.nodeSelectorTerms.some((term) => termMatches(term, node));
}

/** nodeMatches: nodeName, then allNodes, then nodeSelector; none set matches nothing. */
export function nodeMatches(node: AllocatorNode, nodeName: string | undefined, allNodes: boolean | undefined, selector: DeepReadonly<NodeSelector> | undefined): boolean {
  if (nodeName) return node.metadata.name === nodeName;
  if (allNodes) return true;
  if (selector) return nodeSelectorMatches(selector, node);
  return false;
}
