// apps/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { deploymentDefinition } from './deployment.ts';
import { replicaSetDefinition } from './replica-set.ts';

export const appsV1Definitions: ResourceDefinition[] = [
  deploymentDefinition as unknown as ResourceDefinition,
  replicaSetDefinition as unknown as ResourceDefinition,
];
