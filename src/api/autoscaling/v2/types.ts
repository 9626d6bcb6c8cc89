// autoscaling/v2 HorizontalPodAutoscaler wire types and the upstream names of its enums,
// condition types and behaviour defaults.
// Upstream: staging/src/k8s.io/api/autoscaling/v2/types.go, pkg/apis/autoscaling/v2/defaults.go.
import type { KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export type MetricTargetType = 'Utilization' | 'Value' | 'AverageValue';

/** Quantities stay in their wire (string) form; the controller parses them once per sync. */
export interface MetricTarget {
  type: MetricTargetType;
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricIdentifier {
  name: string;
  selector?: LabelSelector;
}

export interface ResourceMetricSource {
  name: string;
  target: MetricTarget;
}

export interface ContainerResourceMetricSource {
  name: string;
  container: string;
  target: MetricTarget;
}

export interface PodsMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface ObjectMetricSource {
  describedObject: CrossVersionObjectReference;
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface ExternalMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export type MetricSourceType = 'Object' | 'Pods' | 'Resource' | 'ContainerResource' | 'External';
export const metricSourceTypes: readonly MetricSourceType[] = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

export interface MetricSpec {
  type: MetricSourceType;
  object?: ObjectMetricSource;
  pods?: PodsMetricSource;
  resource?: ResourceMetricSource;
  containerResource?: ContainerResourceMetricSource;
  external?: ExternalMetricSource;
}

export type HPAScalingPolicyType = 'Pods' | 'Percent';
export type ScalingPolicySelect = 'Max' | 'Min' | 'Disabled';

export interface HPAScalingPolicy {
  type: HPAScalingPolicyType;
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: ScalingPolicySelect;
  policies?: HPAScalingPolicy[];
  tolerance?: string;
}

export interface HorizontalPodAutoscalerBehavior {
  scaleUp?: HPAScalingRules;
  scaleDown?: HPAScalingRules;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface MetricValueStatus {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricStatus {
  type: MetricSourceType;
  object?: { describedObject: CrossVersionObjectReference; metric: MetricIdentifier; current: MetricValueStatus };
  pods?: { metric: MetricIdentifier; current: MetricValueStatus };
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; container: string; current: MetricValueStatus };
  external?: { metric: MetricIdentifier; current: MetricValueStatus };
}

export type HorizontalPodAutoscalerConditionType = 'ScalingActive' | 'AbleToScale' | 'ScalingLimited';

export interface HorizontalPodAutoscalerCondition {
  type: HorizontalPodAutoscalerConditionType;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  /** Without omitempty: null until the controller reads metrics. */
  currentMetrics?: MetricStatus[] | null;
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler extends KubeObject {
  apiVersion?: 'autoscaling/v2';
  kind?: 'HorizontalPodAutoscaler';
  metadata: ObjectMeta;
  spec: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}

/** autoscaling.DefaultCPUUtilization: the target when an HPA lists no metrics. */
export const defaultCPUUtilization = 80;

/** defaultHPAScaleUpRules: the pre-behaviour scale-up limit, max(4 pods, 100%) per 15 s, no window. */
export function defaultScaleUpRules(): HPAScalingRules {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** defaultHPAScaleDownRules: 100% per 15 s; the window stays unset so the controller's 300 s applies. */
export function defaultScaleDownRules(): HPAScalingRules {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}
