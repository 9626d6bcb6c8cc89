// Protobuf field tables for k8s.io.api.flowcontrol.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/flowcontrol/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const flowcontrolV1: ProtoPackage = {
  proto: 'flowcontrol.v1',
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kinds: [
    'FlowSchema', 'FlowSchemaList', 'PriorityLevelConfiguration', 'PriorityLevelConfigurationList',
  ],
  messages: {
    ExemptPriorityLevelConfiguration: '1:nominalConcurrencyShares:i? 2:lendablePercent:i?',
    FlowDistinguisherMethod: '1:type:s',
    FlowSchema: '1:metadata:meta.v1.ObjectMeta 2:spec:FlowSchemaSpec 3:status:FlowSchemaStatus',
    FlowSchemaCondition: '1:type:s 2:status:s 3:lastTransitionTime:@time 4:reason:s 5:message:s',
    FlowSchemaList: '1:metadata:meta.v1.ListMeta 2:items:FlowSchema*',
    FlowSchemaSpec: '1:priorityLevelConfiguration:PriorityLevelConfigurationReference 2:matchingPrecedence:i 3:distinguisherMethod:FlowDistinguisherMethod? 4:rules:PolicyRulesWithSubjects*',
    FlowSchemaStatus: '1:conditions:FlowSchemaCondition*',
    GroupSubject: '1:name:s',
    LimitResponse: '1:type:s 2:queuing:QueuingConfiguration?',
    LimitedPriorityLevelConfiguration: '1:nominalConcurrencyShares:i? 2:limitResponse:LimitResponse 3:lendablePercent:i? 4:borrowingLimitPercent:i?',
    NonResourcePolicyRule: '1:verbs:s* 6:nonResourceURLs:s*',
    PolicyRulesWithSubjects: '1:subjects:Subject* 2:resourceRules:ResourcePolicyRule* 3:nonResourceRules:NonResourcePolicyRule*',
    PriorityLevelConfiguration: '1:metadata:meta.v1.ObjectMeta 2:spec:PriorityLevelConfigurationSpec 3:status:PriorityLevelConfigurationStatus',
    PriorityLevelConfigurationCondition: '1:type:s 2:status:s 3:lastTransitionTime:@time 4:reason:s 5:message:s',
    PriorityLevelConfigurationList: '1:metadata:meta.v1.ListMeta 2:items:PriorityLevelConfiguration*',
    PriorityLevelConfigurationReference: '1:name:s',
    PriorityLevelConfigurationSpec: '1:type:s 2:limited:LimitedPriorityLevelConfiguration? 3:exempt:ExemptPriorityLevelConfiguration?',
    PriorityLevelConfigurationStatus: '1:conditions:PriorityLevelConfigurationCondition*',
    QueuingConfiguration: '1:queues:i 2:handSize:i 3:queueLengthLimit:i',
    ResourcePolicyRule: '1:verbs:s* 2:apiGroups:s* 3:resources:s* 4:clusterScope:b 5:namespaces:s*',
    ServiceAccountSubject: '1:namespace:s 2:name:s',
    Subject: '1:kind:s 2:user:UserSubject? 3:group:GroupSubject? 4:serviceAccount:ServiceAccountSubject?',
    UserSubject: '1:name:s',
  },
};
