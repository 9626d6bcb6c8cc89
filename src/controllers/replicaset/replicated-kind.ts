// The two kinds the ReplicaSet controller runs for. Upstream's replication manager is the same
// controller over ReplicationControllers converted to ReplicaSets and back; this is that conversion.
// Upstream: pkg/controller/replication/{replication_controller.go, conversion.go}.
import { refs } from '../../api/index.ts';
import type { ReplicaSet, ReplicaSetStatus, ReplicationController, ResourceRef } from '../../api/index.ts';
import type { DeepReadonly, KubeObject, LabelSelector } from '../../core/index.ts';

// Informers hand out their cached objects typed as mutable; nothing here writes to them.
type CachedRS = ReplicaSet;

export interface ReplicatedKind {
  readonly ref: ResourceRef;
  readonly apiVersion: string;
  readonly kind: string;
  /** The event source component (upstream's recorder name). */
  readonly component: string;
  /** The stored object as a ReplicaSet; the identity for ReplicaSets. */
  view(obj: KubeObject): CachedRS;
  /** The object a status write sends: `view` undone, carrying `status` as this kind stores it. */
  withStatus(view: DeepReadonly<ReplicaSet>, status: ReplicaSetStatus): KubeObject;
  /** A computed status as this kind stores it (what the stored one is compared with). */
  storedStatus(status: ReplicaSetStatus): ReplicaSetStatus;
}

export const replicaSetKind: ReplicatedKind = {
  ref: refs.replicaSets,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  component: 'replicaset-controller',
  view: (obj) => obj as CachedRS,
  withStatus: (rs, status) => ({ ...(rs as ReplicaSet), status }),
  storedStatus: (status) => status,
};

export const replicationControllerKind: ReplicatedKind = {
  ref: refs.replicationControllers,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  component: 'replication-controller',
  view(obj) {
    const rc = obj as ReplicationController;
    const selector: LabelSelector = { matchLabels: { ...rc.spec.selector } };
    return { ...(rc as unknown as CachedRS), spec: { ...rc.spec, selector } };
  },
  withStatus(view, status) {
    const rc = { ...(view as unknown as ReplicationController) };
    rc.spec = { ...(view.spec as ReplicationController['spec']), selector: { ...view.spec.selector?.matchLabels } };
    rc.status = status;
    return rc;
  },
  storedStatus(status) {
    const { terminatingReplicas: _dropped, ...rest } = status;
    return rest;
  },
};
