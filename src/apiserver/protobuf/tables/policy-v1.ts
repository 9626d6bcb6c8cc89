// Protobuf field tables for k8s.io.api.policy.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/policy/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const policyV1: ProtoPackage = {
  proto: 'policy.v1',
  group: 'policy',
  version: 'v1',
  kinds: [
    'Eviction', 'PodDisruptionBudget', 'PodDisruptionBudgetList',
  ],
  messages: {
    Eviction: '1:metadata:meta.v1.ObjectMeta 2:deleteOptions:meta.v1.DeleteOptions?',
    PodDisruptionBudget: '1:metadata:meta.v1.ObjectMeta 2:spec:PodDisruptionBudgetSpec 3:status:PodDisruptionBudgetStatus',
    PodDisruptionBudgetList: '1:metadata:meta.v1.ListMeta 2:items:PodDisruptionBudget*',
    PodDisruptionBudgetSpec: '1:minAvailable:@intstr? 2:selector:meta.v1.LabelSelector? 3:maxUnavailable:@intstr? 4:unhealthyPodEvictionPolicy:s?',
    PodDisruptionBudgetStatus: '1:observedGeneration:l 2:disruptedPods:{s:@time} 3:disruptionsAllowed:i 4:currentHealthy:i 5:desiredHealthy:i 6:expectedPods:i 7:conditions:meta.v1.Condition*',
  },
};
