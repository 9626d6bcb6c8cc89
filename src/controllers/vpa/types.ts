// VerticalPodAutoscaler (autoscaling.k8s.io/v1) as the VPA components read and write it: the CRD
// Drydock pre-installs. Only the fields the recommender, admission and updater act on.
// Upstream: vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1/types.go.
import type { Condition, DeepReadonly, KubeObject, ObjectMeta } from '../../core/index.ts';

export type UpdateMode = 'Off' | 'Initial' | 'Recreate' | 'InPlaceOrRecreate' | 'Auto';
export type ResourceList = Record<string, string>;

export interface ContainerResourcePolicy {
  containerName?: string;
  mode?: 'Auto' | 'Off';
  minAllowed?: ResourceList;
  maxAllowed?: ResourceList;
  controlledResources?: string[];
  controlledValues?: 'RequestsAndLimits' | 'RequestsOnly';
}

export interface RecommendedContainerResources {
  containerName: string;
  target: ResourceList;
  lowerBound?: ResourceList;
  upperBound?: ResourceList;
  uncappedTarget?: ResourceList;
}

export interface VerticalPodAutoscaler extends KubeObject {
  apiVersion?: 'autoscaling.k8s.io/v1';
  kind?: 'VerticalPodAutoscaler';
  metadata: ObjectMeta;
  spec: {
    targetRef: { apiVersion?: string; kind: string; name: string };
    updatePolicy?: { updateMode?: UpdateMode; minReplicas?: number };
    resourcePolicy?: { containerPolicies?: ContainerResourcePolicy[] };
    recommenders?: { name: string }[];
  };
  status?: {
    recommendation?: { containerRecommendations?: RecommendedContainerResources[] };
    conditions?: Condition[];
  };
}

export const vpaRef = Object.freeze({ group: 'autoscaling.k8s.io', version: 'v1', resource: 'verticalpodautoscalers' });

/** `Auto` is deprecated and means Recreate; the default is Recreate. */
export function updateModeOf(vpa: DeepReadonly<{ spec: VerticalPodAutoscaler['spec'] }>): Exclude<UpdateMode, 'Auto'> {
  const mode = vpa.spec.updatePolicy?.updateMode ?? 'Recreate';
  return mode === 'Auto' ? 'Recreate' : mode;
}

/** The policy for one container: its own, else the `*` default. */
export function containerPolicy(vpa: DeepReadonly<{ spec: VerticalPodAutoscaler['spec'] }>, container: string): DeepReadonly<ContainerResourcePolicy> | undefined {
  const policies = vpa.spec.resourcePolicy?.containerPolicies ?? [];
  return policies.find((p) => p.containerName === container) ?? policies.find((p) => p.containerName === '*');
}

export function controlledResources(policy: DeepReadonly<ContainerResourcePolicy> | undefined): readonly string[] {
  return policy?.controlledResources ?? ['cpu', 'memory'];
}
