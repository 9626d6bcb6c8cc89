// Protobuf field tables for k8s.io.api.discovery.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/discovery/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const discoveryV1: ProtoPackage = {
  proto: 'discovery.v1',
  group: 'discovery.k8s.io',
  version: 'v1',
  kinds: [
    'EndpointSlice', 'EndpointSliceList',
  ],
  messages: {
    Endpoint: '1:addresses:s* 2:conditions:EndpointConditions 3:hostname:s? 4:targetRef:core.v1.ObjectReference? 5:deprecatedTopology:{s:s} 6:nodeName:s? 7:zone:s? 8:hints:EndpointHints?',
    EndpointConditions: '1:ready:b? 2:serving:b? 3:terminating:b?',
    EndpointHints: '1:forZones:ForZone* 2:forNodes:ForNode*',
    EndpointPort: '1:name:s? 2:protocol:s? 3:port:i? 4:appProtocol:s?',
    EndpointSlice: '1:metadata:meta.v1.ObjectMeta 4:addressType:s 2:endpoints:Endpoint* 3:ports:EndpointPort*',
    EndpointSliceList: '1:metadata:meta.v1.ListMeta 2:items:EndpointSlice*',
    ForNode: '1:name:s',
    ForZone: '1:name:s',
  },
};
