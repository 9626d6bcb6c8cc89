// Protobuf field tables for k8s.io.api.authentication.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/authentication/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const authenticationV1: ProtoPackage = {
  proto: 'authentication.v1',
  group: 'authentication.k8s.io',
  version: 'v1',
  kinds: [
    'SelfSubjectReview', 'TokenRequest', 'TokenReview',
  ],
  messages: {
    BoundObjectReference: '1:kind:s 2:apiVersion:s 3:name:s 4:uid:s',
    SelfSubjectReview: '1:metadata:meta.v1.ObjectMeta 2:status:SelfSubjectReviewStatus',
    SelfSubjectReviewStatus: '1:userInfo:UserInfo',
    TokenRequest: '1:metadata:meta.v1.ObjectMeta 2:spec:TokenRequestSpec 3:status:TokenRequestStatus',
    TokenRequestSpec: '1:audiences:s* 4:expirationSeconds:l? 3:boundObjectRef:BoundObjectReference?',
    TokenRequestStatus: '1:token:s 2:expirationTimestamp:@time',
    TokenReview: '1:metadata:meta.v1.ObjectMeta 2:spec:TokenReviewSpec 3:status:TokenReviewStatus',
    TokenReviewSpec: '1:token:s 2:audiences:s*',
    TokenReviewStatus: '1:authenticated:b 2:user:UserInfo 4:audiences:s* 3:error:s',
    UserInfo: '1:username:s 2:uid:s 3:groups:s* 4:extra:{s:@strings}',
  },
};
