// Pod (core/v1) wire types: PodSpec, Container, probes, volumes, affinity and PodStatus, as served by 1.35.
// Upstream: staging/src/k8s.io/api/core/v1/types.go. Quantities stay strings here; parse them with core/quantity.
import type { KubeObject, LabelSelector, ObjectMeta } from '../../../../core/index.ts';

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

/** ContainerRestartRules (beta, on in 1.35): per-exit-code overrides of the container's restartPolicy. */
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
  /** Init containers: `Always` makes a native sidecar. Otherwise (ContainerRestartRules, 1.35 beta): overrides the pod's. */
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

export type * from './volume-types.ts';
import type { Volume } from './volume-types.ts';

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

export type * from './status-types.ts';
import type { PodStatus } from './status-types.ts';

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
