// coordination/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { leaseDefinition } from './lease.ts';

export const coordinationV1Definitions: ResourceDefinition[] = [
  leaseDefinition as unknown as ResourceDefinition,
];
