// CertificateSigningRequest (certificates.k8s.io/v1): a PKCS#10 request a signer answers once it is
// approved. The requester's identity is the API server's to write; approval conditions go through
// the approval subresource, the certificate through status.
// Upstream: staging/src/k8s.io/api/certificates/v1/types.go, pkg/apis/certificates/v1/defaults.go,
// pkg/apis/certificates/validation/validation.go, pkg/apis/core/validation (ValidateSignerName),
// pkg/registry/certificates/certificates/strategy.go, printers.go (printCertificateSigningRequest).
import { FieldPath, duplicate, formatTime, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, StrategyContext, TablePrinter } from '../../resource.ts';
import { column, humanDuration, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { invalidGoValue } from '../../workload-template.ts';
import { parseCertificateRequest } from './pkcs10.ts';

export interface CertificateSigningRequestCondition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CertificateSigningRequestCondition[]; certificate?: string };
}

const allValidUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature', 'email protection', 'encipher only',
  'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
const trueOnly = new Set(['Approved', 'Denied', 'Failed']);

/** The PEM text behind spec.request (base64 on the wire). */
export function requestPem(csr: { spec?: { request?: string } }): string {
  return Buffer.from(csr.spec?.request ?? '', 'base64').toString('utf8');
}

/** Go's %#v of a []byte, which is how upstream prints a bad request. */
function goBytes(bytes: Buffer): string {
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
}

/** ValidateSignerName: `<domain>/<path>`, the domain of DNS labels with a dot, the path of subdomains. */
export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (!signerName) return [required(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalidValue(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain = '', rest = ''] = segments;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push({ type: 'FieldValueTooLong', field: String(path), badValue: domain, detail: 'must have at most 253 bytes', omitValue: true });
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    for (const p of problems) errs.push(invalidValue(path, domain, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  if (domainLabels.length < 2) errs.push(invalidValue(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length === 0) continue;
    for (const p of problems) errs.push(invalidValue(path, rest, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  return errs;
}

function validateConditions(conditions: readonly CertificateSigningRequestCondition[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const at = path.index(i);
    if (!c.type) errs.push(required(at.child('type'), ''));
    const allowed = trueOnly.has(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(required(at.child('status'), ''));
    else if (!allowed.includes(c.status)) errs.push(notSupported(at.child('status'), c.status, allowed));
    if (c.type === 'Approved') {
      approved = true;
      if (denied) errs.push(invalidValue(at.child('type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
    } else if (c.type === 'Denied') {
      denied = true;
      if (approved) errs.push(invalidValue(at.child('type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (seen.has(c.type)) errs.push(duplicate(at.child('type'), c.type));
    seen.add(c.type);
  });
  return errs;
}

/** validateCertificate: status.certificate is PEM CERTIFICATE blocks only. */
function certificateProblem(certificate: string | undefined): string | undefined {
  const pem = Buffer.from(certificate ?? '', 'base64').toString('utf8');
  if (!pem) return undefined;
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]);
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  const other = blocks.find((b) => b !== 'CERTIFICATE');
  return other ? `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(other)}` : undefined;
}

const spec = FieldPath.root('spec');
const status = FieldPath.root('status');

function validate(csr: CertificateSigningRequest, old: CertificateSigningRequest | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const parsed = parseCertificateRequest(requestPem(csr));
  const problem = 'error' in parsed ? parsed.error : parsed.signatureError;
  if (problem) errs.push(invalidGoValue(spec.child('request'), csr.spec.request ?? '', goBytes(Buffer.from(csr.spec.request ?? '', 'base64')), problem));
  const usages = csr.spec.usages ?? [];
  if (usages.length === 0) errs.push(required(spec.child('usages'), ''));
  usages.forEach((u, i) => {
    if (!allValidUsages.includes(u)) errs.push(notSupported(spec.child('usages').index(i), u, allValidUsages));
  });
  usages.forEach((u, i) => {
    if (usages.indexOf(u) < i) errs.push(duplicate(spec.child('usages').index(i), u));
  });
  const signerName = csr.spec.signerName ?? '';
  const legacyKept = old?.spec.signerName === 'kubernetes.io/legacy-unknown';
  if (signerName === 'kubernetes.io/legacy-unknown' && !legacyKept) errs.push(invalidValue(spec.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName(spec.child('signerName'), signerName));
  const seconds = csr.spec.expirationSeconds;
  if (seconds !== undefined && seconds < 600) errs.push(invalidValue(spec.child('expirationSeconds'), seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr.status?.conditions ?? [], status.child('conditions')));
  const unchanged = old !== undefined && (old.status?.certificate ?? '') === (csr.status?.certificate ?? '');
  const certificate = unchanged ? undefined : certificateProblem(csr.status?.certificate);
  if (certificate) errs.push({ ...invalidValue(status.child('certificate'), '<certificate data>', certificate) });
  return errs;
}

const ofType = (csr: CertificateSigningRequest, type: string): CertificateSigningRequestCondition[] => (csr.status?.conditions ?? []).filter((c) => c.type === type);

/** validateCertificateSigningRequestUpdate: which conditions and certificate an update may touch. */
function validateUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest, via: string | undefined): FieldError[] {
  const errs = validate(csr, old);
  const conditions = status.child('conditions');
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, type).length < ofType(old, type).length) errs.push(forbiddenField(conditions, `updates may not remove a condition of type ${JSON.stringify(type)}`));
  }
  if (via !== 'approval') {
    for (const type of ['Approved', 'Denied']) {
      const was = ofType(old, type);
      const now = ofType(csr, type);
      if (now.length > was.length) errs.push(forbiddenField(conditions, `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (now.length === was.length && JSON.stringify(now) !== JSON.stringify(was)) errs.push(forbiddenField(conditions, `updates may not modify a condition of type ${JSON.stringify(type)}`));
    }
  }
  if ((csr.status?.certificate ?? '') !== (old.status?.certificate ?? '')) {
    if (via !== 'status') errs.push(forbiddenField(status.child('certificate'), 'updates may not set certificate content'));
    else if (old.status?.certificate) errs.push(forbiddenField(status.child('certificate'), 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** populateConditionTimestamps: now for new ones; a kept type and status keeps its transition time. */
function stampConditions(csr: CertificateSigningRequest, old: CertificateSigningRequest, now: number): void {
  for (const c of csr.status?.conditions ?? []) {
    c.lastUpdateTime ??= formatTime(now);
    c.lastTransitionTime ??= old.status?.conditions?.find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime)?.lastTransitionTime ?? formatTime(now);
  }
}

/** extractCSRStatus: Denied over Approved over Pending, then Failed and Issued. */
function conditionCell(csr: CertificateSigningRequest): string {
  const has = (t: string): boolean => ofType(csr, t).length > 0;
  let text = has('Denied') ? 'Denied' : has('Approved') ? 'Approved' : 'Pending';
  if (has('Failed')) text += ',Failed';
  if (csr.status?.certificate) text += ',Issued';
  return text;
}

const csrTable: TablePrinter<CertificateSigningRequest> = {
  columns: [
    nameColumn,
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'),
    column('SignerName', 'string', 'signerName indicates the requested signer, and is a qualified name.'),
    column('Requestor', 'string', 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block. When serialized as JSON or YAML, the data is additionally base64-encoded.'),
    column('RequestedDuration', 'string', 'expirationSeconds is the requested duration of validity of the issued certificate.'),
    column('Condition', 'string', 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".'),
  ],
  cells: (csr, now) => [
    csr.metadata.name ?? '',
    translateTimestampSince(csr.metadata.creationTimestamp, now),
    csr.spec.signerName || '<none>',
    csr.spec.username ?? '',
    csr.spec.expirationSeconds !== undefined ? humanDuration(csr.spec.expirationSeconds * 1000) : '<none>',
    conditionCell(csr),
  ],
};

export const certificateSigningRequestDefinition: ResourceDefinition<CertificateSigningRequest> = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  subresources: [
    { name: 'approval', verbs: ['get', 'patch', 'update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  tracksGeneration: false,
  validateName: () => [],
  defaults(csr) {
    csr.spec ??= {};
    for (const c of csr.status?.conditions ?? []) if (!c.status) c.status = 'True';
  },
  prepareForCreate(csr, ctx: StrategyContext) {
    // The requester is who sent the request, whatever the body says.
    const { spec: s } = csr;
    delete s.username;
    delete s.uid;
    delete s.groups;
    delete s.extra;
    const user = ctx.user;
    if (user) {
      s.username = user.username;
      if (user.uid) s.uid = user.uid;
      if (user.groups?.length) s.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length) s.extra = structuredClone(user.extra) as Record<string, string[]>;
    }
    csr.status = {};
  },
  prepareForUpdate(csr, old, ctx) {
    csr.spec = old.spec;
    if (ctx.subresource === 'status' || ctx.subresource === 'approval') {
      const certificate = ctx.subresource === 'approval' ? old.status?.certificate : csr.status?.certificate;
      csr.status = { ...(csr.status?.conditions ? { conditions: csr.status.conditions } : {}), ...(certificate ? { certificate } : {}) };
      stampConditions(csr, old, ctx.now);
      return;
    }
    if (old.status) csr.status = old.status;
    else delete csr.status;
  },
  validateCreate: (csr) => validate(csr, undefined),
  validateUpdate: (csr, old, ctx) => validateUpdate(csr, old, ctx.subresource),
  validateStatusUpdate: (csr, old) => validateUpdate(csr, old, 'status'),
  table: csrTable,
  fieldLabels: {
    'spec.signerName': (csr) => csr.spec.signerName ?? '',
  },
};
