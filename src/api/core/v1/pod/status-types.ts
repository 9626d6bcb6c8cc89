// PodStatus wire types: phase, conditions, IPs and per-container statuses, as served by 1.35.
// Upstream: staging/src/k8s.io/api/core/v1/types.go (PodStatus, ContainerStatus).
import type { Condition } from '../../../../core/index.ts';
import type { PodPhase, PodQOSClass, PodResizeStatus, ResourceList, ResourceRequirements } from './types.ts';

export interface PodCondition extends Condition {
  type: string;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
/** At most one member is set. */
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface VolumeMountStatus {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  recursiveReadOnly?: 'Disabled' | 'IfPossible' | 'Enabled';
}
export interface ContainerUser {
  linux?: { uid: number; gid: number; supplementalGroups?: number[] };
}
export interface ResourceHealth {
  resourceID: string;
  health?: 'Healthy' | 'Unhealthy' | 'Unknown';
}
export interface ResourceStatus {
  name: string;
  resources?: ResourceHealth[];
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMountStatus[];
  user?: ContainerUser;
  allocatedResourcesStatus?: ResourceStatus[];
  stopSignal?: string;
}

export interface PodIP {
  ip: string;
}
export interface HostIP {
  ip: string;
}
export interface PodResourceClaimStatus {
  name: string;
  resourceClaimName?: string;
}
/** 1.35 alpha: extended resources backed by DRA. */
export interface PodExtendedResourceClaimStatus {
  requestMappings: { containerName: string; resourceName: string; requestName: string }[];
  resourceClaimName: string;
}

export interface PodStatus {
  observedGeneration?: number;
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: HostIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
  /** Deprecated in 1.33: replaced by the PodResizePending / PodResizeInProgress conditions. */
  resize?: PodResizeStatus;
  resourceClaimStatuses?: PodResourceClaimStatus[];
  extendedResourceClaimStatus?: PodExtendedResourceClaimStatus;
}

