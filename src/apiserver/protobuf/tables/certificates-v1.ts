// Protobuf field tables for k8s.io.api.certificates.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/certificates/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const certificatesV1: ProtoPackage = {
  proto: 'certificates.v1',
  group: 'certificates.k8s.io',
  version: 'v1',
  kinds: [
    'CertificateSigningRequest', 'CertificateSigningRequestList',
  ],
  messages: {
    CertificateSigningRequest: '1:metadata:meta.v1.ObjectMeta 2:spec:CertificateSigningRequestSpec 3:status:CertificateSigningRequestStatus',
    CertificateSigningRequestCondition: '1:type:s 6:status:s 2:reason:s 3:message:s 4:lastUpdateTime:@time 5:lastTransitionTime:@time',
    CertificateSigningRequestList: '1:metadata:meta.v1.ListMeta 2:items:CertificateSigningRequest*',
    CertificateSigningRequestSpec: '1:request:y? 7:signerName:s 8:expirationSeconds:i? 5:usages:s* 2:username:s 3:uid:s 4:groups:s* 6:extra:{s:@strings}',
    CertificateSigningRequestStatus: '1:conditions:CertificateSigningRequestCondition* 2:certificate:y?',
  },
};
