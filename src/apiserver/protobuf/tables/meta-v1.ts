// Protobuf field tables for k8s.io.apimachinery.pkg.apis.meta.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const metaV1: ProtoPackage = {
  proto: 'meta.v1',
  messages: {
    Condition: '1:type:s 2:status:s 3:observedGeneration:l 4:lastTransitionTime:@time 5:reason:s 6:message:s',
    CreateOptions: '1:dryRun:s* 3:fieldManager:s 4:fieldValidation:s',
    DeleteOptions: '1:gracePeriodSeconds:l? 2:preconditions:Preconditions? 3:orphanDependents:b? 4:propagationPolicy:s? 5:dryRun:s* 6:ignoreStoreReadErrorWithClusterBreakingPotential:b?',
    FieldSelectorRequirement: '1:key:s 2:operator:s 3:values:s*',
    GetOptions: '1:resourceVersion:s',
    GroupKind: '1:group:s 2:kind:s',
    GroupResource: '1:group:s 2:resource:s',
    GroupVersion: '1:group:s 2:version:s',
    GroupVersionKind: '1:group:s 2:version:s 3:kind:s',
    GroupVersionResource: '1:group:s 2:version:s 3:resource:s',
    LabelSelector: '1:matchLabels:{s:s} 2:matchExpressions:LabelSelectorRequirement*',
    LabelSelectorRequirement: '1:key:s 2:operator:s 3:values:s*',
    ListMeta: '1:selfLink:s 2:resourceVersion:s 3:continue:s 4:remainingItemCount:l?',
    ListOptions: '1:labelSelector:s 2:fieldSelector:s 3:watch:b 9:allowWatchBookmarks:b 4:resourceVersion:s 10:resourceVersionMatch:s 5:timeoutSeconds:l? 7:limit:l 8:continue:s 11:sendInitialEvents:b?',
    ManagedFieldsEntry: '1:manager:s 2:operation:s 3:apiVersion:s 4:time:@time? 6:fieldsType:s 7:fieldsV1:@raw? 8:subresource:s',
    ObjectMeta: '1:name:s 2:generateName:s 3:namespace:s 4:selfLink:s 5:uid:s 6:resourceVersion:s 7:generation:l 8:creationTimestamp:@time 9:deletionTimestamp:@time? 10:deletionGracePeriodSeconds:l? 11:labels:{s:s} 12:annotations:{s:s} 13:ownerReferences:OwnerReference* 14:finalizers:s* 17:managedFields:ManagedFieldsEntry*',
    OwnerReference: '5:apiVersion:s 1:kind:s 3:name:s 4:uid:s 6:controller:b? 7:blockOwnerDeletion:b?',
    PatchOptions: '1:dryRun:s* 2:force:b? 3:fieldManager:s 4:fieldValidation:s',
    Preconditions: '1:uid:s? 2:resourceVersion:s?',
    Status: '1:metadata:ListMeta 2:status:s 3:message:s 4:reason:s 5:details:StatusDetails? 6:code:i',
    StatusCause: '1:reason:s 2:message:s 3:field:s',
    StatusDetails: '1:name:s 2:group:s 3:kind:s 6:uid:s 4:causes:StatusCause* 5:retryAfterSeconds:i',
    TypeMeta: '1:kind:s 2:apiVersion:s',
    UpdateOptions: '1:dryRun:s* 2:fieldManager:s 3:fieldValidation:s',
  },
};
