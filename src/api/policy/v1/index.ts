// policy/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { podDisruptionBudgetDefinition } from './pod-disruption-budget.ts';

export const policyV1Definitions: ResourceDefinition[] = [
  podDisruptionBudgetDefinition as unknown as ResourceDefinition,
];
