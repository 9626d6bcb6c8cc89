// The dependency graph the garbage collector keeps: one node per object uid, its owners (as
// its ownerReferences say) and its dependents. Owners not seen yet are "virtual" nodes that a
// worker verifies with a live GET. Observing a change returns the work it implies, so the
// graph itself does no I/O.
//
// Example: pod p (owner rs r) arrives before r is observed → nodes {p, r(virtual)}, r gets
// dependent p, and the result asks to attemptToDelete r (verify it exists). When r is then
// observed, r stops being virtual. When r is deleted, p is queued to attemptToDelete.
// Upstream: pkg/controller/garbagecollector/{graph.go,graph_builder.go}.
import type { DeepReadonly, KubeObject, OwnerReference } from '../../core/index.ts';

export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  /** For virtual nodes: the dependent's namespace (the owner's, if the owner is namespaced). */
  namespace: string;
  name: string;
  uid: string;
}

export interface GraphNode {
  identity: ObjectIdentity;
  owners: readonly DeepReadonly<OwnerReference>[];
  dependents: Set<GraphNode>;
  virtual: boolean;
  beingDeleted: boolean;
  deletingDependents: boolean;
}

export interface GraphWork {
  attemptToDelete: GraphNode[];
  attemptToOrphan: GraphNode[];
}

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

type Obj = DeepReadonly<KubeObject>;

function hasFinalizer(obj: Obj | undefined, f: string): boolean {
  return !!obj?.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).includes(f);
}

export class DependencyGraph {
  readonly #nodes = new Map<string, GraphNode>();
  /** Last observed deletion state per uid, to detect transitions. */
  readonly #last = new Map<string, Obj>();

  get(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  get size(): number {
    return this.#nodes.size;
  }

  /** An add or update seen by an informer (processGraphChanges). */
  observe(obj: Obj, apiVersion: string, kind: string): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const uid = obj.metadata.uid ?? '';
    const owners = obj.metadata.ownerReferences ?? [];
    const identity: ObjectIdentity = { apiVersion, kind, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid };
    const old = this.#last.get(uid);
    const existing = this.#nodes.get(uid);
    const node: GraphNode = existing ?? { identity, owners, dependents: new Set(), virtual: false, beingDeleted: false, deletingDependents: false };
    if (!existing) {
      this.#nodes.set(uid, node);
      this.#addToOwners(node, owners, work);
    } else {
      node.virtual = false;
      node.identity = identity;
      // Most updates keep the references as they were (a status write shares them with the object
      // before it): no owner is added, removed or unblocked.
      if (owners !== node.owners && (owners.length > 0 || node.owners.length > 0)) this.#changeOwners(node, owners, work);
    }
    if (obj.metadata.deletionTimestamp) node.beingDeleted = true;
    this.#last.set(uid, obj);
    // processTransitions
    if (hasFinalizer(obj, FinalizerOrphanDependents) && !hasFinalizer(old, FinalizerOrphanDependents)) {
      work.attemptToOrphan.push(node);
    } else if (hasFinalizer(obj, FinalizerDeleteDependents) && !hasFinalizer(old, FinalizerDeleteDependents)) {
      node.deletingDependents = true;
      work.attemptToDelete.push(...node.dependents, node);
    }
    return work;
  }

  /** A delete seen by an informer, or a virtual delete after a live GET found nothing. */
  remove(uid: string): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const node = this.#nodes.get(uid);
    if (!node) return work;
    this.#nodes.delete(uid);
    this.#last.delete(uid);
    for (const ref of node.owners) {
      const owner = this.#nodes.get(ref.uid);
      if (!owner) continue;
      owner.dependents.delete(node);
      if (owner.deletingDependents) work.attemptToDelete.push(owner);
    }
    work.attemptToDelete.push(...node.dependents);
    return work;
  }

  /** Dependents whose reference to node blocks its foreground deletion. */
  blockingDependents(node: GraphNode): GraphNode[] {
    return [...node.dependents].filter((dep) => dep.owners.some((o) => o.uid === node.identity.uid && o.blockOwnerDeletion === true));
  }

  /** referencesDiffs: owners added, removed, or no longer blocking the owner's deletion. */
  #changeOwners(node: GraphNode, owners: readonly DeepReadonly<OwnerReference>[], work: GraphWork): void {
    const oldByUid = new Map(node.owners.map((o) => [o.uid, o]));
    const newByUid = new Map(owners.map((o) => [o.uid, o]));
    const added = owners.filter((o) => !oldByUid.has(o.uid));
    const removed = node.owners.filter((o) => !newByUid.has(o.uid));
    // An owner waiting in foreground deletion may proceed once a blocking reference goes away.
    const unblocked = [...removed.filter((o) => o.blockOwnerDeletion), ...owners.filter((o) => oldByUid.get(o.uid)?.blockOwnerDeletion && !o.blockOwnerDeletion)];
    for (const ref of unblocked) {
      const owner = this.#nodes.get(ref.uid);
      if (owner?.deletingDependents) work.attemptToDelete.push(owner);
    }
    node.owners = owners;
    this.#addToOwners(node, added, work);
    for (const ref of removed) this.#nodes.get(ref.uid)?.dependents.delete(node);
  }

  #addToOwners(node: GraphNode, owners: readonly DeepReadonly<OwnerReference>[], work: GraphWork): void {
    for (const ref of owners) {
      let owner = this.#nodes.get(ref.uid);
      if (!owner) {
        owner = {
          identity: { apiVersion: ref.apiVersion, kind: ref.kind, namespace: node.identity.namespace, name: ref.name, uid: ref.uid },
          owners: [],
          dependents: new Set(),
          virtual: true,
          beingDeleted: false,
          deletingDependents: false,
        };
        this.#nodes.set(ref.uid, owner);
        work.attemptToDelete.push(owner);
      }
      owner.dependents.add(node);
    }
  }
}
