// Binding (core/v1): what the scheduler POSTs to pods/<name>/binding to set spec.nodeName.
// Upstream: staging/src/k8s.io/api/core/v1/types.go (Binding), pkg/registry/core/pod/storage/storage.go (BindingREST).
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';

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

/**
 * `bindings`, the legacy collection a Binding is POSTed to (named by its metadata.name), served by
 * the same code as pods/<name>/binding; create is its only verb, so nothing is stored under it.
 * Upstream: pkg/registry/core/pod/storage/storage.go (LegacyBindingREST).
 */
export const bindingDefinition: ResourceDefinition<Binding> = {
  group: '',
  version: 'v1',
  kind: 'Binding',
  resource: 'bindings',
  singular: 'binding',
  namespaced: true,
  verbs: ['create'],
  hasStatus: false,
};
