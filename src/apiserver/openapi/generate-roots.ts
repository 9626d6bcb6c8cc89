// What the generator starts from: the served kinds (with their list kinds) in the order that assigns
// nested types to packages (core first, since every other group imports core/v1), and the apimachinery
// types the client-node models inline or do not name. Upstream: api/openapi-spec/v3/*.json.
import type { OpenApiSchema } from './schema.ts';

export interface RootKind {
  model: string;
  group: string;
  version: string;
  kind: string;
  /** apimachinery meta types: their GVKs are attached separately. */
  meta?: true;
}

const kinds = (group: string, model: string, kind: string, withList = true): RootKind[] => [
  { model, group, version: 'v1', kind },
  ...(withList ? [{ model: `${model}List`, group, version: 'v1', kind: `${kind}List` }] : []),
];

export const rootKinds: readonly RootKind[] = [
  { model: 'V1Status', group: '', version: 'v1', kind: 'Status', meta: true },
  { model: 'V1DeleteOptions', group: '', version: 'v1', kind: 'DeleteOptions', meta: true },
  { model: 'V1WatchEvent', group: '', version: 'v1', kind: 'WatchEvent', meta: true },
  { model: 'V1APIResourceList', group: '', version: 'v1', kind: 'APIResourceList', meta: true },
  ...kinds('', 'V1Namespace', 'Namespace'),
  ...kinds('', 'V1Pod', 'Pod'),
  ...kinds('', 'V1Node', 'Node'),
  ...kinds('', 'CoreV1Event', 'Event'),
  ...kinds('', 'V1ConfigMap', 'ConfigMap'),
  ...kinds('', 'V1Secret', 'Secret'),
  ...kinds('', 'V1Service', 'Service'),
  ...kinds('', 'V1ServiceAccount', 'ServiceAccount'),
  ...kinds('', 'V1PersistentVolume', 'PersistentVolume'),
  ...kinds('', 'V1PersistentVolumeClaim', 'PersistentVolumeClaim'),
  ...kinds('', 'V1Binding', 'Binding', false),
  ...kinds('', 'V1ComponentStatus', 'ComponentStatus'),
  ...kinds('', 'V1PodTemplate', 'PodTemplate'),
  ...kinds('', 'V1ReplicationController', 'ReplicationController'),
  ...kinds('', 'V1Endpoints', 'Endpoints'),
  ...kinds('', 'V1ResourceQuota', 'ResourceQuota'),
  ...kinds('', 'V1LimitRange', 'LimitRange'),
  ...kinds('discovery.k8s.io', 'V1EndpointSlice', 'EndpointSlice'),
  ...kinds('events.k8s.io', 'EventsV1Event', 'Event'),
  ...kinds('apps', 'V1Deployment', 'Deployment'),
  ...kinds('apps', 'V1ReplicaSet', 'ReplicaSet'),
  ...kinds('apps', 'V1DaemonSet', 'DaemonSet'),
  ...kinds('apps', 'V1ControllerRevision', 'ControllerRevision'),
  ...kinds('apps', 'V1StatefulSet', 'StatefulSet'),
  ...kinds('batch', 'V1Job', 'Job'),
  ...kinds('batch', 'V1CronJob', 'CronJob'),
  ...kinds('coordination.k8s.io', 'V1Lease', 'Lease'),
  ...kinds('storage.k8s.io', 'V1StorageClass', 'StorageClass'),
  ...kinds('storage.k8s.io', 'V1CSIDriver', 'CSIDriver'),
  ...kinds('storage.k8s.io', 'V1CSINode', 'CSINode'),
  ...kinds('storage.k8s.io', 'V1CSIStorageCapacity', 'CSIStorageCapacity'),
  ...kinds('storage.k8s.io', 'V1VolumeAttachment', 'VolumeAttachment'),
  ...kinds('storage.k8s.io', 'V1VolumeAttributesClass', 'VolumeAttributesClass'),
  ...kinds('scheduling.k8s.io', 'V1PriorityClass', 'PriorityClass'),
  ...kinds('node.k8s.io', 'V1RuntimeClass', 'RuntimeClass'),
  ...kinds('networking.k8s.io', 'V1Ingress', 'Ingress'),
  ...kinds('networking.k8s.io', 'V1IngressClass', 'IngressClass'),
  ...kinds('networking.k8s.io', 'V1ServiceCIDR', 'ServiceCIDR'),
  ...kinds('networking.k8s.io', 'V1IPAddress', 'IPAddress'),
  ...kinds('certificates.k8s.io', 'V1CertificateSigningRequest', 'CertificateSigningRequest'),
  ...kinds('flowcontrol.apiserver.k8s.io', 'V1FlowSchema', 'FlowSchema'),
  ...kinds('flowcontrol.apiserver.k8s.io', 'V1PriorityLevelConfiguration', 'PriorityLevelConfiguration'),
  ...kinds('networking.k8s.io', 'V1NetworkPolicy', 'NetworkPolicy'),
  ...kinds('policy', 'V1Eviction', 'Eviction', false),
  ...kinds('policy', 'V1PodDisruptionBudget', 'PodDisruptionBudget'),
  ...kinds('autoscaling', 'V1Scale', 'Scale', false),
  ...kinds('autoscaling', 'V1HorizontalPodAutoscaler', 'HorizontalPodAutoscaler'),
  { model: 'V2HorizontalPodAutoscaler', group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
  { model: 'V2HorizontalPodAutoscalerList', group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscalerList' },
  ...kinds('resource.k8s.io', 'V1DeviceClass', 'DeviceClass'),
  ...kinds('resource.k8s.io', 'V1ResourceSlice', 'ResourceSlice'),
  { model: 'ResourceV1ResourceClaim', group: 'resource.k8s.io', version: 'v1', kind: 'ResourceClaim' },
  { model: 'V1ResourceClaimList', group: 'resource.k8s.io', version: 'v1', kind: 'ResourceClaimList' },
  ...kinds('resource.k8s.io', 'V1ResourceClaimTemplate', 'ResourceClaimTemplate'),
  ...kinds('rbac.authorization.k8s.io', 'V1ClusterRoleBinding', 'ClusterRoleBinding'),
  ...kinds('rbac.authorization.k8s.io', 'V1ClusterRole', 'ClusterRole'),
  ...kinds('rbac.authorization.k8s.io', 'V1RoleBinding', 'RoleBinding'),
  ...kinds('rbac.authorization.k8s.io', 'V1Role', 'Role'),
  ...kinds('admissionregistration.k8s.io', 'V1MutatingWebhookConfiguration', 'MutatingWebhookConfiguration'),
  ...kinds('admissionregistration.k8s.io', 'V1ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicy'),
  ...kinds('admissionregistration.k8s.io', 'V1ValidatingAdmissionPolicyBinding', 'ValidatingAdmissionPolicyBinding'),
  ...kinds('admissionregistration.k8s.io', 'V1ValidatingWebhookConfiguration', 'ValidatingWebhookConfiguration'),
  ...kinds('apiregistration.k8s.io', 'V1APIService', 'APIService'),
  ...kinds('apiextensions.k8s.io', 'V1CustomResourceDefinition', 'CustomResourceDefinition'),
  ...kinds('authentication.k8s.io', 'V1SelfSubjectReview', 'SelfSubjectReview', false),
  ...kinds('authentication.k8s.io', 'V1TokenReview', 'TokenReview', false),
  ...kinds('authorization.k8s.io', 'V1SelfSubjectAccessReview', 'SelfSubjectAccessReview', false),
  ...kinds('authorization.k8s.io', 'V1SelfSubjectRulesReview', 'SelfSubjectRulesReview', false),
  ...kinds('authorization.k8s.io', 'V1SubjectAccessReview', 'SubjectAccessReview', false),
  ...kinds('authorization.k8s.io', 'V1LocalSubjectAccessReview', 'LocalSubjectAccessReview', false),
];

/** Go package of an API group's types: `resource.k8s.io` -> `resource`, `` -> `core`. */
export function packageOfGroup(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** Types of k8s.io/apimachinery/pkg/apis/meta/v1 that the served kinds reach. */
export const metaTypeNames: ReadonlySet<string> = new Set([
  'ObjectMeta', 'ListMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry',
  'Condition', 'Status', 'StatusDetails', 'StatusCause', 'DeleteOptions', 'Preconditions', 'WatchEvent',
  'APIResourceList', 'APIResource',
]);

/** core/v1 types that only other groups' kinds reach (so the walk would file them under that group). */
export const coreTypeNames: ReadonlySet<string> = new Set([
  'PodTemplateSpec', 'NodeSelector', 'NodeSelectorTerm', 'NodeSelectorRequirement', 'TopologySelectorTerm',
  'TopologySelectorLabelRequirement',
]);

const object = (description: string): OpenApiSchema => ({ description, type: 'object' });
const apiextensions = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

/** Definitions the models type as primitives or `any`; texts are upstream's doc comments (first paragraph). */
export const specialDefinitions: Readonly<Record<string, OpenApiSchema>> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    description:
      'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    description:
      'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': {
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    format: 'date-time',
    type: 'string',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': {
    description: 'MicroTime is version of Time with microsecond level precision.',
    format: 'date-time',
    type: 'string',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': object(
    'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.',
  ),
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': object(
    'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  ),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': object(
    'RawExtension is used to hold extensions in external versions.',
  ),
  // Untyped: each unmarshals whichever JSON shape it meets.
  [`${apiextensions}JSON`]: {
    description: 'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.',
  },
  [`${apiextensions}JSONSchemaPropsOrArray`]: {
    description: 'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.',
  },
  [`${apiextensions}JSONSchemaPropsOrBool`]: {
    description: 'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.',
  },
  [`${apiextensions}JSONSchemaPropsOrStringArray`]: {
    description: 'JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.',
  },
  [`${apiextensions}CustomResourceSubresourceStatus`]: object(
    'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza',
  ),
};
