// Protobuf field tables for k8s.io.api.autoscaling.v2 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/autoscaling/v2/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const autoscalingV2: ProtoPackage = {
  proto: 'autoscaling.v2',
  group: 'autoscaling',
  version: 'v2',
  kinds: [
    'HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList',
  ],
  messages: {
    ContainerResourceMetricSource: '1:name:s 2:target:MetricTarget 3:container:s',
    ContainerResourceMetricStatus: '1:name:s 2:current:MetricValueStatus 3:container:s',
    CrossVersionObjectReference: '1:kind:s 2:name:s 3:apiVersion:s',
    ExternalMetricSource: '1:metric:MetricIdentifier 2:target:MetricTarget',
    ExternalMetricStatus: '1:metric:MetricIdentifier 2:current:MetricValueStatus',
    HPAScalingPolicy: '1:type:s 2:value:i 3:periodSeconds:i',
    HPAScalingRules: '3:stabilizationWindowSeconds:i? 1:selectPolicy:s? 2:policies:HPAScalingPolicy* 4:tolerance:@quantity?',
    HorizontalPodAutoscaler: '1:metadata:meta.v1.ObjectMeta 2:spec:HorizontalPodAutoscalerSpec 3:status:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerBehavior: '1:scaleUp:HPAScalingRules? 2:scaleDown:HPAScalingRules?',
    HorizontalPodAutoscalerCondition: '1:type:s 2:status:s 3:lastTransitionTime:@time 4:reason:s 5:message:s',
    HorizontalPodAutoscalerList: '1:metadata:meta.v1.ListMeta 2:items:HorizontalPodAutoscaler*',
    HorizontalPodAutoscalerSpec: '1:scaleTargetRef:CrossVersionObjectReference 2:minReplicas:i? 3:maxReplicas:i 4:metrics:MetricSpec* 5:behavior:HorizontalPodAutoscalerBehavior?',
    HorizontalPodAutoscalerStatus: '1:observedGeneration:l? 2:lastScaleTime:@time? 3:currentReplicas:i 4:desiredReplicas:i 5:currentMetrics:MetricStatus* 6:conditions:HorizontalPodAutoscalerCondition*',
    MetricIdentifier: '1:name:s 2:selector:meta.v1.LabelSelector?',
    MetricSpec: '1:type:s 2:object:ObjectMetricSource? 3:pods:PodsMetricSource? 4:resource:ResourceMetricSource? 7:containerResource:ContainerResourceMetricSource? 5:external:ExternalMetricSource?',
    MetricStatus: '1:type:s 2:object:ObjectMetricStatus? 3:pods:PodsMetricStatus? 4:resource:ResourceMetricStatus? 7:containerResource:ContainerResourceMetricStatus? 5:external:ExternalMetricStatus?',
    MetricTarget: '1:type:s 2:value:@quantity? 3:averageValue:@quantity? 4:averageUtilization:i?',
    MetricValueStatus: '1:value:@quantity? 2:averageValue:@quantity? 3:averageUtilization:i?',
    ObjectMetricSource: '1:describedObject:CrossVersionObjectReference 2:target:MetricTarget 3:metric:MetricIdentifier',
    ObjectMetricStatus: '1:metric:MetricIdentifier 2:current:MetricValueStatus 3:describedObject:CrossVersionObjectReference',
    PodsMetricSource: '1:metric:MetricIdentifier 2:target:MetricTarget',
    PodsMetricStatus: '1:metric:MetricIdentifier 2:current:MetricValueStatus',
    ResourceMetricSource: '1:name:s 2:target:MetricTarget',
    ResourceMetricStatus: '1:name:s 2:current:MetricValueStatus',
  },
};
