// storage/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { storageClassDefinition } from './storage-class.ts';
import { csiDriverDefinition, csiNodeDefinition, csiStorageCapacityDefinition, volumeAttachmentDefinition, volumeAttributesClassDefinition } from './csi.ts';

export type { CSIDriver, CSINode, CSIStorageCapacity, VolumeAttachment, VolumeAttributesClass } from './csi.ts';

export const storageV1Definitions: ResourceDefinition[] = [
  storageClassDefinition as unknown as ResourceDefinition,
  csiDriverDefinition as unknown as ResourceDefinition,
  csiNodeDefinition as unknown as ResourceDefinition,
  csiStorageCapacityDefinition as unknown as ResourceDefinition,
  volumeAttachmentDefinition as unknown as ResourceDefinition,
  volumeAttributesClassDefinition as unknown as ResourceDefinition,
];
