// Protobuf field tables for k8s.io.api.node.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/node/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const nodeV1: ProtoPackage = {
  proto: 'node.v1',
  group: 'node.k8s.io',
  version: 'v1',
  kinds: [
    'RuntimeClass', 'RuntimeClassList',
  ],
  messages: {
    Overhead: '1:podFixed:{s:@quantity}',
    RuntimeClass: '1:metadata:meta.v1.ObjectMeta 2:handler:s 3:overhead:Overhead? 4:scheduling:Scheduling?',
    RuntimeClassList: '1:metadata:meta.v1.ListMeta 2:items:RuntimeClass*',
    Scheduling: '1:nodeSelector:{s:s} 2:tolerations:core.v1.Toleration*',
  },
};
