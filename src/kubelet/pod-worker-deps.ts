// What a pod worker is given and the states it moves through; its collaborators (start, kill, sandbox,
// volumes, container context) take the parts of PodWorkerDeps they use.
// Upstream: pkg/kubelet/pod_workers.go (podSyncStatus, PodWorkerState).
import type { Client } from '../client/index.ts';
import type { ContainerRecord } from './container-record.ts';
import type { Clock, Random } from '../core/index.ts';
import type { Backoff } from './backoff.ts';
import type { ClusterDnsView } from './cluster-dns.ts';
import type { DeviceManager } from './device-manager.ts';
import type { Allocatable } from './downward-api.ts';
import type { ClaimPreparer } from './dynamic-resources.ts';
import type { EnvSources } from './container-env.ts';
import type { EventRecorder } from './events.ts';
import type { ImageManager } from './image-manager.ts';
import type { KubeletMetrics } from './kubelet-metrics.ts';
import type { DeepReadonlyPod } from './types.ts';
import type { VolumeMounter } from './volumes.ts';

export type WorkerState =
  | { kind: 'syncing' }
  | { kind: 'terminating'; since: number; graceSeconds: number; cause: 'deleted' | 'completed' }
  | { kind: 'terminated'; cause: 'deleted' | 'completed' }
  | { kind: 'finished' };

export interface PodWorkerDeps {
  client: Client;
  clock: Clock;
  random: Random;
  node: string;
  hostIP: string;
  events: EventRecorder;
  backoff: Backoff;
  /** The node's images: pulled once (one pull at a time), then "already present". */
  images: ImageManager;
  log: (line: string) => void;
  onFinished: (uid: string) => void;
  /** What the node's IPAM hands out, as host-local names its range set (`10.128.0.1-10.128.0.254`). */
  podIPRange: string;
  /** An IP from the node's pod CIDR, or undefined when every one is taken. */
  allocateIP: () => string | undefined;
  releaseIP: (ip: string) => void;
  /** False on a kubelet older than 1.33, which has no in-place resize (see hasInPlaceResize). */
  inPlaceResize?: boolean;
  /** False on a kubelet older than 1.33, whose container statuses carry no user (see hasSupplementalGroupsPolicy). */
  supplementalGroupsPolicy?: boolean;
  /** The pod's allocation, actual resources or resize conditions changed (the node's deferred resizes may now fit). */
  onResourcesChanged?: () => void;
  /** Sets up the pod's volumes before any container starts (absent: nothing to mount). */
  volumes?: VolumeMounter;
  /** The config maps and secrets env and envFrom name (absent: only literal values are known). */
  envSources?: EnvSources;
  /** Prepares the pod's ResourceClaims before any container starts (absent: claims are not checked). */
  claims?: ClaimPreparer;
  /** The GPUs a device plugin gave the pod's containers at admission (absent: none are assigned). */
  devices?: DeviceManager;
  /** Why the pod's sandbox cannot be made on this node for its RuntimeClass (absent: every class runs). */
  sandboxRuntimeFailure?: (pod: DeepReadonlyPod) => string | undefined;
  /** The Node's allocatable: the downward API's value of a limit a container does not set. */
  nodeAllocatable?: () => Allocatable;
  /** The node pool's runtime: `process` runs a container that has a command as a host process. */
  runtime?: 'sim' | 'process';
  /** The kubelet's counters (absent: nothing is counted). */
  metrics?: KubeletMetrics;
  /** What the cluster DNS answers the pod (absent: nslookup is not simulated). */
  dns?: ClusterDnsView;
}

/**
 * What the pod worker lends its collaborators: the pod as it is now, its containers, its timers, sync and events.
 * The PodWorker is its own view (methods on its prototype, nothing built per pod), passed to each collaborator
 * beside that one's options. Spreading a view object into each one's options (`{ ...view, deps }`) gave every
 * such object its own V8 hidden class (a copied object that then gains a property transitions from a map no other
 * object shares): 3.1 KB a pod for the seven of them (pod-memory, 100 / 5,000).
 */
export interface PodWorkerView {
  readonly pod: DeepReadonlyPod;
  readonly records: ReadonlyMap<string, ContainerRecord>;
  /** The worker is syncing the pod (not terminating or done). */
  isSyncing(): boolean;
  /** A timer of the pod worker's, cancelled when the pod terminates. */
  after(ms: number, fn: () => void): void;
  sync(): void;
  /** The pod worker's next try after a failed sync: backOffPeriod, jittered by half. */
  retryDelay(): number;
  /** An event on the pod; about a container (its field path) when one is named. */
  event(container: string | undefined, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** The pod's status changed: the status writer writes it. */
  markDirty(): void;
}

/** The pod worker's backOffPeriod: how soon a pod whose sync failed is synced again (plus up to half). */
const backOffPeriodMs = 10_000;

/** The pod worker's next try after a failed sync: backOffPeriod, jittered by half. */
export function retryDelayMs(random: Random): number {
  return backOffPeriodMs + Math.floor(random.float() * backOffPeriodMs * 0.5);
}
