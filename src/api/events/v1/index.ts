// events/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';

export const eventsV1Definitions: ResourceDefinition[] = [
];
