// scheduling/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { priorityClassDefinition } from './priority-class.ts';

export const schedulingV1Definitions: ResourceDefinition[] = [
  priorityClassDefinition as unknown as ResourceDefinition,
];
