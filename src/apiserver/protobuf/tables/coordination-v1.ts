// Protobuf field tables for k8s.io.api.coordination.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/coordination/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const coordinationV1: ProtoPackage = {
  proto: 'coordination.v1',
  group: 'coordination.k8s.io',
  version: 'v1',
  kinds: [
    'Lease', 'LeaseList',
  ],
  messages: {
    Lease: '1:metadata:meta.v1.ObjectMeta 2:spec:LeaseSpec',
    LeaseList: '1:metadata:meta.v1.ListMeta 2:items:Lease*',
    LeaseSpec: '1:holderIdentity:s? 2:leaseDurationSeconds:i? 3:acquireTime:@microtime? 4:renewTime:@microtime? 5:leaseTransitions:i? 6:strategy:s? 7:preferredHolder:s?',
  },
};
