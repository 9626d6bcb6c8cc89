// resource.k8s.io/v1 wire types: DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate
// and the pieces they share. Quantities stay strings (parse with core/quantity).
// Upstream: staging/src/k8s.io/api/resource/v1/types.go.
import type { Condition, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { NodeSelector } from '../../core/v1/pod.ts';

export interface CELDeviceSelector {
  expression: string;
}
export interface DeviceSelector {
  cel?: CELDeviceSelector;
}

export interface OpaqueDeviceConfiguration {
  driver: string;
  /** Any JSON object; the driver interprets it. */
  parameters: unknown;
}
export interface DeviceConfiguration {
  opaque?: OpaqueDeviceConfiguration;
}

// ---- DeviceClass ----

export interface DeviceClassConfiguration extends DeviceConfiguration {}

export interface DeviceClassSpec {
  selectors?: DeviceSelector[];
  config?: DeviceClassConfiguration[];
  /** DRAExtendedResource (alpha in 1.35). */
  extendedResourceName?: string;
}

export interface DeviceClass extends KubeObject {
  apiVersion?: 'resource.k8s.io/v1';
  kind?: 'DeviceClass';
  metadata: ObjectMeta;
  spec: DeviceClassSpec;
}

// ---- ResourceSlice ----

export interface ResourcePool {
  name: string;
  generation: number;
  resourceSliceCount: number;
}

/** Exactly one member is set. */
export interface DeviceAttribute {
  int?: number;
  bool?: boolean;
  string?: string;
  version?: string;
}

export interface CapacityRequestPolicyRange {
  min?: string;
  max?: string;
  step?: string;
}
export interface CapacityRequestPolicy {
  default?: string;
  validValues?: string[];
  validRange?: CapacityRequestPolicyRange;
}
export interface DeviceCapacity {
  value: string;
  requestPolicy?: CapacityRequestPolicy;
}

export interface Counter {
  value: string;
}
export interface CounterSet {
  name: string;
  counters: Record<string, Counter>;
}
export interface DeviceCounterConsumption {
  counterSet: string;
  counters: Record<string, Counter>;
}

export type DeviceTaintEffect = 'NoSchedule' | 'NoExecute' | 'None';
export interface DeviceTaint {
  key: string;
  value?: string;
  effect: DeviceTaintEffect;
  timeAdded?: string;
}

export interface Device {
  name: string;
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, DeviceCapacity>;
  consumesCounters?: DeviceCounterConsumption[];
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  taints?: DeviceTaint[];
  bindsToNode?: boolean;
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  allowMultipleAllocations?: boolean;
}

export interface ResourceSliceSpec {
  driver: string;
  pool: ResourcePool;
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  perDeviceNodeSelection?: boolean;
  devices?: Device[];
  sharedCounters?: CounterSet[];
}

export interface ResourceSlice extends KubeObject {
  apiVersion?: 'resource.k8s.io/v1';
  kind?: 'ResourceSlice';
  metadata: ObjectMeta;
  spec: ResourceSliceSpec;
}

// ---- ResourceClaim ----

export type DeviceAllocationMode = 'ExactCount' | 'All';
export type DeviceTolerationOperator = 'Exists' | 'Equal';

export interface DeviceToleration {
  key?: string;
  /** Defaulted to Equal. */
  operator?: DeviceTolerationOperator;
  value?: string;
  effect?: DeviceTaintEffect;
  tolerationSeconds?: number;
}

export interface CapacityRequirements {
  requests?: Record<string, string>;
}

export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  /** Defaulted to ExactCount. */
  allocationMode?: DeviceAllocationMode;
  /** Defaulted to 1 with ExactCount. */
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
}

export interface DeviceSubRequest {
  name: string;
  deviceClassName: string;
  selectors?: DeviceSelector[];
  allocationMode?: DeviceAllocationMode;
  count?: number;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
}

/** Exactly one of `exactly` or `firstAvailable`. */
export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface DeviceConstraint {
  requests?: string[];
  matchAttribute?: string;
  distinctAttribute?: string;
}

export interface DeviceClaimConfiguration extends DeviceConfiguration {
  requests?: string[];
}

export interface DeviceClaim {
  requests?: DeviceRequest[];
  constraints?: DeviceConstraint[];
  config?: DeviceClaimConfiguration[];
}

export interface ResourceClaimSpec {
  devices?: DeviceClaim;
}

export interface DeviceRequestAllocationResult {
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  shareID?: string;
  consumedCapacity?: Record<string, string>;
}

export type AllocationConfigSource = 'FromClass' | 'FromClaim';
export interface DeviceAllocationConfiguration extends DeviceConfiguration {
  source: AllocationConfigSource;
  requests?: string[];
}

export interface DeviceAllocationResult {
  results?: DeviceRequestAllocationResult[];
  config?: DeviceAllocationConfiguration[];
}

export interface AllocationResult {
  devices?: DeviceAllocationResult;
  nodeSelector?: NodeSelector;
  allocationTimestamp?: string;
}

export interface ResourceClaimConsumerReference {
  apiGroup?: string;
  resource: string;
  name: string;
  uid: string;
}

export interface NetworkDeviceData {
  interfaceName?: string;
  ips?: string[];
  hardwareAddress?: string;
}

export interface AllocatedDeviceStatus {
  driver: string;
  pool: string;
  device: string;
  shareID?: string;
  conditions?: Condition[];
  data?: unknown;
  networkData?: NetworkDeviceData;
}

export interface ResourceClaimStatus {
  allocation?: AllocationResult;
  reservedFor?: ResourceClaimConsumerReference[];
  devices?: AllocatedDeviceStatus[];
}

export interface ResourceClaim extends KubeObject {
  apiVersion?: 'resource.k8s.io/v1';
  kind?: 'ResourceClaim';
  metadata: ObjectMeta;
  spec: ResourceClaimSpec;
  status?: ResourceClaimStatus;
}

export interface ResourceClaimTemplateSpec {
  metadata?: ObjectMeta;
  spec: ResourceClaimSpec;
}

export interface ResourceClaimTemplate extends KubeObject {
  apiVersion?: 'resource.k8s.io/v1';
  kind?: 'ResourceClaimTemplate';
  metadata: ObjectMeta;
  spec: ResourceClaimTemplateSpec;
}

/** Limits from pkg/apis/resource/types.go. */
export const ResourceLimits = {
  PoolNameMaxLength: 253,
  DeviceRequestsMaxSize: 32,
  AllocationResultsMaxSize: 32,
  DeviceConstraintsMaxSize: 32,
  DeviceConfigMaxSize: 32,
  DeviceSelectorsMaxSize: 32,
  FirstAvailableDeviceRequestMaxSize: 8,
  CELSelectorExpressionMaxLength: 10 * 1024,
  CELSelectorExpressionMaxCost: 1_000_000,
  OpaqueParametersMaxLength: 10 * 1024,
  ResourceClaimReservedForMaxSize: 256,
  ResourceSliceMaxDevices: 128,
  ResourceSliceMaxDevicesWithTaintsOrConsumesCounters: 64,
  ResourceSliceMaxCounterSets: 8,
  ResourceSliceMaxCountersPerCounterSet: 32,
  ResourceSliceMaxDeviceCounterConsumptionsPerDevice: 2,
  ResourceSliceMaxCountersPerDeviceCounterConsumption: 32,
  ResourceSliceMaxAttributesAndCapacitiesPerDevice: 32,
  DeviceMaxDomainLength: 63,
  DeviceMaxIDLength: 32,
  DeviceAttributeMaxValueLength: 64,
  DeviceTaintsMaxLength: 16,
  DeviceTolerationsMaxLength: 16,
  AllocatedDeviceStatusMaxConditions: 8,
  AllocatedDeviceStatusDataMaxLength: 10 * 1024,
  NetworkDeviceDataInterfaceNameMaxLength: 256,
  NetworkDeviceDataHardwareAddressMaxLength: 128,
  NetworkDeviceDataMaxIPs: 16,
  BindingConditionsMaxSize: 4,
  BindingFailureConditionsMaxSize: 4,
} as const;

/** Finalizer the scheduler adds when it allocates a claim. */
export const ResourceClaimDeleteProtectionFinalizer = 'resource.kubernetes.io/delete-protection';
/** Annotation the claim controller puts on claims it generates from templates. */
export const PodClaimNameAnnotation = 'resource.kubernetes.io/pod-claim-name';
