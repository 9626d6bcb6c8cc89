// OVERLAY: scheduling.k8s.io/v1alpha1 Workload (new in 1.35, KEP-4671), absent from the schema
// source (client-node 1.4.0 is generated from v1.34.0). Descriptions are upstream's.
// Upstream: staging/src/k8s.io/api/scheduling/v1alpha1/types.go, types_swagger_doc_generated.go.
import type { OpenApiSchema } from './schema.ts';

const p = 'io.k8s.api.scheduling.v1alpha1.';
const ref = (name: string, description: string): OpenApiSchema => ({ allOf: [{ $ref: `#/components/schemas/${name}` }], description });
const apiVersion: OpenApiSchema = {
  description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};
const kind: OpenApiSchema = {
  description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};
const gvk = (k: string): NonNullable<OpenApiSchema['x-kubernetes-group-version-kind']> => [{ group: 'scheduling.k8s.io', kind: k, version: 'v1alpha1' }];

export const workloadOverlayDefinitions: Readonly<Record<string, OpenApiSchema>> = {
  [`${p}BasicSchedulingPolicy`]: { description: 'BasicSchedulingPolicy indicates that standard Kubernetes scheduling behavior should be used.', type: 'object' },
  [`${p}GangSchedulingPolicy`]: {
    description: 'GangSchedulingPolicy defines the parameters for gang scheduling.',
    properties: {
      minCount: { default: 0, description: 'MinCount is the minimum number of pods that must be schedulable or scheduled at the same time for the scheduler to admit the entire group. It must be a positive integer.', format: 'int32', type: 'integer' },
    },
    required: ['minCount'],
    type: 'object',
  },
  [`${p}PodGroup`]: {
    description: 'PodGroup represents a set of pods with a common scheduling policy.',
    properties: {
      name: { default: '', description: 'Name is a unique identifier for the PodGroup within the Workload. It must be a DNS label. This field is immutable.', type: 'string' },
      policy: { ...ref(`${p}PodGroupPolicy`, 'Policy defines the scheduling policy for this PodGroup.'), default: {} },
    },
    required: ['name', 'policy'],
    type: 'object',
  },
  [`${p}PodGroupPolicy`]: {
    description: 'PodGroupPolicy defines the scheduling configuration for a PodGroup.',
    properties: {
      basic: ref(`${p}BasicSchedulingPolicy`, 'Basic specifies that the pods in this group should be scheduled using standard Kubernetes scheduling behavior.'),
      gang: ref(`${p}GangSchedulingPolicy`, 'Gang specifies that the pods in this group should be scheduled using all-or-nothing semantics.'),
    },
    type: 'object',
  },
  [`${p}TypedLocalObjectReference`]: {
    description: 'TypedLocalObjectReference allows to reference typed object inside the same namespace.',
    properties: {
      apiGroup: { description: 'APIGroup is the group for the resource being referenced. If APIGroup is empty, the specified Kind must be in the core API group. For any other third-party types, setting APIGroup is required. It must be a DNS subdomain.', type: 'string' },
      kind: { default: '', description: 'Kind is the type of resource being referenced. It must be a path segment name.', type: 'string' },
      name: { default: '', description: 'Name is the name of resource being referenced. It must be a path segment name.', type: 'string' },
    },
    required: ['kind', 'name'],
    type: 'object',
    'x-kubernetes-map-type': 'atomic',
  },
  [`${p}Workload`]: {
    description: 'Workload allows for expressing scheduling constraints that should be used when managing lifecycle of workloads from scheduling perspective, including scheduling, preemption, eviction and other phases.',
    properties: {
      apiVersion,
      kind,
      metadata: { ...ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', "Standard object's metadata."), default: {} },
      spec: { ...ref(`${p}WorkloadSpec`, 'Spec defines the desired behavior of a Workload.'), default: {} },
    },
    required: ['spec'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Workload'),
  },
  [`${p}WorkloadList`]: {
    description: 'WorkloadList contains a list of Workload resources.',
    properties: {
      apiVersion,
      items: { description: 'Items is the list of Workloads.', items: { allOf: [{ $ref: `#/components/schemas/${p}Workload` }], default: {} }, type: 'array' },
      kind,
      metadata: { ...ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', 'Standard list metadata.'), default: {} },
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('WorkloadList'),
  },
  [`${p}WorkloadSpec`]: {
    description: 'WorkloadSpec defines the desired state of a Workload.',
    properties: {
      controllerRef: ref(`${p}TypedLocalObjectReference`, 'ControllerRef is an optional reference to the controlling object, such as a Deployment or Job. This field is intended for use by tools like CLIs to provide a link back to the original workload definition. When set, it cannot be changed.'),
      podGroups: {
        description: 'PodGroups is the list of pod groups that make up the Workload. The maximum number of pod groups is 8. This field is immutable.',
        items: { allOf: [{ $ref: `#/components/schemas/${p}PodGroup` }], default: {} },
        type: 'array',
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
      },
    },
    required: ['podGroups'],
    type: 'object',
  },
};
