// apps/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { controllerRevisionDefinition } from './controller-revision.ts';
import { daemonSetDefinition } from './daemon-set.ts';
import { deploymentDefinition } from './deployment.ts';
import { replicaSetDefinition } from './replica-set.ts';
import { statefulSetDefinition } from './stateful-set.ts';

export const appsV1Definitions: ResourceDefinition[] = [
  controllerRevisionDefinition as unknown as ResourceDefinition,
  daemonSetDefinition as unknown as ResourceDefinition,
  deploymentDefinition as unknown as ResourceDefinition,
  replicaSetDefinition as unknown as ResourceDefinition,
  statefulSetDefinition as unknown as ResourceDefinition,
];
