// Protobuf field tables for k8s.io.api.scheduling.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/scheduling/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const schedulingV1: ProtoPackage = {
  proto: 'scheduling.v1',
  group: 'scheduling.k8s.io',
  version: 'v1',
  kinds: [
    'PriorityClass', 'PriorityClassList',
  ],
  messages: {
    PriorityClass: '1:metadata:meta.v1.ObjectMeta 2:value:i 3:globalDefault:b 4:description:s 5:preemptionPolicy:s?',
    PriorityClassList: '1:metadata:meta.v1.ListMeta 2:items:PriorityClass*',
  },
};
