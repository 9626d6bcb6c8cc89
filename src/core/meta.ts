// Object metadata shapes shared by every kind, mirroring the wire format of
// apimachinery/pkg/apis/meta/v1 (types.go). Plain JSON, no methods.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/** Any API object: typed kinds extend this; unknown kinds stay this shape. */
export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
  lastUpdateTime?: string;
  reason?: string;
  message?: string;
}

/**
 * `conditions` with `condition` in place of the one of its type, or appended: how a server-side
 * apply of one condition lands on a `listType=map` list keyed by type.
 */
export function withCondition<C extends { type?: string }>(conditions: readonly C[] | undefined, condition: C): C[] {
  const list = conditions ?? [];
  const at = list.findIndex((c) => c.type === condition.type);
  return at < 0 ? [...list, condition] : list.map((c, i) => (i === at ? condition : c));
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** Deeply readonly view: what the store and informers hand out. */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The one way to build `namespace/name` keys (cluster-scoped objects use the bare name). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export function splitObjectKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function keyOf(obj: { metadata: { namespace?: string | undefined; name?: string | undefined } }): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name ?? '');
}
