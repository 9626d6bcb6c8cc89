// scheduling/v1alpha1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { workloadDefinition } from './workload.ts';

export const schedulingV1alpha1Definitions: ResourceDefinition[] = [
  workloadDefinition as unknown as ResourceDefinition,
];
