// The pod side of a controller that owns pods through controller references (ReplicaSets,
// DaemonSets, StatefulSets): which owner a pod event concerns (its controller, the one it left,
// or, for an orphan, every owner whose selector takes it), with creation and deletion
// expectations settled on the way; and the claim of a sync's candidate pods.
// Upstream: pkg/controller/replicaset/replica_set.go (addPod, updatePod, deletePod),
// daemon/daemon_controller.go and statefulset/stateful_set.go (the same, by their owners).
import { refs } from '../api/index.ts';
import type { Pod, ResourceRef } from '../api/index.ts';
import type { DeepReadonly, KubeObject, LabelSelectorMatcher } from '../core/index.ts';
import { jsonEqual, keyOf, objectKey } from '../core/index.ts';
import type { Client, Informer, InformerHandlers } from '../client/index.ts';
import { claimObjects, getControllerOf, newControllerRef, recheckDeletionTimestamp } from './controller-ref.ts';
import type { Expectations } from './expectations.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** Pod index names the owning controllers share on the shared pod informer. */
export const podsByController = 'controller';
export const orphansByNamespace = 'orphans';

/** Adds the two indexes an owning controller's claims read (shared: the same functions for every owner kind). */
export function indexOwnedPods(pods: Informer<Pod>): void {
  pods.addIndex(podsByController, (p) => {
    const ref = getControllerOf(p);
    return ref ? [ref.uid] : [];
  });
  pods.addIndex(orphansByNamespace, (p) => (getControllerOf(p) ? [] : [p.metadata.namespace ?? '']));
}

export interface OwnerLookup<O extends DeepReadonly<KubeObject>> {
  /** The owner a controller reference names, if it is one of this controller's (uid checked). */
  resolve(namespace: string | undefined, ref: ReturnType<typeof getControllerOf>): O | undefined;
  /** The owners whose selector takes an orphan pod. */
  selecting(pod: ReadonlyPod): O[];
  enqueue(owner: O): void;
  /** Absent for controllers that act on the cache alone (StatefulSet). */
  expectations?: Expectations;
}

export function ownedPodHandlers<O extends DeepReadonly<KubeObject>>(o: OwnerLookup<O>): InformerHandlers<ReadonlyPod> {
  const deleted = (pod: ReadonlyPod): void => {
    const owner = o.resolve(pod.metadata.namespace, getControllerOf(pod));
    if (!owner) return;
    o.expectations?.deletionObserved(keyOf(owner), objectKey(pod.metadata.namespace, pod.metadata.name ?? ''));
    o.enqueue(owner);
  };
  return {
    onAdd(pod) {
      if (pod.metadata.deletionTimestamp) return deleted(pod);
      const ref = getControllerOf(pod);
      if (!ref) {
        for (const owner of o.selecting(pod)) o.enqueue(owner);
        return;
      }
      const owner = o.resolve(pod.metadata.namespace, ref);
      if (!owner) return;
      o.expectations?.creationObserved(keyOf(owner));
      o.enqueue(owner);
    },
    onUpdate(old, pod) {
      if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
      const labelsChanged = !jsonEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
      if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) {
        // A graceful delete shows up as an update: count it as observed at once, as upstream.
        deleted(pod);
        if (labelsChanged) deleted(old);
        return;
      }
      const curRef = getControllerOf(pod);
      const oldRef = getControllerOf(old);
      if (oldRef && oldRef.uid !== curRef?.uid) {
        const previous = o.resolve(old.metadata.namespace, oldRef);
        if (previous) o.enqueue(previous);
      }
      if (curRef) {
        const owner = o.resolve(pod.metadata.namespace, curRef);
        if (owner) o.enqueue(owner);
        return;
      }
      if (labelsChanged || oldRef) for (const owner of o.selecting(pod)) o.enqueue(owner);
    },
    onDelete: deleted,
  };
}

export interface ClaimPodsOptions {
  client: Client;
  pods: Informer<Pod>;
  owner: DeepReadonly<KubeObject>;
  /** The owner's kind as its controller references name it, and where it is served (the adoption recheck). */
  kind: string;
  ownerRef: ResourceRef;
  selector: LabelSelectorMatcher;
  /** Which of the owner's own pods and the namespace's orphans may be claimed at all. */
  candidate?: (pod: ReadonlyPod) => boolean;
}

/** ClaimPods over the owner's pods and its namespace's orphans (the only ones it may adopt). */
export function claimPods(o: ClaimPodsOptions): Promise<ReadonlyPod[]> {
  const candidates = [...o.pods.byIndex(podsByController, o.owner.metadata.uid ?? ''), ...o.pods.byIndex(orphansByNamespace, o.owner.metadata.namespace ?? '')];
  return claimObjects<ReadonlyPod>({
    client: o.client,
    ref: refs.pods,
    owner: o.owner,
    controllerRef: newControllerRef(o.owner, 'apps/v1', o.kind),
    selector: o.selector,
    candidates: o.candidate ? candidates.filter(o.candidate) : candidates,
    canAdopt: recheckDeletionTimestamp(o.client, o.ownerRef, o.owner),
  });
}
