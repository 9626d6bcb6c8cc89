// certificates.k8s.io/v1: certificate signing requests.
import type { ResourceDefinition } from '../../resource.ts';
import { certificateSigningRequestDefinition } from './certificate-signing-request.ts';

export type { CertificateSigningRequest, CertificateSigningRequestCondition } from './certificate-signing-request.ts';
export { requestPem } from './certificate-signing-request.ts';
export { parseCertificateRequest } from './pkcs10.ts';
export type { CertificateRequest } from './pkcs10.ts';

export const certificatesV1Definitions: ResourceDefinition[] = [certificateSigningRequestDefinition as unknown as ResourceDefinition];
