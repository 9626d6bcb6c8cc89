// Protobuf field tables for k8s.io.api.authorization.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/authorization/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const authorizationV1: ProtoPackage = {
  proto: 'authorization.v1',
  group: 'authorization.k8s.io',
  version: 'v1',
  kinds: [
    'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview',
  ],
  messages: {
    FieldSelectorAttributes: '1:rawSelector:s 2:requirements:meta.v1.FieldSelectorRequirement*',
    LabelSelectorAttributes: '1:rawSelector:s 2:requirements:meta.v1.LabelSelectorRequirement*',
    LocalSubjectAccessReview: '1:metadata:meta.v1.ObjectMeta 2:spec:SubjectAccessReviewSpec 3:status:SubjectAccessReviewStatus',
    NonResourceAttributes: '1:path:s 2:verb:s',
    NonResourceRule: '1:verbs:s* 2:nonResourceURLs:s*',
    ResourceAttributes: '1:namespace:s 2:verb:s 3:group:s 4:version:s 5:resource:s 6:subresource:s 7:name:s 8:fieldSelector:FieldSelectorAttributes? 9:labelSelector:LabelSelectorAttributes?',
    ResourceRule: '1:verbs:s* 2:apiGroups:s* 3:resources:s* 4:resourceNames:s*',
    SelfSubjectAccessReview: '1:metadata:meta.v1.ObjectMeta 2:spec:SelfSubjectAccessReviewSpec 3:status:SubjectAccessReviewStatus',
    SelfSubjectAccessReviewSpec: '1:resourceAttributes:ResourceAttributes? 2:nonResourceAttributes:NonResourceAttributes?',
    SelfSubjectRulesReview: '1:metadata:meta.v1.ObjectMeta 2:spec:SelfSubjectRulesReviewSpec 3:status:SubjectRulesReviewStatus',
    SelfSubjectRulesReviewSpec: '1:namespace:s',
    SubjectAccessReview: '1:metadata:meta.v1.ObjectMeta 2:spec:SubjectAccessReviewSpec 3:status:SubjectAccessReviewStatus',
    SubjectAccessReviewSpec: '1:resourceAttributes:ResourceAttributes? 2:nonResourceAttributes:NonResourceAttributes? 3:user:s 4:groups:s* 5:extra:{s:@strings} 6:uid:s',
    SubjectAccessReviewStatus: '1:allowed:b 4:denied:b 2:reason:s 3:evaluationError:s',
    SubjectRulesReviewStatus: '1:resourceRules:ResourceRule* 2:nonResourceRules:NonResourceRule* 3:incomplete:b 4:evaluationError:s',
  },
};
