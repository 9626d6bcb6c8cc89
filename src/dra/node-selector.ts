// NodeSelector matching for ResourceSlices (and per-device node selection): terms are ORed,
// requirements inside a term ANDed; matchFields knows only metadata.name.
// Upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { DeepReadonly } from '../core/index.ts';
import type { NodeSelector, NodeSelectorRequirement } from '../api/index.ts';

/** The part of a Node the allocator reads. A full `Node` satisfies it. */
export interface AllocatorNode {
  readonly metadata: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
}

function requirementMatches(r: DeepReadonly<NodeSelectorRequirement>, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0] ?? '')) return false;
      const a = BigInt(value);
      const b = BigInt(values[0] ?? '0');
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default: {
      const never: never = r.operator;
      return never;
    }
  }
}

export function nodeSelectorMatches(selector: DeepReadonly<NodeSelector>, node: AllocatorNode): boolean {
  const labels = node.metadata.labels ?? {};
  return selector.nodeSelectorTerms.some((term) => {
    const exprs = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    // An empty term selects nothing, as upstream.
    if (exprs.length === 0 && fields.length === 0) return false;
    return (
      exprs.every((r) => requirementMatches(r, Object.hasOwn(labels, r.key) ? labels[r.key] : undefined)) &&
      fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata.name))
    );
  });
}

/** nodeMatches: nodeName, then allNodes, then nodeSelector; none set matches nothing. */
export function nodeMatches(node: AllocatorNode, nodeName: string | undefined, allNodes: boolean | undefined, selector: DeepReadonly<NodeSelector> | undefined): boolean {
  if (nodeName) return node.metadata.name === nodeName;
  if (allNodes) return true;
  if (selector) return nodeSelectorMatches(selector, node);
  return false;
}
