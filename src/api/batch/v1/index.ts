// batch/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { cronJobDefinition } from './cron-job.ts';
import { jobDefinition } from './job.ts';

export const batchV1Definitions: ResourceDefinition[] = [
  cronJobDefinition as unknown as ResourceDefinition,
  jobDefinition as unknown as ResourceDefinition,
];
