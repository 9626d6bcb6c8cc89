// The certificate admission plugins: approving a CSR takes the `approve` verb on its signer, issuing
// one the `sign` verb (signers/<signerName>, or signers/<domain>/*), and no one may ask the
// kube-apiserver-client signer for a system:masters certificate.
// Upstream: plugin/pkg/admission/certificates/{approval,signing,subjectrestriction}/admission.go,
// pkg/apis/certificates/helpers.go (IsAuthorizedForSignerName).
import type { CertificateSigningRequest, UserInfo } from '../api/index.ts';
import { parseCertificateRequest, requestPem } from '../api/index.ts';
import { forbidden } from '../core/index.ts';
import type { AdmissionPlugin } from './admission.ts';
import { onlyFor } from './admission.ts';
import { authorize } from './authorization.ts';
import type { ResourceStorage } from './resource-storage.ts';

const group = 'certificates.k8s.io';
const csrResource = { group, resource: 'certificatesigningrequests' };

/** IsAuthorizedForSignerName: the verb on the signer by name, or on every signer of its domain. */
async function mayUseSigner(storage: ResourceStorage, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  const check = async (name: string): Promise<boolean> => (await authorize(storage, user, { resourceRequest: true, verb, apiGroup: group, resource: 'signers', subresource: '', namespace: '', name })).allowed;
  if (await check(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && check(`${signerName.slice(0, slash)}/*`);
}

const isCSR = (attrs: { def: { group: string; resource: string } }): boolean => attrs.def.group === group && attrs.def.resource === 'certificatesigningrequests';

export const certificateAdmission: AdmissionPlugin = {
  name: 'CertificateApproval,CertificateSigning,CertificateSubjectRestriction',
  validate: onlyFor(isCSR, async (attrs) => {
    const csr = attrs.object as unknown as CertificateSigningRequest;
    const signerName = csr.spec?.signerName ?? '';
    const name = csr.metadata.name ?? '';
    if (attrs.operation === 'CREATE' && signerName === 'kubernetes.io/kube-apiserver-client') {
      const request = parseCertificateRequest(requestPem(csr));
      if (!('error' in request) && request.organizations.includes('system:masters')) {
        throw forbidden(csrResource, name, 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
      }
    }
    const user = attrs.ctx.user;
    if (attrs.operation !== 'UPDATE' || !user) return;
    if (attrs.ctx.subresource === 'approval' && !(await mayUseSigner(attrs.storage, user, 'approve', signerName))) {
      throw forbidden(csrResource, name, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    }
    const old = attrs.old as unknown as CertificateSigningRequest | undefined;
    const certificateChanged = (csr.status?.certificate ?? '') !== (old?.status?.certificate ?? '');
    if (attrs.ctx.subresource === 'status' && certificateChanged && !(await mayUseSigner(attrs.storage, user, 'sign', signerName))) {
      throw forbidden(csrResource, name, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    }
  }),
};
