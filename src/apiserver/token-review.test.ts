// TokenReview in process: the kubeconfig's token and service account tokens reviewed for the API
// server's audience or another, with upstream's answers for tokens that do not hold any more, and
// the bad request for an empty token. VirtualClock, in-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { TokenRequest, TokenReview } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';

const apiAudience = 'https://kubernetes.default.svc.cluster.local';
const tokenReviews = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews' };

async function review(cluster: Cluster, token: string, audiences?: string[]): Promise<TokenReview['status']> {
  const body: TokenReview = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token, ...(audiences ? { audiences } : {}) } };
  const answer = await cluster.client.create<TokenReview>(tokenReviews, body);
  assert.equal(answer.spec.token, token, 'the spec comes back as sent');
  return answer.status;
}

async function tokenFor(cluster: Cluster, account: string, spec: TokenRequest['spec'] = {}): Promise<string> {
  const body: TokenRequest = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec };
  return (await cluster.client.create<TokenRequest>(refs.serviceAccounts, body, { namespace: 'default', name: account, subresource: 'token' })).status?.token ?? '';
}

test('the kubeconfig token and a service account token are reviewed as the API server takes them', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(Date.parse('2026-12-04T10:00:00Z')), components: false });
  assert.deepEqual(await review(cluster, cluster.token), { authenticated: true, user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] }, audiences: [apiAudience] });
  assert.deepEqual(await review(cluster, cluster.token, ['vault']), { user: {}, error: 'invalid bearer token' }, 'a static token holds for the API server only');
  assert.deepEqual(await review(cluster, 'not-a-token'), { user: {}, error: 'invalid bearer token' });

  const account = await cluster.client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'scraper', namespace: 'default' } });
  const token = await tokenFor(cluster, 'scraper');
  const jti = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string }).jti;
  assert.deepEqual(await review(cluster, token), {
    authenticated: true,
    user: { username: 'system:serviceaccount:default:scraper', uid: account.metadata.uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'], extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] } },
    audiences: [apiAudience],
  });
  assert.deepEqual(await review(cluster, token, ['vault']), { user: {}, error: `token audiences ["${apiAudience}"] is invalid for the target audiences ["vault"]` });

  const vaultToken = await tokenFor(cluster, 'scraper', { audiences: ['vault', 'other'] });
  assert.deepEqual((await review(cluster, vaultToken, ['other', 'vault']))?.audiences, ['vault', 'other'], "the token's audiences that were asked for");
  assert.equal(await cluster.server.authenticateToken(vaultToken), undefined, 'a token for another audience does not reach the API');
});

test('a reviewed token that expired, or whose account or pod is gone, says why', async () => {
  const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'scraper', namespace: 'default' } });
  const pod = await client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'agent', namespace: 'default' }, spec: { serviceAccountName: 'scraper', containers: [{ name: 'c', image: 'nginx' }] } });
  const podToken = await tokenFor(cluster, 'scraper', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'agent' } });
  const bound = await review(cluster, podToken);
  assert.deepEqual(bound?.user && 'extra' in bound.user ? Object.keys(bound.user.extra ?? {}) : [], ['authentication.kubernetes.io/credential-id', 'authentication.kubernetes.io/pod-name', 'authentication.kubernetes.io/pod-uid']);
  assert.deepEqual(bound?.user && 'extra' in bound.user ? bound.user.extra?.['authentication.kubernetes.io/pod-uid'] : undefined, [pod.metadata.uid]);
  await client.delete(refs.pods, 'default', 'agent', { gracePeriodSeconds: 0 });
  assert.deepEqual(await review(cluster, podToken), { user: {}, error: 'service account token has been invalidated' });

  const shortLived = await tokenFor(cluster, 'scraper', { expirationSeconds: 600 });
  await clock.advance(662_000);
  assert.deepEqual(await review(cluster, shortLived), { user: {}, error: 'service account token has expired' });

  const token = await tokenFor(cluster, 'scraper');
  await client.delete(refs.serviceAccounts, 'default', 'scraper');
  assert.deepEqual(await review(cluster, token), { user: {}, error: 'serviceaccounts "scraper" not found' });
  const replaced = await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'scraper', namespace: 'default' } });
  const claimed = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { 'kubernetes.io': { serviceaccount: { uid: string } } })['kubernetes.io'].serviceaccount.uid;
  assert.deepEqual(await review(cluster, token), { user: {}, error: `service account UID (${replaced.metadata.uid}) does not match claim (${claimed})` });
});

test('a TokenReview without a token is a bad request; a null audience list comes back omitted', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const answer = await cluster.client.create<TokenReview>(tokenReviews, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token: 'x', audiences: null } });
  assert.deepEqual(answer.spec, { token: 'x' });
  const error = await review(cluster, '').catch((e: unknown) => e);
  assert.ok(isApiError(error) && error.reason === 'BadRequest', String(error));
  assert.equal(error.message, 'token is required for TokenReview in authentication');
});
