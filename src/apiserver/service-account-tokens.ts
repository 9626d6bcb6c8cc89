// Service account tokens: the `serviceaccounts/<name>/token` subresource (`kubectl create token`)
// issues a JWT signed with the server's key (ES256), and the authenticator takes such a token back
// as the account's identity while the token is current and the account (and any object it is bound
// to) still exists with the same uid.
// Upstream: pkg/registry/core/serviceaccount/storage/token.go, pkg/serviceaccount/{claims,jwt}.go.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { ResourceDefinition, TokenAuthentication, TokenRequest, UserInfo } from '../api/index.ts';
import { defaultTokenRequest, serviceAccountUser, serviceAccountUsername, validateTokenRequest } from '../api/index.ts';
import type { Clock, KubeObject, Random } from '../core/index.ts';
import { ApiError, badRequest, formatTime, invalid, invalidValue } from '../core/index.ts';
import type { ResourceStorage, WriteContext, WriteResult } from './resource-storage.ts';
import { storedObject } from './stored-object.ts';

/** The issuer and default audience of kube-apiserver's tokens (--service-account-issuer, --api-audiences). */
export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

interface Bound {
  name: string;
  uid: string;
}

interface ServiceAccountClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  nbf: number;
  sub: string;
  'kubernetes.io': { namespace: string; serviceaccount: Bound; pod?: Bound; secret?: Bound; node?: Bound };
}

/** A new ECDSA P-256 signing key, PKCS#8 PEM (kept with the cluster's identity under --data-dir). */
export function createServiceAccountKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export class ServiceAccountTokens {
  readonly #private: KeyObject;
  readonly #public: KeyObject;
  readonly #header: string;

  constructor(keyPem: string) {
    this.#private = createPrivateKey(keyPem);
    this.#public = createPublicKey(this.#private);
    // The key id, as upstream derives it: the SHA-256 of the public key's DER, base64url.
    const kid = base64url(createHash('sha256').update(this.#public.export({ type: 'spki', format: 'der' })).digest());
    this.#header = base64url(JSON.stringify({ alg: 'ES256', kid }));
  }

  issue(claims: ServiceAccountClaims): string {
    const signed = `${this.#header}.${base64url(JSON.stringify(claims))}`;
    return `${signed}.${base64url(sign('sha256', Buffer.from(signed), { key: this.#private, dsaEncoding: 'ieee-p1363' }))}`;
  }

  /** The claims of a token this key signed, else undefined; expiry and existence are the caller's. */
  claims(token: string): ServiceAccountClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== this.#header) return undefined;
    const [, payload = '', signature = ''] = parts;
    const ok = verify('sha256', Buffer.from(`${parts[0]}.${payload}`), { key: this.#public, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
    if (!ok) return undefined;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ServiceAccountClaims;
    } catch {
      return undefined;
    }
  }
}

export interface TokenDeps {
  storage: ResourceStorage;
  clock: Clock;
  random: Random;
  tokens: ServiceAccountTokens;
}

const tokenRequestKind = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

async function getObject(storage: ResourceStorage, resource: string, namespace: string, name: string): Promise<KubeObject> {
  const def = storage.findDefinition('', 'v1', resource) as ResourceDefinition;
  return storedObject(await storage.get(def, namespace, name));
}

const boundKinds = { Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;
type BoundKind = keyof typeof boundKinds;
const claimOf = { Pod: 'pod', Secret: 'secret', Node: 'node' } as const;

/** The bound object's claims: the object itself, and for a pod the node it runs on (1.32+). */
async function boundClaims(storage: ResourceStorage, namespace: string, account: string, ref: NonNullable<NonNullable<TokenRequest['spec']>['boundObjectRef']>): Promise<Pick<ServiceAccountClaims['kubernetes.io'], 'pod' | 'secret' | 'node'>> {
  const kind = ref.apiVersion === 'v1' && ref.kind !== undefined && ref.kind in boundKinds ? (ref.kind as BoundKind) : undefined;
  if (!kind) {
    const groupVersion = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion : `/${ref.apiVersion ?? ''}`;
    throw badRequest(`cannot bind token to object of type ${groupVersion}, Kind=${ref.kind ?? ''}`);
  }
  const target = await getObject(storage, boundKinds[kind], kind === 'Node' ? '' : namespace, ref.name ?? '');
  const spec = (target as { spec?: { serviceAccountName?: string; nodeName?: string } }).spec;
  if (kind === 'Pod' && spec?.serviceAccountName !== account) throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(account)} to pod running with serviceaccount ${JSON.stringify(spec?.serviceAccountName ?? '')}`);
  const uid = target.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw new ApiError('Conflict', `Operation cannot be fulfilled on ${kind} ${JSON.stringify(ref.name ?? '')}: the UID in the bound object reference (${ref.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`, { name: ref.name ?? '', kind });
  }
  const claims: Pick<ServiceAccountClaims['kubernetes.io'], 'pod' | 'secret' | 'node'> = { [claimOf[kind]]: { name: ref.name ?? '', uid } };
  if (kind === 'Pod' && spec?.nodeName) {
    const node = await getObject(storage, 'nodes', '', spec.nodeName).catch(() => undefined);
    if (node) claims.node = { name: spec.nodeName, uid: node.metadata.uid ?? '' };
  }
  return claims;
}

/**
 * POST serviceaccounts/<name>/token: a TokenRequest answered with a token; nothing is stored.
 * TokenREST.Create behind the create handler: the TokenRequest is admitted as a CREATE of
 * serviceaccounts/token (`def`), mutating admission first, validating once the request is defaulted
 * and validated, before any bound object is read.
 */
export async function requestServiceAccountToken(deps: TokenDeps, namespace: string, name: string, body: KubeObject, admission: { def: ResourceDefinition; ctx: WriteContext }): Promise<WriteResult> {
  const request = body as TokenRequest;
  request.metadata ??= {};
  // The create handler's EnsureObjectNamespaceMatchesRequestNamespace: admission sees the request's namespace.
  if (!request.metadata.namespace) request.metadata.namespace = namespace;
  await deps.storage.admitCreate('mutate', admission.def, name, request, admission.ctx);
  // TokenREST.Create: a name in the body is the service account's.
  if (request.metadata.name && request.metadata.name !== name) {
    throw invalid(tokenRequestKind, name, [invalidValue('metadata.name', request.metadata.name, 'must match the service account name if specified')]);
  }
  defaultTokenRequest(request);
  // The account is looked up before the request is validated, as TokenREST.Create does.
  const account = await getObject(deps.storage, 'serviceaccounts', namespace, name);
  // TokenREST fills the name before its validation and the validating admission.
  request.metadata.name = name;
  const errors = validateTokenRequest(request);
  if (errors.length > 0) throw invalid(tokenRequestKind, '', errors);
  await deps.storage.admitCreate('validate', admission.def, name, request, admission.ctx);
  const spec = request.spec ?? {};
  const ref = spec.boundObjectRef;
  const bound = ref ? await boundClaims(deps.storage, namespace, name, ref) : {};
  const audiences = spec.audiences?.length ? spec.audiences : [serviceAccountIssuer];
  const now = Math.floor(deps.clock.now() / 1000);
  const expires = now + (spec.expirationSeconds ?? 3600);
  // In the order upstream's tokens list their claims (go-jose merges them as a sorted map).
  const token = deps.tokens.issue({
    aud: audiences,
    exp: expires,
    iat: now,
    iss: serviceAccountIssuer,
    jti: deps.random.uuid(),
    'kubernetes.io': { namespace, ...(bound.node ? { node: bound.node } : {}), ...(bound.pod ? { pod: bound.pod } : {}), ...(bound.secret ? { secret: bound.secret } : {}), serviceaccount: { name, uid: account.metadata.uid ?? '' } },
    nbf: now,
    sub: serviceAccountUsername(namespace, name),
  });
  const answer: TokenRequest = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...request.metadata, name, namespace },
    spec: { audiences, expirationSeconds: spec.expirationSeconds ?? 3600, boundObjectRef: ref ?? null },
    status: { token, expirationTimestamp: formatTime(expires * 1000) },
  };
  return { kind: 'dry-run', object: answer };
}

/** The audiences the API server itself answers to (--api-audiences, by default the issuer). */
export const apiAudiences: readonly string[] = [serviceAccountIssuer];

/** Go's %q of a []string: `["a" "b"]`. */
const quotedList = (list: readonly string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

const invalidated = 'service account token has been invalidated';

/**
 * Authenticates a bearer token this server issued for `audiences`, as upstream's service account JWT
 * authenticator does: undefined when the token is not one of ours, else the account's identity or
 * the reason it no longer holds (expired, another audience, the account or bound object gone).
 */
export async function reviewServiceAccountToken(deps: TokenDeps, token: string, audiences: readonly string[]): Promise<TokenAuthentication | undefined> {
  const claims = deps.tokens.claims(token);
  if (!claims || claims.iss !== serviceAccountIssuer) return undefined;
  const fail = (error: string): TokenAuthentication => ({ authenticated: false, error });
  const tokenAudiences = claims.aud?.length ? claims.aud : apiAudiences;
  const valid = tokenAudiences.filter((a) => audiences.includes(a));
  if (valid.length === 0) return fail(`token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(audiences)}`);
  const now = deps.clock.now();
  // go-jose's default leeway: a minute either way.
  if ((claims.exp + 60) * 1000 < now) return fail('service account token has expired');
  if ((claims.nbf - 60) * 1000 > now) return fail('service account token is not valid yet');
  const k8s = claims['kubernetes.io'];
  const live = (resource: string, name: string): Promise<KubeObject | undefined> => deps.storage.lookup('', 'v1', resource, resource === 'nodes' ? '' : k8s.namespace, name);
  // Deleted (awaiting finalizers) for longer than the leeway counts as gone.
  const deleted = (obj: KubeObject): boolean => obj.metadata.deletionTimestamp !== undefined && Date.parse(obj.metadata.deletionTimestamp) < now - 60_000;
  const serviceAccount = await live('serviceaccounts', k8s.serviceaccount.name);
  if (!serviceAccount) return fail(`serviceaccounts ${JSON.stringify(k8s.serviceaccount.name)} not found`);
  if (deleted(serviceAccount)) return fail(`service account ${k8s.namespace}/${k8s.serviceaccount.name} has been deleted`);
  if (serviceAccount.metadata.uid !== k8s.serviceaccount.uid) return fail(`service account UID (${serviceAccount.metadata.uid ?? ''}) does not match claim (${k8s.serviceaccount.uid})`);
  const bound: [resource: string, what: string, ref: Bound | undefined][] = [['secrets', 'secret', k8s.secret], ['pods', 'pod', k8s.pod], ['nodes', 'node', k8s.pod ? undefined : k8s.node]];
  for (const [resource, what, ref] of bound) {
    if (!ref) continue;
    const obj = await live(resource, ref.name);
    if (!obj || deleted(obj)) return fail(invalidated);
    if (obj.metadata.uid !== ref.uid) return fail(`${what} UID (${obj.metadata.uid ?? ''}) does not match service account ${what} ref claim (${ref.uid})`);
  }
  const account = { namespace: k8s.namespace, name: k8s.serviceaccount.name, uid: k8s.serviceaccount.uid };
  return { authenticated: true, user: serviceAccountUser(account, claims.jti, { pod: k8s.pod, node: k8s.node }), audiences: valid };
}

/** The identity of a bearer token this server issued, when it is valid against the API server. */
export async function authenticateServiceAccountToken(deps: TokenDeps, token: string): Promise<UserInfo | undefined> {
  const result = await reviewServiceAccountToken(deps, token, apiAudiences);
  return result?.authenticated ? result.user : undefined;
}
