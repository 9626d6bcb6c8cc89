// `kubectl create token` in process: serviceaccounts/<name>/token answers a TokenRequest with a
// signed token, which authenticates as the account until it expires or what it names is gone;
// upstream's validation and binding errors. VirtualClock, in-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { TokenRequest } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tokenRequest = (spec: TokenRequest['spec'] = {}): TokenRequest => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec });

test('a service account token names the account until it expires or the account is replaced', async () => {
  const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  const account = await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
  const answer = await client.create<TokenRequest>(refs.serviceAccounts, tokenRequest({ expirationSeconds: 600 }), { namespace: 'default', name: 'builder', subresource: 'token' });
  assert.deepEqual(answer.spec, { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600, boundObjectRef: null });
  assert.equal(answer.status?.expirationTimestamp, '2026-12-04T10:10:00Z');
  const token = answer.status?.token ?? '';
  const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  assert.equal(header?.alg, 'ES256');
  assert.deepEqual(payload?.['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'builder', uid: account.metadata.uid } });
  assert.equal(payload?.sub, 'system:serviceaccount:default:builder');

  const user = await cluster.server.authenticateToken(token);
  assert.equal(user?.username, 'system:serviceaccount:default:builder');
  assert.equal(user?.uid, account.metadata.uid);
  assert.deepEqual(user?.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  assert.deepEqual(user?.extra, { 'authentication.kubernetes.io/credential-id': [`JTI=${String(payload?.jti)}`] });
  const [h, p, signature = ''] = token.split('.');
  // A character in the middle: the last ones carry bits base64url decoding ignores, and may already be "AA".
  const changed = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
  assert.equal(await cluster.server.authenticateToken(`${h}.${p}.${changed}`), undefined, 'a changed signature');
  assert.equal(await cluster.server.authenticateToken('not-a-token'), undefined);

  // Good for its ten minutes and upstream's minute of leeway, not after.
  await clock.advance(660_000);
  assert.ok(await cluster.server.authenticateToken(token));
  await clock.advance(2_000);
  assert.equal(await cluster.server.authenticateToken(token), undefined, 'expired');

  const fresh = (await client.create<TokenRequest>(refs.serviceAccounts, tokenRequest(), { namespace: 'default', name: 'builder', subresource: 'token' })).status?.token ?? '';
  await client.delete(refs.serviceAccounts, 'default', 'builder');
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
  assert.equal(await cluster.server.authenticateToken(fresh), undefined, 'the account was replaced (another uid)');
});

test('TokenRequest errors: too short, missing account, a pod of another account, an unbindable kind', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other', namespace: 'default' } });
  await client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { serviceAccountName: 'other', containers: [{ name: 'c', image: 'nginx' }] } });
  const failure = async (name: string, spec: TokenRequest['spec']): Promise<string> => {
    const error = await client.create(refs.serviceAccounts, tokenRequest(spec), { namespace: 'default', name, subresource: 'token' }).catch((e: unknown) => e);
    assert.ok(isApiError(error), String(error));
    return `${error.reason}: ${error.message}`;
  };
  assert.equal(await failure('builder', { expirationSeconds: 60 }), 'Invalid: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
  assert.equal(await failure('nope', {}), 'NotFound: serviceaccounts "nope" not found');
  // The account is looked up first: a missing one is NotFound whatever the request asks.
  assert.equal(await failure('nope', { expirationSeconds: 60 }), 'NotFound: serviceaccounts "nope" not found');
  assert.equal(await failure('builder', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web' } }), 'BadRequest: cannot bind token for serviceaccount "builder" to pod running with serviceaccount "other"');
  assert.equal(await failure('builder', { boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } }), 'BadRequest: cannot bind token to object of type /v1, Kind=ConfigMap');
  assert.equal(await failure('builder', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'missing' } }), 'NotFound: secrets "missing" not found');
  // A name or namespace in the body is the service account's own; a token for the URL's is not issued.
  const named = async (metadata: Record<string, string>): Promise<string> => {
    const error = await client.create(refs.serviceAccounts, { ...tokenRequest({}), metadata }, { namespace: 'default', name: 'builder', subresource: 'token' }).catch((e: unknown) => e);
    assert.ok(isApiError(error), String(error));
    return `${error.reason}: ${error.message}`;
  };
  assert.equal(await named({ name: 'other' }), 'Invalid: TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
  assert.equal(await named({ namespace: 'kube-system' }), 'BadRequest: the namespace of the provided object does not match the namespace sent on the request');
});

test('a token bound to a secret stops working when the secret goes', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
  const secret = await client.create(refs.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'session', namespace: 'default' } });
  const answer = await client.create<TokenRequest>(refs.serviceAccounts, tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'session' } }), { namespace: 'default', name: 'builder', subresource: 'token' });
  assert.deepEqual(answer.spec?.boundObjectRef, { apiVersion: 'v1', kind: 'Secret', name: 'session' });
  const token = answer.status?.token ?? '';
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { 'kubernetes.io': { secret?: { uid: string } } };
  assert.equal(payload['kubernetes.io'].secret?.uid, secret.metadata.uid);
  assert.ok(await cluster.server.authenticateToken(token));
  await client.delete(refs.secrets, 'default', 'session');
  assert.equal(await cluster.server.authenticateToken(token), undefined);
});

test('the signing key is kept with --data-dir, so a token outlives a restart; clusters without one do not share keys', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-sa-key-'));
  try {
    const config = { ...defaultClusterConfig(), nodePools: [] };
    const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
    let token = '';
    {
      await using first = await Cluster.start({ config, clock, components: false, dataDir, port: 0 });
      await first.client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
      token = (await first.client.create<TokenRequest>(refs.serviceAccounts, tokenRequest(), { namespace: 'default', name: 'builder', subresource: 'token' })).status?.token ?? '';
    }
    await using again = await Cluster.start({ config, clock, components: false, dataDir, port: 0 });
    assert.equal((await again.server.authenticateToken(token))?.username, 'system:serviceaccount:default:builder');
    await using other = await Cluster.start({ config, clock, components: false });
    await other.client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
    assert.equal(await other.server.authenticateToken(token), undefined, 'another cluster\'s key');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
