// batch/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { jobDefinition } from './job.ts';

export const batchV1Definitions: ResourceDefinition[] = [
  jobDefinition as unknown as ResourceDefinition,
];
