// The csrsigning controller: issues approved requests for the kubernetes.io signers it recognizes
// (API server clients, kubelet clients, kubelet serving), or marks them Failed
// (SignerValidationFailure) when the request does not fit the signer. Certificates last the requested
// expirationSeconds, at most --cluster-signing-duration.
// Upstream: pkg/controller/certificates/signer/signer.go, pkg/apis/certificates/v1/helpers.go
// (ValidateKubeletClientCSR, ValidateKubeletServingCSR).
import { parseCertificateRequest, refs, requestPem } from '../../api/index.ts';
import type { CertificateRequest, CertificateSigningRequest } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { Clock, Random } from '../../core/index.ts';
import { copyJson, formatTime, isApiError, lookupTable } from '../../core/index.ts';
import { issueCertificate } from './authority.ts';
import type { SigningAuthority } from './authority.ts';

/** --cluster-signing-duration's default: a year. */
export const clusterSigningDurationMs = 365 * 24 * 3_600_000;

export interface CertificateSignerOptions {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  authority: SigningAuthority;
  informers?: SharedInformers;
}

const apiServerClientUsages = new Set(['digital signature', 'key encipherment', 'client auth']);

/** validAPIServerClientUsages: client auth, with digital signature and key encipherment allowed. */
function apiServerClientProblem(usages: readonly string[]): string | undefined {
  const bad = usages.find((u) => !apiServerClientUsages.has(u));
  if (bad) return `invalid usage for client certificate: ${bad}`;
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

const sameUsages = (usages: readonly string[], ...allowed: string[][]): boolean => {
  const set = [...new Set(usages)].sort().join(',');
  return allowed.some((a) => [...a].sort().join(',') === set);
};

/** ValidateKubeletClientCSR. */
function kubeletClientProblem(request: CertificateRequest, usages: readonly string[]): string | undefined {
  if (request.organizations.length !== 1 || request.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (request.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (request.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (request.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (request.uris.length) return 'URI subjectAltNames are not allowed';
  if (!request.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameUsages(usages, ['digital signature', 'key encipherment', 'client auth'], ['digital signature', 'client auth'])) return 'usages did not match [client auth digital signature key encipherment]';
  return undefined;
}

/** ValidateKubeletServingCSR: a node's serving certificate, for its DNS names or addresses. */
function kubeletServingProblem(request: CertificateRequest, usages: readonly string[]): string | undefined {
  if (request.organizations.length !== 1 || request.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (request.dnsNames.length === 0 && request.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (request.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (request.uris.length) return 'URI subjectAltNames are not allowed';
  if (!sameUsages(usages, ['digital signature', 'key encipherment', 'server auth'], ['digital signature', 'server auth'])) return 'usages did not match [digital signature key encipherment server auth]';
  if (!request.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** What each recognized signer says of a request: a problem, or undefined to sign. */
const signers: Readonly<Record<string, (request: CertificateRequest, usages: readonly string[]) => string | undefined>> = lookupTable({
  'kubernetes.io/kube-apiserver-client': (_request, usages) => apiServerClientProblem(usages),
  'kubernetes.io/kube-apiserver-client-kubelet': kubeletClientProblem,
  'kubernetes.io/kubelet-serving': kubeletServingProblem,
});

const hasTrue = (csr: CertificateSigningRequest, type: string): boolean => (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

export class CertificateSigner {
  readonly #o: CertificateSignerOptions;
  readonly #requests: Informer<CertificateSigningRequest>;
  readonly #queue: WorkQueue<string>;

  constructor(options: CertificateSignerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#requests = informerFor<CertificateSigningRequest>(options.informers, { client, ref: refs.certificateSigningRequests, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    const enqueue = (csr: CertificateSigningRequest): void => this.#queue.add(csr.metadata.name ?? '');
    this.#requests.addHandlers({ onAdd: enqueue, onUpdate: (_old, csr) => enqueue(csr) });
  }

  start(): void {
    runWhenSynced([this.#requests], this.#queue, 1, (name) => this.#sync(name), this.#o.log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#requests.stop();
  }

  async #sync(name: string): Promise<void> {
    const csr = this.#requests.getByName(undefined, name);
    if (!csr || csr.status?.certificate || !hasTrue(csr, 'Approved') || hasTrue(csr, 'Failed')) return;
    const judge = signers[csr.spec.signerName ?? ''];
    if (!judge) return;
    const request = parseCertificateRequest(requestPem(csr));
    if ('error' in request) throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${request.error}`);
    const next = copyJson(csr) as CertificateSigningRequest;
    const now = this.#o.clock.now();
    const problem = judge(request, csr.spec.usages ?? []);
    if (problem) {
      next.status = { ...next.status, conditions: [...(next.status?.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: formatTime(now) }] };
    } else {
      const requested = csr.spec.expirationSeconds;
      const ttl = requested === undefined ? clusterSigningDurationMs : Math.min(requested * 1000, clusterSigningDurationMs);
      const pem = issueCertificate(this.#o.authority, request, csr.spec.usages ?? [], ttl, now, Buffer.from(this.#o.random.hex(32), 'hex'));
      next.status = { ...next.status, certificate: Buffer.from(pem).toString('base64') };
    }
    try {
      await this.#o.client.updateStatus(refs.certificateSigningRequests, next);
    } catch (error) {
      if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(name);
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
