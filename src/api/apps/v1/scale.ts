// The autoscaling/v1 Scale subresource of Deployments and ReplicaSets: building a Scale from the
// parent and writing a Scale's spec.replicas back. The API server's scale handler calls these.
// Upstream: pkg/registry/apps/deployment/storage/storage.go (scaleFromDeployment,
// scaleUpdatedObjectInfo), pkg/registry/apps/replicaset/storage/storage.go,
// pkg/apis/autoscaling/validation/validation.go (ValidateScale).
import { FieldPath, invalidValue } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { DeepReadonly, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import { selectorString } from './selector.ts';
import type { Deployment } from './deployment.ts';
import type { ReplicaSet } from './replica-set.ts';

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** labels.Selector String() of the parent's selector; omitted when empty. */
  selector?: string;
}

export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  metadata: ObjectMeta;
  spec: ScaleSpec;
  status?: ScaleStatus;
}

/** How one parent kind maps to and from its Scale. */
export interface ScaleSubresource<T extends KubeObject> {
  toScale(obj: DeepReadonly<T>): Scale;
  /**
   * A copy of `obj` with the Scale's replicas applied, or the field errors of the Scale itself.
   * The caller then runs the parent's normal update (strategy + validation) with the copy, and
   * must reject a Scale whose metadata.resourceVersion is set and differs from the parent's.
   */
  applyScale(obj: DeepReadonly<T>, scale: Scale): { object: T } | { errors: FieldError[] };
}

interface Replicated extends KubeObject {
  spec: { replicas?: number; selector?: LabelSelector };
  status?: { replicas?: number };
}

function scaleMeta(meta: DeepReadonly<ObjectMeta>): ObjectMeta {
  const out: ObjectMeta = {};
  if (meta.name !== undefined) out.name = meta.name;
  if (meta.namespace !== undefined) out.namespace = meta.namespace;
  if (meta.uid !== undefined) out.uid = meta.uid;
  if (meta.resourceVersion !== undefined) out.resourceVersion = meta.resourceVersion;
  if (meta.creationTimestamp !== undefined) out.creationTimestamp = meta.creationTimestamp;
  return out;
}

function toScale(obj: DeepReadonly<Replicated>): Scale {
  const status: ScaleStatus = { replicas: obj.status?.replicas ?? 0 };
  const selector = selectorString(obj.spec.selector);
  if (selector) status.selector = selector;
  const spec: ScaleSpec = {};
  // int32 with omitempty upstream: zero replicas is not written.
  if (obj.spec.replicas) spec.replicas = obj.spec.replicas;
  return { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: scaleMeta(obj.metadata), spec, status };
}

/** ValidateScale (spec part; the object meta is the parent's). */
export function validateScale(scale: Scale): FieldError[] {
  const replicas = scale.spec?.replicas ?? 0;
  return replicas < 0
    ? [invalidValue(FieldPath.root('spec').child('replicas'), replicas, 'must be greater than or equal to 0')]
    : [];
}

function applyScale<T extends Replicated>(obj: DeepReadonly<T>, scale: Scale): { object: T } | { errors: FieldError[] } {
  const errors = validateScale(scale);
  if (errors.length) return { errors };
  const object = structuredClone(obj) as T;
  object.spec.replicas = scale.spec?.replicas ?? 0;
  if (scale.metadata.resourceVersion) object.metadata.resourceVersion = scale.metadata.resourceVersion;
  return { object };
}

export const deploymentScaleSpec: ScaleSubresource<Deployment> = {
  toScale: (d) => toScale(d),
  applyScale: (d, scale) => applyScale<Deployment>(d, scale),
};

export const replicaSetScaleSpec: ScaleSubresource<ReplicaSet> = {
  toScale: (rs) => toScale(rs),
  applyScale: (rs, scale) => applyScale<ReplicaSet>(rs, scale),
};
