// storage/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { storageClassDefinition } from './storage-class.ts';

export const storageV1Definitions: ResourceDefinition[] = [
  storageClassDefinition as unknown as ResourceDefinition,
];
