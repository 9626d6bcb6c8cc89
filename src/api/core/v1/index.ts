// core/v1 (the legacy group ""): every kind's ResourceDefinition, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { podDefinition } from './pod/definition.ts';

export const coreV1Definitions: ResourceDefinition[] = [
  podDefinition as unknown as ResourceDefinition,
];
