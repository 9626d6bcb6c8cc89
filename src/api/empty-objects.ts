// Each built-in kind's Go zero value as the unstructured converter renders it: what a create's
// managed fields are compared against (upstream's create handler tracks the new object against
// `Creater.New(kind)`). Struct fields are always present, and fields without `omitempty` are present
// as their zero ("", 0, null); pointers and omitempty slices, maps and scalars are absent. So a
// create owns `f:strategy` without a "." of its own, but `f:rollingUpdate` (a pointer) with one, and
// never a leaf left at its zero value. Custom resources start from an empty object.
// Upstream: k8s.io/api <group>/<version>/types.go, runtime.DefaultUnstructuredConverter.
type JsonObject = Readonly<Record<string, unknown>>;

const objectMeta = { creationTimestamp: null };
const podTemplateSpec = { metadata: objectMeta, spec: { containers: null } };
const crossVersionObjectReference = { kind: '', name: '' };
const customResourceDefinitionNames = { plural: '', kind: '' };

const emptyObjects: Readonly<Record<string, JsonObject>> = {
  'v1/Pod': { spec: { containers: null }, status: {} },
  'v1/Namespace': { spec: {}, status: {} },
  'v1/Node': {
    spec: {},
    status: {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
    },
  },
  'v1/Event': { involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' },
  'v1/ConfigMap': {},
  'v1/LimitRange': { spec: { limits: null } },
  'node.k8s.io/v1/RuntimeClass': { handler: '' },
  'networking.k8s.io/v1/Ingress': { spec: {}, status: { loadBalancer: {} } },
  'networking.k8s.io/v1/IngressClass': { spec: {} },
  'networking.k8s.io/v1/NetworkPolicy': { spec: { podSelector: {} } },
  'v1/Secret': {},
  'v1/Service': { spec: {}, status: { loadBalancer: {} } },
  'v1/ServiceAccount': {},
  'v1/Endpoints': {},
  'v1/ResourceQuota': { spec: {}, status: {} },
  'discovery.k8s.io/v1/EndpointSlice': { addressType: '', endpoints: null },
  'v1/PersistentVolume': { spec: {}, status: {} },
  'v1/PersistentVolumeClaim': { spec: { resources: {} }, status: {} },
  'events.k8s.io/v1/Event': { eventTime: null, regarding: {}, deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null },
  'apps/v1/Deployment': { spec: { selector: null, template: podTemplateSpec, strategy: {} }, status: {} },
  'apps/v1/DaemonSet': { spec: { selector: null, template: podTemplateSpec, updateStrategy: {} }, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } },
  'apps/v1/StatefulSet': { spec: { selector: null, template: podTemplateSpec, serviceName: '', updateStrategy: {} }, status: { replicas: 0, availableReplicas: 0 } },
  'apps/v1/ControllerRevision': { data: null, revision: 0 },
  'apps/v1/ReplicaSet': { spec: { selector: null, template: podTemplateSpec }, status: { replicas: 0 } },
  'batch/v1/Job': { spec: { template: podTemplateSpec }, status: {} },
  'batch/v1/CronJob': { spec: { schedule: '', jobTemplate: { metadata: objectMeta, spec: { template: podTemplateSpec } } }, status: {} },
  'coordination.k8s.io/v1/Lease': { spec: {} },
  'storage.k8s.io/v1/StorageClass': { provisioner: '' },
  'scheduling.k8s.io/v1/PriorityClass': { value: 0 },
  'scheduling.k8s.io/v1alpha1/Workload': { spec: { podGroups: null } },
  'policy/v1/PodDisruptionBudget': { spec: {}, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } },
  'autoscaling/v1/HorizontalPodAutoscaler': { spec: { scaleTargetRef: crossVersionObjectReference, maxReplicas: 0 }, status: { currentReplicas: 0, desiredReplicas: 0 } },
  'autoscaling/v2/HorizontalPodAutoscaler': { spec: { scaleTargetRef: crossVersionObjectReference, maxReplicas: 0 }, status: { desiredReplicas: 0, currentMetrics: null } },
  'resource.k8s.io/v1/DeviceClass': { spec: {} },
  'resource.k8s.io/v1/ResourceSlice': { spec: { driver: '', pool: { name: '', generation: 0, resourceSliceCount: 0 } } },
  'resource.k8s.io/v1/ResourceClaim': { spec: { devices: {} }, status: {} },
  'resource.k8s.io/v1/ResourceClaimTemplate': { spec: { metadata: objectMeta, spec: { devices: {} } } },
  'rbac.authorization.k8s.io/v1/Role': { rules: null },
  'rbac.authorization.k8s.io/v1/ClusterRole': { rules: null },
  'rbac.authorization.k8s.io/v1/RoleBinding': { roleRef: { apiGroup: '', kind: '', name: '' } },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { roleRef: { apiGroup: '', kind: '', name: '' } },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    spec: { group: '', names: customResourceDefinitionNames, scope: '', versions: null },
    status: { conditions: null, acceptedNames: customResourceDefinitionNames, storedVersions: null },
  },
};

const none: JsonObject = {};
// Built once: every create asks (every typed object has ObjectMeta).
const withMetadata = new Map(Object.entries(emptyObjects).map(([key, fields]) => [key, { metadata: objectMeta, ...fields } as JsonObject]));

const kindKey = (group: string, version: string, kind: string): string => `${group ? `${group}/` : ''}${version}/${kind}`;

/** The zero value of `group/version, Kind`; {} for kinds served from CRDs. Shared: never mutate it. */
export function emptyObject(group: string, version: string, kind: string): JsonObject {
  return withMetadata.get(kindKey(group, version, kind)) ?? none;
}

/** emptyObject without metadata: the fields Go's encoding writes for the kind whoever set them. */
export function zeroFields(group: string, version: string, kind: string): JsonObject {
  return emptyObjects[kindKey(group, version, kind)] ?? none;
}

const isStruct = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Writes into `target` what `zero` has and `target` lacks (or holds null for), as Go encodes a field
 * nobody set: a struct as its own zero fields, a field without omitempty as its zero value.
 */
export function fillZeroFields(target: Record<string, unknown>, zero: unknown): void {
  if (!isStruct(zero)) return;
  for (const key in zero) {
    const value = zero[key];
    if (!isStruct(value)) {
      target[key] ??= value;
      continue;
    }
    target[key] ??= {};
    const into = target[key];
    if (isStruct(into)) fillZeroFields(into, value);
  }
}
