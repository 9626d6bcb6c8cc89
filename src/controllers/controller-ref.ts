// ControllerRef helpers shared by the workload controllers: reading the controller of an
// object, building one, and the claim protocol (adopt matching orphans, release owned
// objects that stopped matching) through strategic-merge patches on ownerReferences.
// Upstream: apimachinery/pkg/apis/meta/v1/controller_ref.go, pkg/controller/controller_ref_manager.go.
import type { ResourceRef } from '../api/index.ts';
import type { DeepReadonly, KubeObject, LabelSelectorMatcher, OwnerReference } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import type { Client } from '../client/index.ts';

type Meta = DeepReadonly<KubeObject>['metadata'];

export function getControllerOf(obj: { readonly metadata: Meta }): DeepReadonly<OwnerReference> | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

export function isControlledBy(obj: { readonly metadata: Meta }, owner: { readonly metadata: Meta }): boolean {
  const ref = getControllerOf(obj);
  return ref !== undefined && ref.uid === owner.metadata.uid;
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion both true. */
export function newControllerRef(owner: { readonly metadata: Meta }, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export interface ClaimOptions<T> {
  client: Client;
  /** The resource of the claimed objects (pods, replicasets). */
  ref: ResourceRef;
  owner: DeepReadonly<KubeObject>;
  controllerRef: OwnerReference;
  selector: LabelSelectorMatcher;
  candidates: readonly T[];
  /** Fresh check that the owner is not being deleted before adopting (RecheckDeletionTimestamp). */
  canAdopt: () => Promise<void>;
  /** Finalizers an adopted object gains in the same patch (the Job's tracking finalizer). */
  adoptFinalizers?: readonly string[];
}

/**
 * ClaimObjects: returns the candidates this owner controls after adopting and releasing.
 * Objects controlled by someone else are never touched.
 */
export async function claimObjects<T extends DeepReadonly<KubeObject>>(options: ClaimOptions<T>): Promise<T[]> {
  const { client, ref, owner, selector, candidates } = options;
  const claimed: T[] = [];
  let adoptChecked: Promise<void> | undefined;
  for (const obj of candidates) {
    const controller = getControllerOf(obj);
    const matches = selector.matches(obj.metadata.labels);
    if (controller) {
      if (controller.uid !== owner.metadata.uid) continue;
      if (matches) {
        claimed.push(obj);
        continue;
      }
      // Keep owned objects while the owner is going away: the GC handles them.
      if (owner.metadata.deletionTimestamp) continue;
      await releaseObject(client, ref, obj, owner.metadata.uid ?? '');
      continue;
    }
    if (owner.metadata.deletionTimestamp || !matches || obj.metadata.deletionTimestamp) continue;
    if (obj.metadata.namespace !== owner.metadata.namespace) continue;
    adoptChecked ??= options.canAdopt();
    await adoptChecked;
    const adopted = await adoptObject(client, ref, obj, options.controllerRef, options.adoptFinalizers ?? []);
    if (adopted) claimed.push(adopted as unknown as T);
  }
  return claimed;
}

async function adoptObject(client: Client, ref: ResourceRef, obj: DeepReadonly<KubeObject>, controllerRef: OwnerReference, finalizers: readonly string[]): Promise<KubeObject | undefined> {
  const patch = { metadata: { ownerReferences: [controllerRef], uid: obj.metadata.uid, ...(finalizers.length > 0 ? { finalizers: [...finalizers] } : {}) } };
  try {
    return await client.patch(ref, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', patch);
  } catch (error) {
    // Gone, or changed identity (the uid in the patch is a precondition): nothing to adopt.
    if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Invalid' || error.reason === 'Conflict')) return undefined;
    throw error;
  }
}

/** Removes the owner's reference from obj (by uid), leaving other owners in place. */
export async function releaseObject(client: Client, ref: ResourceRef, obj: DeepReadonly<KubeObject>, ownerUid: string): Promise<void> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: obj.metadata.uid } };
  try {
    await client.patch(ref, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', patch);
  } catch (error) {
    if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Invalid' || error.reason === 'Conflict')) return;
    throw error;
  }
}

/** RecheckDeletionTimestamp: a live GET so a stale cache cannot adopt for a deleted owner. */
export function recheckDeletionTimestamp(client: Client, ref: ResourceRef, owner: DeepReadonly<KubeObject>): () => Promise<void> {
  return async () => {
    const fresh = await client.get(ref, owner.metadata.namespace, owner.metadata.name ?? '');
    if (fresh.metadata.uid !== owner.metadata.uid) {
      throw new Error(`original ${owner.metadata.namespace}/${owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`);
    }
    if (fresh.metadata.deletionTimestamp) {
      throw new Error(`${owner.metadata.namespace}/${owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    }
  };
}
