// The CustomResourceDefinitions every Drydock cluster starts with, as their projects publish them
// (trimmed to the fields the baseline uses): the VerticalPodAutoscaler and Volcano's PodGroup.
// Upstream: kubernetes/autoscaler vertical-pod-autoscaler/deploy/vpa-v1-crd-gen.yaml,
// volcano-sh/volcano config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml.
import type { KubeObject } from '../core/index.ts';

type Schema = Record<string, unknown>;

const quantity: Schema = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};
const resourceList: Schema = { type: 'object', additionalProperties: quantity, description: 'ResourceList is a set of (resource name, quantity) pairs.' };
const condition = (what: string): Schema => ({
  type: 'object',
  description: `${what} describes the state of a ${what.replace(/Condition$/, '')} at a certain point.`,
  required: ['status', 'type'],
  properties: {
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'lastTransitionTime is the last time the condition transitioned from one status to another' },
    message: { type: 'string', description: 'message is a human-readable explanation containing details about the transition' },
    reason: { type: 'string', description: "reason is the reason for the condition's last transition." },
    status: { type: 'string', description: 'status is the status of the condition (True, False, Unknown)' },
    type: { type: 'string', description: 'type describes the current condition' },
  },
});

const vpaSchema: Schema = {
  type: 'object',
  description: 'VerticalPodAutoscaler is the configuration for a vertical pod autoscaler, which automatically manages pod resources based on historical and real time resource utilization.',
  required: ['spec'],
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      description: 'Specification of the behavior of the autoscaler. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.',
      required: ['targetRef'],
      properties: {
        targetRef: {
          type: 'object',
          description: 'TargetRef points to the controller managing the set of pods for the autoscaler to control - e.g. Deployment, StatefulSet.',
          required: ['kind', 'name'],
          properties: {
            apiVersion: { type: 'string', description: 'apiVersion is the API version of the referent' },
            kind: { type: 'string', description: 'kind is the kind of the referent; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' },
            name: { type: 'string', description: 'name is the name of the referent; More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names' },
          },
          'x-kubernetes-map-type': 'atomic',
        },
        updatePolicy: {
          type: 'object',
          description: 'Describes the rules on how changes are applied to the pods. If not specified, all fields in the `PodUpdatePolicy` are set to their default values.',
          properties: {
            minReplicas: { type: 'integer', format: 'int32', description: 'Minimal number of replicas which need to be alive for Updater to attempt pod eviction (pending other checks like PDB).' },
            updateMode: {
              type: 'string',
              description: 'Controls when autoscaler applies changes to the pod resources. The default is \'Recreate\'.',
              enum: ['Off', 'Initial', 'Recreate', 'InPlaceOrRecreate', 'Auto'],
            },
          },
        },
        resourcePolicy: {
          type: 'object',
          description: 'Controls how the autoscaler computes recommended resources.',
          properties: {
            containerPolicies: {
              type: 'array',
              description: 'Per-container resource policies.',
              items: {
                type: 'object',
                description: 'ContainerResourcePolicy controls how autoscaler computes the recommended resources for a specific container.',
                properties: {
                  containerName: { type: 'string', description: "Name of the container or DefaultContainerResourcePolicy, in which case the policy is used by the containers that don't have their own policy specified." },
                  controlledResources: { type: 'array', description: 'Specifies the type of recommendations that will be computed (and possibly applied) by VPA. If not specified, the default of [ResourceCPU, ResourceMemory] will be used.', items: { type: 'string' } },
                  controlledValues: { type: 'string', description: 'Specifies which resource values should be controlled. The default is "RequestsAndLimits".', enum: ['RequestsAndLimits', 'RequestsOnly'] },
                  maxAllowed: { ...resourceList, description: 'Specifies the maximum amount of resources that will be recommended for the container. The default is no maximum.' },
                  minAllowed: { ...resourceList, description: 'Specifies the minimal amount of resources that will be recommended for the container. The default is no minimum.' },
                  mode: { type: 'string', description: 'Whether autoscaler is enabled for the container. The default is "Auto".', enum: ['Auto', 'Off'] },
                },
              },
            },
          },
        },
        recommenders: {
          type: 'array',
          description: 'Recommender responsible for generating recommendation for this object. List should be empty (then the default recommender will generate the recommendation) or contain exactly one recommender.',
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'Name of the recommender responsible for generating recommendation for this object.' } } },
        },
      },
    },
    status: {
      type: 'object',
      description: 'Current information about the autoscaler.',
      properties: {
        conditions: { type: 'array', description: 'Conditions is the set of conditions required for this autoscaler to scale its target, and indicates whether or not those conditions are met.', items: condition('VerticalPodAutoscalerCondition') },
        recommendation: {
          type: 'object',
          description: 'The most recently computed amount of resources recommended by the autoscaler for the controlled pods.',
          properties: {
            containerRecommendations: {
              type: 'array',
              description: 'Resources recommended by the autoscaler for each container.',
              items: {
                type: 'object',
                description: 'RecommendedContainerResources is the recommendation of resources computed by autoscaler for a specific container.',
                required: ['target'],
                properties: {
                  containerName: { type: 'string', description: 'Name of the container.' },
                  lowerBound: { ...resourceList, description: 'Minimum recommended amount of resources. Observes ContainerResourcePolicy.' },
                  target: { ...resourceList, description: 'Recommended amount of resources. Observes ContainerResourcePolicy.' },
                  uncappedTarget: { ...resourceList, description: 'The most recent recommended resources target computed by the autoscaler for the controlled pods, based only on actual resource usage, not taking into account the ContainerResourcePolicy.' },
                  upperBound: { ...resourceList, description: 'Maximum recommended amount of resources. Observes ContainerResourcePolicy.' },
                },
              },
            },
          },
        },
      },
    },
  },
};

const podGroupSchema: Schema = {
  type: 'object',
  description: 'PodGroup is a collection of Pod; used for batch workload.',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      description: 'Specification of the desired behavior of the pod group.',
      properties: {
        minMember: { type: 'integer', format: 'int32', description: 'MinMember defines the minimal number of members/tasks to run the pod group; if there\'s not enough resources to start all tasks, the scheduler will not start anyone.' },
        minResources: { ...resourceList, description: 'MinResources defines the minimal resource of members/tasks to run the pod group; if there\'s not enough resources to start all tasks, the scheduler will not start anyone.' },
        minTaskMember: { type: 'object', additionalProperties: { type: 'integer', format: 'int32' }, description: 'MinTaskMember defines the minimal number of pods to run each task in the pod group; if there\'s not enough resources to start each task, the scheduler will not start anyone.' },
        priorityClassName: { type: 'string', description: 'If specified, indicates the PodGroup\'s priority.' },
        queue: { type: 'string', description: 'Queue defines the queue to allocate resource for PodGroup; if queue does not exist, the PodGroup will not be scheduled. Defaults to `default` Queue with the lowest weight.', default: 'default' },
      },
    },
    status: {
      type: 'object',
      description: 'Status represents the current information about a pod group.',
      properties: {
        conditions: { type: 'array', description: 'The conditions of PodGroup.', items: condition('PodGroupCondition') },
        failed: { type: 'integer', format: 'int32', description: 'The number of pods which reached phase Failed.' },
        phase: { type: 'string', description: 'Current phase of PodGroup.' },
        running: { type: 'integer', format: 'int32', description: 'The number of actively running pods.' },
        succeeded: { type: 'integer', format: 'int32', description: 'The number of pods which reached phase Succeeded.' },
      },
    },
  },
};

function crd(name: string, spec: Record<string, unknown>, annotations: Record<string, string>): KubeObject {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name, annotations }, spec } as KubeObject;
}

export function preinstalledCrds(): KubeObject[] {
  return [
    crd('verticalpodautoscalers.autoscaling.k8s.io', {
      group: 'autoscaling.k8s.io',
      names: { kind: 'VerticalPodAutoscaler', listKind: 'VerticalPodAutoscalerList', plural: 'verticalpodautoscalers', shortNames: ['vpa'], singular: 'verticalpodautoscaler' },
      scope: 'Namespaced',
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: vpaSchema },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Mode', type: 'string', jsonPath: '.spec.updatePolicy.updateMode' },
          { name: 'CPU', type: 'string', jsonPath: '.status.recommendation.containerRecommendations[0].target.cpu' },
          { name: 'Mem', type: 'string', jsonPath: '.status.recommendation.containerRecommendations[0].target.memory' },
          { name: 'Provided', type: 'string', jsonPath: ".status.conditions[?(@.type=='RecommendationProvided')].status" },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      }],
    }, { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/63797', 'controller-gen.kubebuilder.io/version': 'v0.16.5' }),
    crd('podgroups.scheduling.volcano.sh', {
      group: 'scheduling.volcano.sh',
      names: { kind: 'PodGroup', listKind: 'PodGroupList', plural: 'podgroups', shortNames: ['pg', 'podgroup-v1beta1'], singular: 'podgroup' },
      scope: 'Namespaced',
      versions: [{
        name: 'v1beta1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: podGroupSchema },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'STATUS', type: 'string', jsonPath: '.status.phase' },
          { name: 'minMember', type: 'integer', jsonPath: '.spec.minMember' },
          { name: 'RUNNINGS', type: 'integer', jsonPath: '.status.running' },
          { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          { name: 'QUEUE', type: 'string', priority: 1, jsonPath: '.spec.queue' },
        ],
      }],
    }, { 'controller-gen.kubebuilder.io/version': 'v0.17.0' }),
  ];
}
