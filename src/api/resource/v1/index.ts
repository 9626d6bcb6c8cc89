// resource/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { deviceClassDefinition } from './device-class.ts';
import { resourceClaimDefinition, resourceClaimTemplateDefinition } from './resource-claim.ts';
import { resourceSliceDefinition } from './resource-slice.ts';

export const resourceV1Definitions: ResourceDefinition[] = [
  deviceClassDefinition as unknown as ResourceDefinition,
  resourceClaimDefinition as unknown as ResourceDefinition,
  resourceClaimTemplateDefinition as unknown as ResourceDefinition,
  resourceSliceDefinition as unknown as ResourceDefinition,
];
