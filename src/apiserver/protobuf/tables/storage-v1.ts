// Protobuf field tables for k8s.io.api.storage.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/storage/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const storageV1: ProtoPackage = {
  proto: 'storage.v1',
  group: 'storage.k8s.io',
  version: 'v1',
  kinds: [
    'CSIDriver', 'CSIDriverList', 'CSINode', 'CSINodeList', 'CSIStorageCapacity', 'CSIStorageCapacityList',
    'StorageClass', 'StorageClassList', 'VolumeAttachment', 'VolumeAttachmentList',
  ],
  messages: {
    CSIDriver: '1:metadata:meta.v1.ObjectMeta 2:spec:CSIDriverSpec',
    CSIDriverList: '1:metadata:meta.v1.ListMeta 2:items:CSIDriver*',
    CSIDriverSpec: '1:attachRequired:b? 2:podInfoOnMount:b? 3:volumeLifecycleModes:s* 4:storageCapacity:b? 5:fsGroupPolicy:s? 6:tokenRequests:TokenRequest* 7:requiresRepublish:b? 8:seLinuxMount:b? 9:nodeAllocatableUpdatePeriodSeconds:l?',
    CSINode: '1:metadata:meta.v1.ObjectMeta 2:spec:CSINodeSpec',
    CSINodeDriver: '1:name:s 2:nodeID:s 3:topologyKeys:s* 4:allocatable:VolumeNodeResources?',
    CSINodeList: '1:metadata:meta.v1.ListMeta 2:items:CSINode*',
    CSINodeSpec: '1:drivers:CSINodeDriver*',
    CSIStorageCapacity: '1:metadata:meta.v1.ObjectMeta 2:nodeTopology:meta.v1.LabelSelector? 3:storageClassName:s 4:capacity:@quantity? 5:maximumVolumeSize:@quantity?',
    CSIStorageCapacityList: '1:metadata:meta.v1.ListMeta 2:items:CSIStorageCapacity*',
    StorageClass: '1:metadata:meta.v1.ObjectMeta 2:provisioner:s 3:parameters:{s:s} 4:reclaimPolicy:s? 5:mountOptions:s* 6:allowVolumeExpansion:b? 7:volumeBindingMode:s? 8:allowedTopologies:core.v1.TopologySelectorTerm*',
    StorageClassList: '1:metadata:meta.v1.ListMeta 2:items:StorageClass*',
    TokenRequest: '1:audience:s 2:expirationSeconds:l?',
    VolumeAttachment: '1:metadata:meta.v1.ObjectMeta 2:spec:VolumeAttachmentSpec 3:status:VolumeAttachmentStatus',
    VolumeAttachmentList: '1:metadata:meta.v1.ListMeta 2:items:VolumeAttachment*',
    VolumeAttachmentSource: '1:persistentVolumeName:s? 2:inlineVolumeSpec:core.v1.PersistentVolumeSpec?',
    VolumeAttachmentSpec: '1:attacher:s 2:source:VolumeAttachmentSource 3:nodeName:s',
    VolumeAttachmentStatus: '1:attached:b 2:attachmentMetadata:{s:s} 3:attachError:VolumeError? 4:detachError:VolumeError?',
    VolumeError: '1:time:@time 2:message:s 3:errorCode:i?',
    VolumeNodeResources: '1:count:i?',
  },
};
