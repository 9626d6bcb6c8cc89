// Pod (core/v1) wire types: PodSpec, Container, probes, volumes, affinity and PodStatus, as served by 1.35.
// Upstream: staging/src/k8s.io/api/core/v1/types.go. Quantities stay strings here; parse them with core/quantity.
import type { Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../../core/meta.ts';

/** Resource name -> quantity string (`cpu: "500m"`). */
export type ResourceList = Record<string, string>;

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export type PullPolicy = 'Always' | 'Never' | 'IfNotPresent';
export type TerminationMessagePolicy = 'File' | 'FallbackToLogsOnError';
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type ContainerRestartPolicy = 'Always' | 'Never' | 'OnFailure';
export type DNSPolicy = 'ClusterFirstWithHostNet' | 'ClusterFirst' | 'Default' | 'None';
export type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export type TolerationOperator = 'Exists' | 'Equal' | 'Lt' | 'Gt';
export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
export type URIScheme = 'HTTP' | 'HTTPS';
export type ResourceResizeRestartPolicy = 'NotRequired' | 'RestartContainer';
export type PodResizeStatus = 'Proposed' | 'InProgress' | 'Deferred' | 'Infeasible' | '';

// ---- containers ----

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: Protocol;
  hostIP?: string;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}
export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: string;
}
export interface ConfigMapKeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}
export interface SecretKeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}
export interface FileKeySelector {
  volumeName: string;
  path: string;
  key: string;
  optional?: boolean;
}
export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: ConfigMapKeySelector;
  secretKeyRef?: SecretKeySelector;
  fileKeyRef?: FileKeySelector;
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}
export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ResourceClaim {
  name: string;
  request?: string;
}
export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: ResourceClaim[];
}
export interface ContainerResizePolicy {
  resourceName: string;
  restartPolicy: ResourceResizeRestartPolicy;
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  recursiveReadOnly?: 'Disabled' | 'IfPossible' | 'Enabled';
  mountPath: string;
  subPath?: string;
  mountPropagation?: 'None' | 'HostToContainer' | 'Bidirectional';
  subPathExpr?: string;
}
export interface VolumeDevice {
  name: string;
  devicePath: string;
}

export interface ExecAction {
  command?: string[];
}
export interface HTTPHeader {
  name: string;
  value: string;
}
export interface HTTPGetAction {
  path?: string;
  /** Number or IANA_SVC_NAME (IntOrString). */
  port: number | string;
  host?: string;
  scheme?: URIScheme;
  httpHeaders?: HTTPHeader[];
}
export interface TCPSocketAction {
  port: number | string;
  host?: string;
}
export interface GRPCAction {
  port: number;
  service?: string;
}
export interface SleepAction {
  seconds: number;
}

/** ProbeHandler: exactly one of the actions. */
export interface ProbeHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  grpc?: GRPCAction;
}
export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

/** LifecycleHandler: exactly one of the actions. */
export interface LifecycleHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  sleep?: SleepAction;
}
export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
  /** 1.33 beta ContainerStopSignals: SIGTERM, SIGKILL, ... */
  stopSignal?: string;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}
export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}
export interface WindowsSecurityContextOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}
export interface SeccompProfile {
  type: 'Unconfined' | 'RuntimeDefault' | 'Localhost';
  localhostProfile?: string;
}
export interface AppArmorProfile {
  type: 'Unconfined' | 'RuntimeDefault' | 'Localhost';
  localhostProfile?: string;
}
export interface SecurityContext {
  capabilities?: Capabilities;
  privileged?: boolean;
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  procMount?: 'Default' | 'Unmasked';
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
}

/** 1.34 alpha ContainerRestartRules: per-exit-code overrides of the container's restartPolicy. */
export interface ContainerRestartRule {
  action: 'Restart';
  exitCodes?: { operator: 'In' | 'NotIn'; values?: number[] };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  resizePolicy?: ContainerResizePolicy[];
  /** Init containers: only `Always` (a native sidecar). Regular containers (1.34 alpha): overrides the pod's. */
  restartPolicy?: ContainerRestartPolicy;
  restartPolicyRules?: ContainerRestartRule[];
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: TerminationMessagePolicy;
  imagePullPolicy?: PullPolicy;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

/** EphemeralContainer: a Container plus the target; ports, probes, lifecycle and resources are rejected. */
export interface EphemeralContainer extends Container {
  targetContainerName?: string;
}

// ---- volumes ----

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}
export interface HostPathVolumeSource {
  path: string;
  type?: '' | 'DirectoryOrCreate' | 'Directory' | 'FileOrCreate' | 'File' | 'Socket' | 'CharDevice' | 'BlockDevice';
}
export interface EmptyDirVolumeSource {
  medium?: '' | 'Memory' | 'HugePages' | `HugePages-${string}`;
  sizeLimit?: string;
}
export interface SecretVolumeSource {
  secretName?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}
export interface ConfigMapVolumeSource {
  name?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}
export interface PersistentVolumeClaimVolumeSource {
  claimName: string;
  readOnly?: boolean;
}
export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}
export interface DownwardAPIVolumeSource {
  items?: DownwardAPIVolumeFile[];
  defaultMode?: number;
}
export interface ServiceAccountTokenProjection {
  audience?: string;
  expirationSeconds?: number;
  path: string;
}
export interface ClusterTrustBundleProjection {
  name?: string;
  signerName?: string;
  labelSelector?: LabelSelector;
  optional?: boolean;
  path: string;
}
export interface PodCertificateProjection {
  signerName: string;
  keyType: string;
  maxExpirationSeconds?: number;
  credentialBundlePath?: string;
  keyPath?: string;
  certificateChainPath?: string;
  userAnnotations?: Record<string, string>;
}
export interface VolumeProjection {
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  serviceAccountToken?: ServiceAccountTokenProjection;
  clusterTrustBundle?: ClusterTrustBundleProjection;
  podCertificate?: PodCertificateProjection;
}
export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}
export interface PersistentVolumeClaimTemplate {
  metadata?: ObjectMeta;
  spec: {
    accessModes?: string[];
    selector?: LabelSelector;
    resources?: { limits?: ResourceList; requests?: ResourceList };
    volumeName?: string;
    storageClassName?: string;
    volumeMode?: 'Block' | 'Filesystem';
    dataSource?: { apiGroup?: string; kind: string; name: string };
    dataSourceRef?: { apiGroup?: string; kind: string; name: string; namespace?: string };
    volumeAttributesClassName?: string;
  };
}
export interface EphemeralVolumeSource {
  volumeClaimTemplate?: PersistentVolumeClaimTemplate;
}
export interface CSIVolumeSource {
  driver: string;
  readOnly?: boolean;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
  nodePublishSecretRef?: { name?: string };
}
export interface ImageVolumeSource {
  reference?: string;
  pullPolicy?: PullPolicy;
}
export interface NFSVolumeSource {
  server: string;
  path: string;
  readOnly?: boolean;
}

/** Volume: a name plus exactly one source. Rarely used in-tree sources are kept loosely typed. */
export interface Volume {
  name: string;
  hostPath?: HostPathVolumeSource;
  emptyDir?: EmptyDirVolumeSource;
  secret?: SecretVolumeSource;
  configMap?: ConfigMapVolumeSource;
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
  downwardAPI?: DownwardAPIVolumeSource;
  projected?: ProjectedVolumeSource;
  ephemeral?: EphemeralVolumeSource;
  csi?: CSIVolumeSource;
  image?: ImageVolumeSource;
  nfs?: NFSVolumeSource;
  gitRepo?: Record<string, unknown>;
  iscsi?: Record<string, unknown>;
  glusterfs?: Record<string, unknown>;
  rbd?: Record<string, unknown>;
  flexVolume?: Record<string, unknown>;
  cinder?: Record<string, unknown>;
  cephfs?: Record<string, unknown>;
  flocker?: Record<string, unknown>;
  fc?: Record<string, unknown>;
  azureFile?: Record<string, unknown>;
  azureDisk?: Record<string, unknown>;
  vsphereVolume?: Record<string, unknown>;
  quobyte?: Record<string, unknown>;
  photonPersistentDisk?: Record<string, unknown>;
  portworxVolume?: Record<string, unknown>;
  scaleIO?: Record<string, unknown>;
  storageos?: Record<string, unknown>;
  gcePersistentDisk?: Record<string, unknown>;
  awsElasticBlockStore?: Record<string, unknown>;
}

// ---- scheduling ----

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}
export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}
export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}
export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}
export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}
export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}
export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}
export type PodAntiAffinity = PodAffinity;
export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAntiAffinity;
}

export interface Toleration {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface PodSchedulingGate {
  name: string;
}
export interface PodReadinessGate {
  conditionType: string;
}

/** Exactly one of resourceClaimName / resourceClaimTemplateName. */
export interface PodResourceClaim {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

/** 1.35 alpha GenericWorkload: the Workload (scheduling.k8s.io) and pod group this pod belongs to. */
export interface WorkloadReference {
  name: string;
  podGroup: string;
  podGroupReplicaKey?: string;
}

// ---- pod-level ----

export interface Sysctl {
  name: string;
  value: string;
}
export interface PodSecurityContext {
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  supplementalGroupsPolicy?: 'Merge' | 'Strict';
  fsGroup?: number;
  sysctls?: Sysctl[];
  fsGroupChangePolicy?: 'OnRootMismatch' | 'Always';
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
  seLinuxChangePolicy?: 'Recursive' | 'MountOption';
}
export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}
export interface HostAlias {
  ip: string;
  hostnames?: string[];
}
export interface LocalObjectReference {
  name?: string;
}
export interface PodOS {
  name: 'linux' | 'windows';
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: EphemeralContainer[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: DNSPolicy;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: HostAlias[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: PodDNSConfig;
  readinessGates?: PodReadinessGate[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: PreemptionPolicy;
  overhead?: ResourceList;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: PodOS;
  hostUsers?: boolean;
  schedulingGates?: PodSchedulingGate[];
  resourceClaims?: PodResourceClaim[];
  /** Pod-level resources (1.34 beta PodLevelResources): only cpu, memory and hugepages. */
  resources?: ResourceRequirements;
  /** 1.35 alpha HostnameOverride. */
  hostnameOverride?: string;
  workloadRef?: WorkloadReference;
}

// ---- status ----

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

export interface Pod extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Pod';
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

/** Upstream condition types a pod carries (PodConditionType). */
export const PodConditionType = {
  ContainersReady: 'ContainersReady',
  Initialized: 'Initialized',
  Ready: 'Ready',
  PodScheduled: 'PodScheduled',
  DisruptionTarget: 'DisruptionTarget',
  PodReadyToStartContainers: 'PodReadyToStartContainers',
  PodResizePending: 'PodResizePending',
  PodResizeInProgress: 'PodResizeInProgress',
} as const;
export type PodConditionType = (typeof PodConditionType)[keyof typeof PodConditionType];
