// The garbage collector's two workers: attemptToDelete (delete an object once none of its
// owners exists, verified by live GETs; drive foreground deletion) and attemptToOrphan (strip
// the owner's references from dependents, then drop the `orphan` finalizer).
// Upstream: pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem,
// classifyReferences, processDeletingDependentsItem, attemptToOrphanWorker), operations.go, patch.go.
import type { ResourceRef } from '../../api/index.ts';
import type { DeepReadonly, KubeObject, OwnerReference } from '../../core/index.ts';
import { isApiError } from '../../core/index.ts';
import type { Client, DeleteOptions } from '../../client/index.ts';
import { releaseObject } from '../controller-ref.ts';
import type { DependencyGraph, GraphNode, GraphWork, ObjectIdentity } from './graph.ts';
import { FinalizerDeleteDependents, FinalizerOrphanDependents } from './graph.ts';

export interface ResolvedResource {
  ref: ResourceRef;
  namespaced: boolean;
}

export interface CollectorContext {
  client: Client;
  graph: DependencyGraph;
  /** The served resource for an apiVersion/kind, if any. */
  resolve(apiVersion: string, kind: string): ResolvedResource | undefined;
  enqueue(work: GraphWork): void;
  log(line: string): void;
}

/** What the worker should do with the key afterwards. */
export type AttemptResult = 'done' | 'requeue';

const isNotFound = (e: unknown): boolean => isApiError(e) && e.reason === 'NotFound';

async function getObject(ctx: CollectorContext, id: ObjectIdentity): Promise<KubeObject | undefined> {
  const res = ctx.resolve(id.apiVersion, id.kind);
  if (!res) throw new Error(`unable to get REST mapping for ${id.apiVersion}/${id.kind}`);
  try {
    return await ctx.client.get(res.ref, res.namespaced ? id.namespace : undefined, id.name);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function attemptToDeleteItem(ctx: CollectorContext, node: GraphNode): Promise<AttemptResult> {
  if (node.beingDeleted && !node.deletingDependents) return 'done';
  const latest = await getObject(ctx, node.identity);
  if (!latest || latest.metadata.uid !== node.identity.uid) {
    // A virtual delete: drop the node so its dependents get looked at.
    ctx.enqueue(ctx.graph.remove(node.identity.uid));
    return 'done';
  }
  // The owner exists but no informer has shown it yet: look again later.
  if (node.virtual) return 'requeue';
  if (node.deletingDependents) return processDeletingDependents(ctx, node);
  const owners = latest.metadata.ownerReferences ?? [];
  if (owners.length === 0) return 'done';
  const { solid, dangling, waiting } = await classifyReferences(ctx, latest, owners);
  const id = node.identity;
  const res = ctx.resolve(id.apiVersion, id.kind);
  if (!res) return 'requeue';
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return 'done';
    // Some owners remain: only drop the references to the missing and the departing ones.
    await ctx.client.patch(res.ref, res.namespaced ? id.namespace : undefined, id.name, 'strategic', {
      metadata: { ownerReferences: [...dangling, ...waiting].map((o) => ({ $patch: 'delete', uid: o.uid })), uid: id.uid },
    });
    return 'done';
  }
  if (waiting.length > 0 && node.dependents.size > 0) {
    for (const dep of node.dependents) {
      if (!dep.deletingDependents) continue;
      // Cycle guard: make our references non-blocking before going foreground ourselves.
      const unblocked = owners.map((o) => (waiting.some((w) => w.uid === o.uid) ? { ...o, blockOwnerDeletion: false } : o));
      await ctx.client.patch(res.ref, res.namespaced ? id.namespace : undefined, id.name, 'strategic', { metadata: { ownerReferences: unblocked, uid: id.uid } });
      break;
    }
    await deleteObject(ctx, res, id, 'Foreground');
    return 'done';
  }
  const finalizers = latest.metadata.finalizers ?? [];
  const policy = finalizers.includes(FinalizerOrphanDependents) ? 'Orphan' : finalizers.includes(FinalizerDeleteDependents) ? 'Foreground' : 'Background';
  await deleteObject(ctx, res, id, policy);
  return 'done';
}

async function deleteObject(ctx: CollectorContext, res: ResolvedResource, id: ObjectIdentity, policy: NonNullable<DeleteOptions['propagationPolicy']>): Promise<void> {
  try {
    await ctx.client.delete(res.ref, res.namespaced ? id.namespace : undefined, id.name, { propagationPolicy: policy, preconditions: { uid: id.uid } });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
}

/** classifyReferences: live GET of each owner by uid. */
async function classifyReferences(
  ctx: CollectorContext,
  obj: KubeObject,
  owners: readonly OwnerReference[],
): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
  const out = { solid: [] as OwnerReference[], dangling: [] as OwnerReference[], waiting: [] as OwnerReference[] };
  for (const ref of owners) {
    const res = ctx.resolve(ref.apiVersion, ref.kind);
    if (!res) throw new Error(`unable to get REST mapping for ${ref.apiVersion}/${ref.kind}`);
    // A cluster-scoped dependent cannot have a namespaced owner: such a reference counts as absent.
    if (res.namespaced && !obj.metadata.namespace) {
      out.dangling.push(ref);
      continue;
    }
    let owner: KubeObject | undefined;
    try {
      owner = await ctx.client.get(res.ref, res.namespaced ? obj.metadata.namespace : undefined, ref.name);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (!owner || owner.metadata.uid !== ref.uid) out.dangling.push(ref);
    else if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FinalizerDeleteDependents)) out.waiting.push(ref);
    else out.solid.push(ref);
  }
  return out;
}

async function processDeletingDependents(ctx: CollectorContext, node: GraphNode): Promise<AttemptResult> {
  const blocking = ctx.graph.blockingDependents(node);
  if (blocking.length === 0) {
    await removeFinalizer(ctx, node, FinalizerDeleteDependents);
    return 'done';
  }
  ctx.enqueue({ attemptToDelete: blocking.filter((d) => !d.deletingDependents), attemptToOrphan: [] });
  return 'done';
}

/** attemptToOrphanWorker: dependents lose their reference to the owner, then the finalizer goes. */
export async function attemptToOrphan(ctx: CollectorContext, node: GraphNode): Promise<void> {
  for (const dep of [...node.dependents]) {
    const res = ctx.resolve(dep.identity.apiVersion, dep.identity.kind);
    if (!res) continue;
    const obj = { metadata: { namespace: dep.identity.namespace, name: dep.identity.name, uid: dep.identity.uid } } as DeepReadonly<KubeObject>;
    await releaseObject(ctx.client, res.ref, res.namespaced ? obj : { metadata: { name: dep.identity.name, uid: dep.identity.uid } }, node.identity.uid);
  }
  await removeFinalizer(ctx, node, FinalizerOrphanDependents);
}

async function removeFinalizer(ctx: CollectorContext, node: GraphNode, finalizer: string): Promise<void> {
  const id = node.identity;
  const res = ctx.resolve(id.apiVersion, id.kind);
  if (!res) throw new Error(`unable to get REST mapping for ${id.apiVersion}/${id.kind}`);
  for (let attempt = 0; ; attempt++) {
    const latest = await getObject(ctx, id);
    if (!latest || latest.metadata.uid !== id.uid) return;
    const finalizers = latest.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const rest = finalizers.filter((f) => f !== finalizer);
    try {
      await ctx.client.patch(res.ref, res.namespaced ? id.namespace : undefined, id.name, 'merge', {
        metadata: { finalizers: rest.length ? rest : null, resourceVersion: latest.metadata.resourceVersion },
      });
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!(isApiError(error) && error.reason === 'Conflict') || attempt >= 5) throw error;
    }
  }
}
