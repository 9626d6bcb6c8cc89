// TokenReview (authentication.k8s.io/v1): asks the API server who a bearer token belongs to, as
// webhook authenticators, kube-rbac-proxy and metrics endpoints do before serving a caller. Nothing
// is stored; the answer echoes the spec and reports the user, the audiences the token is valid for,
// or why it is not.
// Upstream: staging/src/k8s.io/api/authentication/v1/types.go, pkg/registry/authentication/tokenreview/storage.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TokenAuthentication } from '../../resource.ts';
import type { UserInfo } from './self-subject-review.ts';

export interface TokenReview extends KubeObject {
  metadata: ObjectMeta;
  spec: { token?: string; audiences?: string[] | null };
  status?: { authenticated?: boolean; user: UserInfo | Record<string, never>; audiences?: string[]; error?: string };
}

/** TokenReviewStatus as Go encodes it: `user` is a struct, so it is there (empty) even when no one is. */
function statusOf(authentication: TokenAuthentication | undefined): NonNullable<TokenReview['status']> {
  if (!authentication?.authenticated) return { user: {}, ...(authentication?.error ? { error: authentication.error } : {}) };
  return { authenticated: true, user: authentication.user, ...(authentication.audiences.length > 0 ? { audiences: authentication.audiences } : {}) };
}

export const tokenReviewDefinition: ResourceDefinition<TokenReview> = {
  group: 'authentication.k8s.io',
  version: 'v1',
  kind: 'TokenReview',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  verbs: ['create'],
  hasStatus: false,
  reviewToken: (obj) => ({ token: obj.spec?.token ?? '', audiences: obj.spec?.audiences ?? [] }),
  // The spec comes back as Go re-encodes it: an empty or null audience list is omitted.
  review: (obj, { authentication }) => {
    const { token, audiences } = obj.spec ?? {};
    return { ...obj, spec: { ...(token !== undefined ? { token } : {}), ...(audiences?.length ? { audiences } : {}) }, status: statusOf(authentication) };
  },
};
