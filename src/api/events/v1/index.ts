// events/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { eventsV1EventDefinition } from './event.ts';

export const eventsV1Definitions: ResourceDefinition[] = [
  eventsV1EventDefinition as unknown as ResourceDefinition,
];
