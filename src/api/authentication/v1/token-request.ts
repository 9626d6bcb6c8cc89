// TokenRequest (authentication.k8s.io/v1), the body of `serviceaccounts/<name>/token` (`kubectl
// create token`): its defaults, validation with upstream's messages, and the identity a service
// account token carries.
// Upstream: staging/src/k8s.io/api/authentication/v1/types.go, pkg/apis/authentication/v1/defaults.go,
// pkg/apis/authentication/validation/validation.go, staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go.
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import { invalidValue } from '../../../core/index.ts';
import type { UserInfo } from './self-subject-review.ts';

export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequest extends KubeObject {
  metadata: ObjectMeta;
  spec?: { audiences?: string[] | null; expirationSeconds?: number; boundObjectRef?: BoundObjectReference | null };
  status?: { token: string; expirationTimestamp: string };
}

const minExpirationSeconds = 10 * 60;
const maxExpirationSeconds = 2 ** 32;

/** An hour, as SetDefaults_TokenRequestSpec; audiences stay for the server to fill with its own. */
export function defaultTokenRequest(request: TokenRequest): void {
  const spec = (request.spec ??= {});
  spec.expirationSeconds ??= 3600;
}

export function validateTokenRequest(request: TokenRequest): FieldError[] {
  const seconds = request.spec?.expirationSeconds ?? 0;
  const errors: FieldError[] = [];
  if (seconds < minExpirationSeconds) errors.push(invalidValue('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > maxExpirationSeconds) errors.push(invalidValue('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds'));
  return errors;
}

/** `system:serviceaccount:<namespace>:<name>`, the user a service account's token authenticates as. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * The identity of a service account token: its user, its groups, and as extras the token's id and the
 * pod and node it is bound to (ServiceAccountInfo.UserInfo; keys in the sorted order Go encodes a map in).
 */
export function serviceAccountUser(account: { namespace: string; name: string; uid: string }, tokenId: string, bound: { pod?: { name: string; uid: string } | undefined; node?: { name: string; uid: string } | undefined } = {}): UserInfo {
  const extra: Record<string, string[]> = { 'authentication.kubernetes.io/credential-id': [`JTI=${tokenId}`] };
  if (bound.node) {
    extra['authentication.kubernetes.io/node-name'] = [bound.node.name];
    if (bound.node.uid) extra['authentication.kubernetes.io/node-uid'] = [bound.node.uid];
  }
  if (bound.pod?.name && bound.pod.uid) {
    extra['authentication.kubernetes.io/pod-name'] = [bound.pod.name];
    extra['authentication.kubernetes.io/pod-uid'] = [bound.pod.uid];
  }
  return {
    username: serviceAccountUsername(account.namespace, account.name),
    uid: account.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${account.namespace}`, 'system:authenticated'],
    extra,
  };
}
