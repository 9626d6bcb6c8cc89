// Protobuf field tables for k8s.io.api.admissionregistration.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/admissionregistration/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const admissionregistrationV1: ProtoPackage = {
  proto: 'admissionregistration.v1',
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kinds: [
    'MutatingWebhookConfiguration', 'MutatingWebhookConfigurationList', 'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding', 'ValidatingAdmissionPolicyBindingList',
    'ValidatingAdmissionPolicyList', 'ValidatingWebhookConfiguration', 'ValidatingWebhookConfigurationList',
  ],
  messages: {
    AuditAnnotation: '1:key:s 2:valueExpression:s',
    ExpressionWarning: '2:fieldRef:s 3:warning:s',
    MatchCondition: '1:name:s 2:expression:s',
    MatchResources: '1:namespaceSelector:meta.v1.LabelSelector? 2:objectSelector:meta.v1.LabelSelector? 3:resourceRules:NamedRuleWithOperations* 4:excludeResourceRules:NamedRuleWithOperations* 7:matchPolicy:s?',
    MutatingWebhook: '1:name:s 2:clientConfig:WebhookClientConfig 3:rules:RuleWithOperations* 4:failurePolicy:s? 9:matchPolicy:s? 5:namespaceSelector:meta.v1.LabelSelector? 11:objectSelector:meta.v1.LabelSelector? 6:sideEffects:s? 7:timeoutSeconds:i? 8:admissionReviewVersions:s* 10:reinvocationPolicy:s? 12:matchConditions:MatchCondition*',
    MutatingWebhookConfiguration: '1:metadata:meta.v1.ObjectMeta 2:webhooks:MutatingWebhook*',
    MutatingWebhookConfigurationList: '1:metadata:meta.v1.ListMeta 2:items:MutatingWebhookConfiguration*',
    NamedRuleWithOperations: '1:resourceNames:s* 2:...:RuleWithOperations',
    ParamKind: '1:apiVersion:s 2:kind:s',
    ParamRef: '1:name:s 2:namespace:s 3:selector:meta.v1.LabelSelector? 4:parameterNotFoundAction:s?',
    Rule: '1:apiGroups:s* 2:apiVersions:s* 3:resources:s* 4:scope:s?',
    RuleWithOperations: '1:operations:s* 2:...:Rule',
    ServiceReference: '1:namespace:s 2:name:s 3:path:s? 4:port:i?',
    TypeChecking: '1:expressionWarnings:ExpressionWarning*',
    ValidatingAdmissionPolicy: '1:metadata:meta.v1.ObjectMeta 2:spec:ValidatingAdmissionPolicySpec 3:status:ValidatingAdmissionPolicyStatus',
    ValidatingAdmissionPolicyBinding: '1:metadata:meta.v1.ObjectMeta 2:spec:ValidatingAdmissionPolicyBindingSpec',
    ValidatingAdmissionPolicyBindingList: '1:metadata:meta.v1.ListMeta 2:items:ValidatingAdmissionPolicyBinding*',
    ValidatingAdmissionPolicyBindingSpec: '1:policyName:s 2:paramRef:ParamRef? 3:matchResources:MatchResources? 4:validationActions:s*',
    ValidatingAdmissionPolicyList: '1:metadata:meta.v1.ListMeta 2:items:ValidatingAdmissionPolicy*',
    ValidatingAdmissionPolicySpec: '1:paramKind:ParamKind? 2:matchConstraints:MatchResources? 3:validations:Validation* 4:failurePolicy:s? 5:auditAnnotations:AuditAnnotation* 6:matchConditions:MatchCondition* 7:variables:Variable*',
    ValidatingAdmissionPolicyStatus: '1:observedGeneration:l 2:typeChecking:TypeChecking? 3:conditions:meta.v1.Condition*',
    ValidatingWebhook: '1:name:s 2:clientConfig:WebhookClientConfig 3:rules:RuleWithOperations* 4:failurePolicy:s? 9:matchPolicy:s? 5:namespaceSelector:meta.v1.LabelSelector? 10:objectSelector:meta.v1.LabelSelector? 6:sideEffects:s? 7:timeoutSeconds:i? 8:admissionReviewVersions:s* 11:matchConditions:MatchCondition*',
    ValidatingWebhookConfiguration: '1:metadata:meta.v1.ObjectMeta 2:webhooks:ValidatingWebhook*',
    ValidatingWebhookConfigurationList: '1:metadata:meta.v1.ListMeta 2:items:ValidatingWebhookConfiguration*',
    Validation: '1:expression:s 2:message:s 3:reason:s? 4:messageExpression:s',
    Variable: '1:name:s 2:expression:s',
    WebhookClientConfig: '3:url:s? 1:service:ServiceReference? 2:caBundle:y?',
  },
};
