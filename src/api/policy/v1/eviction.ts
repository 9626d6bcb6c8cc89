// Eviction (policy/v1): what kubectl drain POSTs to pods/<name>/eviction; the server checks
// PodDisruptionBudgets, then deletes the pod with deleteOptions.
// Upstream: staging/src/k8s.io/api/policy/v1/types.go (Eviction), pkg/registry/core/pod/storage/eviction.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions {
  kind?: 'DeleteOptions';
  apiVersion?: string;
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  orphanDependents?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  dryRun?: string[];
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export interface Eviction extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'Eviction';
  /** Names the pod being evicted (name must match the URL's). */
  metadata: ObjectMeta;
  deleteOptions?: DeleteOptions;
}
