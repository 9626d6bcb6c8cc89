// Upstream struct tags and +listType/+mapType markers for the kinds Drydock serves. The schema source
// (@kubernetes/client-node's generated models) drops every x-kubernetes-* extension, so they come from here.
// Upstream: staging/src/k8s.io/api/{core,apps,batch,policy,resource,networking,flowcontrol}/v1/types.go, apimachinery meta/v1/types.go
// and apiextensions-apiserver's apiextensions/v1/types*.go.
// Lists not named here are `x-kubernetes-list-type: atomic`, which is what upstream marks them since 1.30.

export interface ListTag {
  listType: 'atomic' | 'set' | 'map';
  listMapKeys?: readonly string[];
  patchMergeKey?: string;
  patchStrategy?: string;
}

const map = (keys: string[], patch?: [strategy: string, mergeKey: string]): ListTag => ({
  listType: 'map',
  listMapKeys: keys,
  ...(patch ? { patchStrategy: patch[0], patchMergeKey: patch[1] } : {}),
});
const byName = map(['name'], ['merge', 'name']);
const byType = map(['type'], ['merge', 'type']);

/** Keyed by `<package>.<version>.<Type>.<field>`, e.g. `core.v1.PodSpec.containers`. */
export const listTags: Readonly<Record<string, ListTag>> = {
  'meta.v1.ObjectMeta.finalizers': { listType: 'set', patchStrategy: 'merge' },
  'meta.v1.ObjectMeta.ownerReferences': map(['uid'], ['merge', 'uid']),

  'admissionregistration.v1.ValidatingAdmissionPolicySpec.matchConditions': byName,
  'admissionregistration.v1.ValidatingAdmissionPolicyStatus.conditions': map(['type']),
  'apiregistration.v1.APIServiceStatus.conditions': byType,
  'storage.v1.CSINodeSpec.drivers': map(['name'], ['merge', 'name']),
  'storage.v1.CSIDriverSpec.volumeLifecycleModes': { listType: 'set' },
  'apiextensions.v1.CustomResourceDefinitionStatus.conditions': map(['type']),
  'apiextensions.v1.JSONSchemaProps.x-kubernetes-validations': map(['rule'], ['merge', 'rule']),
  'admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec.validationActions': { listType: 'set' },
  'admissionregistration.v1.ValidatingWebhookConfiguration.webhooks': byName,
  'admissionregistration.v1.MutatingWebhookConfiguration.webhooks': byName,
  'admissionregistration.v1.ValidatingWebhook.matchConditions': byName,
  'admissionregistration.v1.MutatingWebhook.matchConditions': byName,

  'core.v1.NamespaceStatus.conditions': byType,
  'core.v1.PodSpec.volumes': map(['name'], ['merge,retainKeys', 'name']),
  'core.v1.PodSpec.initContainers': byName,
  'core.v1.PodSpec.containers': byName,
  'core.v1.PodSpec.ephemeralContainers': byName,
  'core.v1.PodSpec.imagePullSecrets': byName,
  'core.v1.PodSpec.hostAliases': map(['ip'], ['merge', 'ip']),
  'core.v1.PodSpec.topologySpreadConstraints': map(['topologyKey', 'whenUnsatisfiable'], ['merge', 'topologyKey']),
  'core.v1.PodSpec.schedulingGates': byName,
  'core.v1.PodSpec.resourceClaims': map(['name'], ['merge,retainKeys', 'name']),
  'core.v1.PodStatus.conditions': byType,
  'core.v1.PodStatus.hostIPs': { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'ip' },
  'core.v1.PodStatus.podIPs': map(['ip'], ['merge', 'ip']),
  'core.v1.PodStatus.resourceClaimStatuses': map(['name'], ['merge,retainKeys', 'name']),
  'core.v1.Container.ports': map(['containerPort', 'protocol'], ['merge', 'containerPort']),
  'core.v1.Container.env': byName,
  'core.v1.Container.volumeMounts': map(['mountPath'], ['merge', 'mountPath']),
  'core.v1.Container.volumeDevices': map(['devicePath'], ['merge', 'devicePath']),
  'core.v1.EphemeralContainer.ports': map(['containerPort', 'protocol'], ['merge', 'containerPort']),
  'core.v1.EphemeralContainer.env': byName,
  'core.v1.EphemeralContainer.volumeMounts': map(['mountPath'], ['merge', 'mountPath']),
  'core.v1.EphemeralContainer.volumeDevices': map(['devicePath'], ['merge', 'devicePath']),
  'core.v1.ContainerStatus.volumeMounts': map(['mountPath'], ['merge', 'mountPath']),
  'core.v1.ContainerStatus.allocatedResourcesStatus': byName,
  'core.v1.ResourceStatus.resources': map(['resourceID']),
  'core.v1.ResourceRequirements.claims': map(['name']),
  'core.v1.ContainerRestartRuleOnExitCodes.values': { listType: 'set' },
  'core.v1.NodeSpec.podCIDRs': { listType: 'set', patchStrategy: 'merge' },
  'core.v1.NodeStatus.conditions': byType,
  'core.v1.NodeStatus.addresses': byType,
  'core.v1.ServiceAccount.secrets': byName,
  'core.v1.ServiceSpec.ports': map(['port', 'protocol'], ['merge', 'port']),
  'core.v1.ServiceStatus.conditions': byType,
  'core.v1.PersistentVolumeClaimStatus.conditions': byType,

  'core.v1.ReplicationControllerStatus.conditions': byType,
  'apps.v1.DeploymentStatus.conditions': byType,
  'apps.v1.ReplicaSetStatus.conditions': byType,
  'apps.v1.DaemonSetStatus.conditions': byType,
  'apps.v1.StatefulSetStatus.conditions': byType,
  'batch.v1.JobStatus.conditions': { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'type' },
  'batch.v1.PodFailurePolicyOnExitCodesRequirement.values': { listType: 'set' },
  'batch.v1.UncountedTerminatedPods.succeeded': { listType: 'set' },
  'batch.v1.UncountedTerminatedPods.failed': { listType: 'set' },
  'policy.v1.PodDisruptionBudgetStatus.conditions': byType,
  'networking.v1.ServiceCIDRStatus.conditions': byType,
  'certificates.v1.CertificateSigningRequestStatus.conditions': { listType: 'map', listMapKeys: ['type'] },
  'flowcontrol.v1.FlowSchemaStatus.conditions': byType,
  'flowcontrol.v1.PriorityLevelConfigurationStatus.conditions': byType,
  'autoscaling.v2.HorizontalPodAutoscalerStatus.conditions': byType,

  'resource.v1.ResourceClaimStatus.reservedFor': map(['uid'], ['merge', 'uid']),
  'resource.v1.ResourceClaimStatus.devices': map(['driver', 'device', 'pool', 'shareID']),
  'resource.v1.AllocatedDeviceStatus.conditions': map(['type']),
};

/** Non-list fields with a patch strategy (`patchStrategy:"retainKeys"` on a struct). */
export const fieldPatchStrategies: Readonly<Record<string, string>> = {
  'apps.v1.DeploymentSpec.strategy': 'retainKeys',
};

/** Map fields with `+mapType`. */
export const mapTypes: Readonly<Record<string, 'atomic' | 'granular'>> = {
  'core.v1.PodSpec.nodeSelector': 'atomic',
  'core.v1.ServiceSpec.selector': 'atomic',
  'core.v1.ReplicationControllerSpec.selector': 'atomic',
  'node.v1.Scheduling.nodeSelector': 'atomic',
  'core.v1.PersistentVolumeClaimStatus.allocatedResourceStatuses': 'granular',
};

/** Structs marked `+structType=atomic` (x-kubernetes-map-type: atomic on the definition). */
export const atomicStructs: ReadonlySet<string> = new Set([
  'rbac.v1.RoleRef',
  'rbac.v1.Subject',
  'meta.v1.LabelSelector',
  'meta.v1.OwnerReference',
  'core.v1.LocalObjectReference',
  'core.v1.ObjectReference',
  'core.v1.TypedLocalObjectReference',
  'core.v1.ConfigMapKeySelector',
  'core.v1.SecretKeySelector',
  'core.v1.FileKeySelector',
  'core.v1.ObjectFieldSelector',
  'core.v1.ResourceFieldSelector',
  'core.v1.SecretReference',
  'core.v1.NodeSelector',
  'core.v1.NodeSelectorTerm',
  'core.v1.TopologySelectorTerm',
  'autoscaling.v1.CrossVersionObjectReference',
]);

/**
 * Fields the source types as `any` that upstream gives a definition of their own: JSONSchemaProps'
 * values that unmarshal whatever shape they meet, and the empty status subresource struct.
 */
export const untypedFieldDefinitions: Readonly<Record<string, string>> = {
  'apiextensions.v1.JSONSchemaProps.additionalItems': 'JSONSchemaPropsOrBool',
  'apiextensions.v1.JSONSchemaProps.additionalProperties': 'JSONSchemaPropsOrBool',
  'apiextensions.v1.JSONSchemaProps.default': 'JSON',
  'apiextensions.v1.JSONSchemaProps.dependencies': 'JSONSchemaPropsOrStringArray',
  'apiextensions.v1.JSONSchemaProps.enum': 'JSON',
  'apiextensions.v1.JSONSchemaProps.example': 'JSON',
  'apiextensions.v1.JSONSchemaProps.items': 'JSONSchemaPropsOrArray',
  'apiextensions.v1.CustomResourceSubresources.status': 'CustomResourceSubresourceStatus',
};

/** Fields whose values are resource.Quantity (the source types them as plain strings). */
export const quantityFields: ReadonlySet<string> = new Set([
  'core.v1.ResourceRequirements.limits',
  'core.v1.ResourceRequirements.requests',
  'core.v1.VolumeResourceRequirements.limits',
  'core.v1.VolumeResourceRequirements.requests',
  'core.v1.NodeStatus.capacity',
  'core.v1.NodeStatus.allocatable',
  'core.v1.PodSpec.overhead',
  'node.v1.Overhead.podFixed',
  'core.v1.LimitRangeItem.max',
  'core.v1.LimitRangeItem.min',
  'core.v1.LimitRangeItem.default',
  'core.v1.LimitRangeItem.defaultRequest',
  'core.v1.LimitRangeItem.maxLimitRequestRatio',
  'core.v1.PersistentVolumeSpec.capacity',
  'core.v1.PersistentVolumeClaimStatus.capacity',
  'core.v1.PersistentVolumeClaimStatus.allocatedResources',
  'core.v1.ContainerStatus.allocatedResources',
  'core.v1.EmptyDirVolumeSource.sizeLimit',
  'core.v1.ResourceFieldSelector.divisor',
  'resource.v1.DeviceCapacity.value',
  'resource.v1.Counter.value',
  'resource.v1.CapacityRequestPolicy.default',
  'resource.v1.CapacityRequestPolicy.validValues',
  'resource.v1.CapacityRequestPolicyRange.min',
  'resource.v1.CapacityRequestPolicyRange.max',
  'resource.v1.CapacityRequestPolicyRange.step',
  'resource.v1.CapacityRequirements.requests',
  'resource.v1.DeviceRequestAllocationResult.consumedCapacity',
  'autoscaling.v2.MetricTarget.value',
  'autoscaling.v2.MetricTarget.averageValue',
  'autoscaling.v2.MetricValueStatus.value',
  'autoscaling.v2.MetricValueStatus.averageValue',
  'autoscaling.v2.HPAScalingRules.tolerance',
]);
