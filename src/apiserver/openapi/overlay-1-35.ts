// OVERLAY: fields Kubernetes 1.35 added to the served kinds that the schema source (client-node 1.4.0,
// generated from the v1.34.0 spec) lacks. Keep it small; drop an entry once the source ships it.
// Upstream: CHANGELOG-1.35.md (API Change) and staging/src/k8s.io/api/core/v1/types.go at release-1.35.
import type { OpenApiSchema } from './schema.ts';
import { workloadOverlayDefinitions } from './overlay-workload.ts';

const ref = (name: string, description: string): OpenApiSchema => ({
  allOf: [{ $ref: `#/components/schemas/${name}` }],
  description,
});

/** New definitions, by upstream name. */
export const overlayDefinitions: Readonly<Record<string, OpenApiSchema>> = {
  ...workloadOverlayDefinitions,
  'io.k8s.api.core.v1.WorkloadReference': {
    description:
      'WorkloadReference identifies the Workload object and PodGroup membership that a Pod belongs to. The scheduler uses this information to apply workload-aware scheduling semantics.',
    properties: {
      name: {
        default: '',
        description:
          "Name defines the name of the Workload object this Pod belongs to. Workload must be in the same namespace as the Pod. If it doesn't match any existing Workload, the Pod will remain unschedulable until a Workload object is created and observed by the kube-scheduler. It must be a DNS subdomain.",
        type: 'string',
      },
      podGroup: {
        default: '',
        description:
          "PodGroup is the name of the PodGroup within the Workload that this Pod belongs to. If it doesn't match any existing PodGroup within the Workload, the Pod will remain unschedulable until the Workload object is recreated and observed by the kube-scheduler. It must be a DNS label.",
        type: 'string',
      },
      podGroupReplicaKey: {
        description:
          'PodGroupReplicaKey specifies the replica key of the PodGroup to which this Pod belongs. It is used to distinguish pods belonging to different replicas of the same pod group. The pod group policy is applied separately to each replica. When set, it must be a DNS label.',
        type: 'string',
      },
    },
    required: ['name', 'podGroup'],
    type: 'object',
  },
};

/** New properties on existing definitions: definition name -> property -> schema. */
export const overlayProperties: Readonly<Record<string, Readonly<Record<string, OpenApiSchema>>>> = {
  'io.k8s.api.core.v1.PodSpec': {
    workloadRef: ref(
      'io.k8s.api.core.v1.WorkloadReference',
      'WorkloadRef provides a reference to the Workload object that this Pod belongs to. This field is used by the scheduler to identify the PodGroup and apply the correct group scheduling policies. The Workload object referenced by this field may not exist at the time the Pod is created. This field is immutable, but a Workload object with the same name may be recreated with different policies. Doing this during pod scheduling may result in the placement not conforming to the expected policies.',
    ),
  },
  'io.k8s.api.core.v1.NodeStatus': {
    declaredFeatures: {
      description:
        'DeclaredFeatures represents the features related to feature gates that are declared by the node.',
      items: { default: '', type: 'string' },
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
    },
  },
  'io.k8s.api.core.v1.PodCertificateProjection': {
    userAnnotations: {
      additionalProperties: { default: '', type: 'string' },
      description:
        'userAnnotations allow pod authors to pass additional information to the signer implementation. Kubernetes does not restrict or validate this metadata in any way.',
      type: 'object',
    },
  },
};
