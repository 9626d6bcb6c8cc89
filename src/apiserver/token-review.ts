// Bearer token authentication as a question (TokenReview): the same authenticators the API server's
// own requests go through, the kubeconfig's static tokens and the service account tokens it issued,
// asked for an audience. Upstream: pkg/registry/authentication/tokenreview/storage.go,
// apiserver/pkg/authentication/{authenticator/audiences.go,request/bearertoken/bearertoken.go}.
import { timingSafeEqual } from 'node:crypto';
import { clusterAdminUser } from '../api/index.ts';
import type { TokenAuthentication } from '../api/index.ts';
import { badRequest, copyJson } from '../core/index.ts';
import { apiAudiences, reviewServiceAccountToken } from './service-account-tokens.ts';
import type { TokenDeps } from './service-account-tokens.ts';

/** Whether `token` is one of the static (kubeconfig) tokens, compared in constant time. */
export function isStaticToken(tokens: readonly Buffer[], token: string): boolean {
  const given = Buffer.from(token);
  return tokens.some((t) => t.length === given.length && timingSafeEqual(t, given));
}

/**
 * What the authenticators make of `token` for `audiences` (none: the API server's own). A static
 * token knows no audience, so it holds only where the API server's own is asked for; a token no
 * authenticator recognises fails as the bearer token authenticator words it.
 */
export async function reviewBearerToken(deps: TokenDeps, staticTokens: readonly Buffer[], token: string, audiences: readonly string[]): Promise<TokenAuthentication> {
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  const requested = audiences.length > 0 ? audiences : apiAudiences;
  if (isStaticToken(staticTokens, token)) {
    const valid = apiAudiences.filter((a) => requested.includes(a));
    if (valid.length > 0) return { authenticated: true, user: copyJson(clusterAdminUser), audiences: valid };
  } else {
    const result = await reviewServiceAccountToken(deps, token, requested);
    if (result) return result;
  }
  return { authenticated: false, error: 'invalid bearer token' };
}
