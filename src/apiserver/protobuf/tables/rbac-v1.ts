// Protobuf field tables for k8s.io.api.rbac.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/rbac/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const rbacV1: ProtoPackage = {
  proto: 'rbac.v1',
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kinds: [
    'ClusterRole', 'ClusterRoleBinding', 'ClusterRoleBindingList', 'ClusterRoleList', 'Role', 'RoleBinding',
    'RoleBindingList', 'RoleList',
  ],
  messages: {
    AggregationRule: '1:clusterRoleSelectors:meta.v1.LabelSelector*',
    ClusterRole: '1:metadata:meta.v1.ObjectMeta 2:rules:PolicyRule* 3:aggregationRule:AggregationRule?',
    ClusterRoleBinding: '1:metadata:meta.v1.ObjectMeta 2:subjects:Subject* 3:roleRef:RoleRef',
    ClusterRoleBindingList: '1:metadata:meta.v1.ListMeta 2:items:ClusterRoleBinding*',
    ClusterRoleList: '1:metadata:meta.v1.ListMeta 2:items:ClusterRole*',
    PolicyRule: '1:verbs:s* 2:apiGroups:s* 3:resources:s* 4:resourceNames:s* 5:nonResourceURLs:s*',
    Role: '1:metadata:meta.v1.ObjectMeta 2:rules:PolicyRule*',
    RoleBinding: '1:metadata:meta.v1.ObjectMeta 2:subjects:Subject* 3:roleRef:RoleRef',
    RoleBindingList: '1:metadata:meta.v1.ListMeta 2:items:RoleBinding*',
    RoleList: '1:metadata:meta.v1.ListMeta 2:items:Role*',
    RoleRef: '1:apiGroup:s 2:kind:s 3:name:s',
    Subject: '1:kind:s 2:apiGroup:s 3:name:s 4:namespace:s',
  },
};
