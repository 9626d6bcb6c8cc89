// Protobuf field tables for k8s.io.api.autoscaling.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/autoscaling/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const autoscalingV1: ProtoPackage = {
  proto: 'autoscaling.v1',
  group: 'autoscaling',
  version: 'v1',
  kinds: [
    'HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList', 'Scale',
  ],
  messages: {
    ContainerResourceMetricSource: '1:name:s 2:targetAverageUtilization:i? 3:targetAverageValue:@quantity? 5:container:s',
    ContainerResourceMetricStatus: '1:name:s 2:currentAverageUtilization:i? 3:currentAverageValue:@quantity 4:container:s',
    CrossVersionObjectReference: '1:kind:s 2:name:s 3:apiVersion:s',
    ExternalMetricSource: '1:metricName:s 2:metricSelector:meta.v1.LabelSelector? 3:targetValue:@quantity? 4:targetAverageValue:@quantity?',
    ExternalMetricStatus: '1:metricName:s 2:metricSelector:meta.v1.LabelSelector? 3:currentValue:@quantity 4:currentAverageValue:@quantity?',
    HorizontalPodAutoscaler: '1:metadata:meta.v1.ObjectMeta 2:spec:HorizontalPodAutoscalerSpec 3:status:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerCondition: '1:type:s 2:status:s 3:lastTransitionTime:@time 4:reason:s 5:message:s',
    HorizontalPodAutoscalerList: '1:metadata:meta.v1.ListMeta 2:items:HorizontalPodAutoscaler*',
    HorizontalPodAutoscalerSpec: '1:scaleTargetRef:CrossVersionObjectReference 2:minReplicas:i? 3:maxReplicas:i 4:targetCPUUtilizationPercentage:i?',
    HorizontalPodAutoscalerStatus: '1:observedGeneration:l? 2:lastScaleTime:@time? 3:currentReplicas:i 4:desiredReplicas:i 5:currentCPUUtilizationPercentage:i?',
    MetricSpec: '1:type:s 2:object:ObjectMetricSource? 3:pods:PodsMetricSource? 4:resource:ResourceMetricSource? 7:containerResource:ContainerResourceMetricSource? 5:external:ExternalMetricSource?',
    MetricStatus: '1:type:s 2:object:ObjectMetricStatus? 3:pods:PodsMetricStatus? 4:resource:ResourceMetricStatus? 7:containerResource:ContainerResourceMetricStatus? 5:external:ExternalMetricStatus?',
    ObjectMetricSource: '1:target:CrossVersionObjectReference 2:metricName:s 3:targetValue:@quantity 4:selector:meta.v1.LabelSelector? 5:averageValue:@quantity?',
    ObjectMetricStatus: '1:target:CrossVersionObjectReference 2:metricName:s 3:currentValue:@quantity 4:selector:meta.v1.LabelSelector? 5:averageValue:@quantity?',
    PodsMetricSource: '1:metricName:s 2:targetAverageValue:@quantity 3:selector:meta.v1.LabelSelector?',
    PodsMetricStatus: '1:metricName:s 2:currentAverageValue:@quantity 3:selector:meta.v1.LabelSelector?',
    ResourceMetricSource: '1:name:s 2:targetAverageUtilization:i? 3:targetAverageValue:@quantity?',
    ResourceMetricStatus: '1:name:s 2:currentAverageUtilization:i? 3:currentAverageValue:@quantity',
    Scale: '1:metadata:meta.v1.ObjectMeta 2:spec:ScaleSpec 3:status:ScaleStatus',
    ScaleSpec: '1:replicas:i',
    ScaleStatus: '1:replicas:i 2:selector:s',
  },
};
