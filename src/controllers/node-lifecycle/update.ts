// Read-modify-write of a Node's taints with the resourceVersion just read, retried on conflict
// (client-go's RetryOnConflict around AddOrUpdateTaintOnNode / RemoveTaintOffNode).
// Upstream: pkg/controller/controller_utils.go (AddOrUpdateTaintOnNode, RemoveTaintOffNode).
import { refs } from '../../api/index.ts';
import type { Node, Taint } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { isApiError } from '../../core/index.ts';

const conflictRetries = 5;

/**
 * Applies `change` to the node's current taints; undefined from `change` means nothing to do.
 * Resolves false if the node no longer exists.
 */
export async function updateNodeTaints(client: Client, name: string, change: (taints: readonly Taint[]) => Taint[] | undefined): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let node: Node;
    try {
      node = await client.get<Node>(refs.nodes, undefined, name);
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return false;
      throw error;
    }
    const taints = change(node.spec?.taints ?? []);
    if (!taints) return true;
    const spec = { ...node.spec };
    if (taints.length) spec.taints = taints;
    else delete spec.taints;
    try {
      await client.update<Node>(refs.nodes, { ...node, spec });
      return true;
    } catch (error) {
      if (isApiError(error) && error.reason === 'Conflict' && attempt < conflictRetries) continue;
      if (isApiError(error) && error.reason === 'NotFound') return false;
      throw error;
    }
  }
}
