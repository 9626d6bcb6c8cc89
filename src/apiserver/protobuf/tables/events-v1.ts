// Protobuf field tables for k8s.io.api.events.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/events/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const eventsV1: ProtoPackage = {
  proto: 'events.v1',
  group: 'events.k8s.io',
  version: 'v1',
  kinds: [
    'Event', 'EventList',
  ],
  messages: {
    Event: '1:metadata:meta.v1.ObjectMeta 2:eventTime:@microtime 3:series:EventSeries? 4:reportingController:s 5:reportingInstance:s 6:action:s 7:reason:s 8:regarding:core.v1.ObjectReference 9:related:core.v1.ObjectReference? 10:note:s 11:type:s 12:deprecatedSource:core.v1.EventSource 13:deprecatedFirstTimestamp:@time 14:deprecatedLastTimestamp:@time 15:deprecatedCount:i',
    EventList: '1:metadata:meta.v1.ListMeta 2:items:Event*',
    EventSeries: '1:count:i 2:lastObservedTime:@microtime',
  },
};
