// Binding (core/v1): what the scheduler POSTs to pods/<name>/binding to set spec.nodeName.
// Upstream: staging/src/k8s.io/api/core/v1/types.go (Binding), pkg/registry/core/pod/storage/storage.go (BindingREST).
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface Binding extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Binding';
  metadata: ObjectMeta;
  /** The node to bind to; only kind Node (or empty) is accepted. */
  target: ObjectReference;
}
