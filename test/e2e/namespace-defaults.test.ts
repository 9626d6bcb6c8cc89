// What every namespace holds without being asked, as kubectl shows it: the `default` ServiceAccount
// (service account controller) and the `kube-root-ca.crt` ConfigMap with the CA the kubeconfig
// trusts (root CA publisher), both put back when deleted; `kubectl create token` for an account, and
// TokenReview of such a token.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';

describe('what a namespace holds from the start', () => {
  const dd = drydockForSuite({ config });

  /** Polls `kubectl get` until it prints `want` (the controllers act within milliseconds). */
  const eventually = async (args: readonly string[], want: string): Promise<void> => {
    let last = '';
    for (let i = 0; i < 50; i++) {
      const r = await dd.kubectl(args);
      last = r.stdout.trim() || r.stderr.trim();
      if (last === want) return;
      await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(last, want, `kubectl ${args.join(' ')}`);
  };

  test('the system namespaces and a new one get the default ServiceAccount and kube-root-ca.crt', async () => {
    const listed = await dd.ok(['get', 'serviceaccounts,configmaps', '-A', '-o', 'custom-columns=NAMESPACE:.metadata.namespace,KIND:.kind,NAME:.metadata.name', '--no-headers']);
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) {
      assert.match(listed, new RegExp(`^${ns}\\s+ServiceAccount\\s+default$`, 'm'), listed);
      assert.match(listed, new RegExp(`^${ns}\\s+ConfigMap\\s+kube-root-ca\\.crt$`, 'm'), listed);
    }
    assert.equal((await dd.ok(['create', 'namespace', 'team-a'])).trim(), 'namespace/team-a created');
    await eventually(['get', 'serviceaccounts', '-n', 'team-a', '-o', 'name'], 'serviceaccount/default');
    await eventually(['get', 'configmaps', '-n', 'team-a', '-o', 'name'], 'configmap/kube-root-ca.crt');
    const trusted = Buffer.from(await dd.ok(['config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority-data}']), 'base64').toString('utf8');
    assert.match(trusted, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(await dd.ok(['get', 'configmap', 'kube-root-ca.crt', '-n', 'team-a', '-o', 'jsonpath={.data.ca\\.crt}']), trusted);
    const table = await dd.ok(['get', 'serviceaccount', 'default', '-n', 'team-a']);
    assert.match(table, /^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+\S+\n$/, table);
  });

  test('deleted, they come back; an edited kube-root-ca.crt gets its data back', async () => {
    await dd.ok(['delete', 'serviceaccount', 'default', '-n', 'team-a']);
    await dd.ok(['delete', 'configmap', 'kube-root-ca.crt', '-n', 'team-a']);
    await eventually(['get', 'serviceaccounts', '-n', 'team-a', '-o', 'name'], 'serviceaccount/default');
    await eventually(['get', 'configmaps', '-n', 'team-a', '-o', 'name'], 'configmap/kube-root-ca.crt');
    await dd.ok(['patch', 'configmap', 'kube-root-ca.crt', '-n', 'team-a', '--type=merge', '-p', '{"data":{"ca.crt":"tampered"}}']);
    const trusted = Buffer.from(await dd.ok(['config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority-data}']), 'base64').toString('utf8');
    await eventually(['get', 'configmap', 'kube-root-ca.crt', '-n', 'team-a', '-o', 'jsonpath={.data.ca\\.crt}'], trusted.trim());
  });

  test('kubectl create token: the token authenticates as the account until the account is replaced', async () => {
    const token = (await dd.ok(['create', 'token', 'default', '-n', 'team-a'])).trim();
    assert.match(token, /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/);
    const whoami = await dd.ok(['auth', 'whoami', '--token', token]);
    assert.match(whoami, /^Username\s+system:serviceaccount:team-a:default$/m, whoami);
    assert.match(whoami, /^Groups\s+\[system:serviceaccounts system:serviceaccounts:team-a system:authenticated\]$/m, whoami);
    assert.match(whoami, /^Extra: authentication\.kubernetes\.io\/credential-id\s+\[JTI=[0-9a-f-]{36}\]$/m, whoami);
    const short = await dd.kubectl(['create', 'token', 'default', '-n', 'team-a', '--duration=1m']);
    assert.equal(short.stderr.trim(), 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const missing = await dd.kubectl(['create', 'token', 'builder', '-n', 'team-a']);
    assert.equal(missing.stderr.trim(), 'error: failed to create token: serviceaccounts "builder" not found');
    // The controller makes `default` again, with another uid: the old token names an account that is gone.
    await dd.ok(['delete', 'serviceaccount', 'default', '-n', 'team-a']);
    await eventually(['get', 'serviceaccounts', '-n', 'team-a', '-o', 'name'], 'serviceaccount/default');
    const refused = await dd.kubectl(['get', 'namespaces', '--token', token]);
    assert.equal(refused.stderr.trim(), 'error: You must be logged in to the server (Unauthorized)');
  });

  test('kubectl create -f of a TokenReview: who a token is, for an account allowed by system:auth-delegator', async () => {
    const review = (token: string, audiences = ''): string => `apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec:\n  token: ${token}\n${audiences}`;
    await dd.ok(['create', 'serviceaccount', 'proxy', '-n', 'team-a']);
    const token = (await dd.ok(['create', 'token', 'proxy', '-n', 'team-a'])).trim();
    const create = ['create', '-f', '-', '-o', 'jsonpath={.status.authenticated} {.status.user.username} {.status.audiences} {.status.error}'];
    assert.equal(await dd.ok(create, { input: review(token) }), 'true system:serviceaccount:team-a:proxy ["https://kubernetes.default.svc.cluster.local"] ');
    assert.equal(await dd.ok(create, { input: review(token, '  audiences: [vault]\n') }), '   token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]');
    assert.equal(await dd.ok(create, { input: review('nonsense') }), '   invalid bearer token');
    const asProxy = [...create, '--as', 'system:serviceaccount:team-a:proxy'];
    const forbidden = await dd.kubectl(asProxy, { input: review(token) });
    assert.equal(forbidden.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": tokenreviews.authentication.k8s.io is forbidden: User "system:serviceaccount:team-a:proxy" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope');
    await dd.ok(['create', 'clusterrolebinding', 'proxy-auth', '--clusterrole', 'system:auth-delegator', '--serviceaccount', 'team-a:proxy']);
    assert.equal(await dd.ok(asProxy, { input: review(token) }), 'true system:serviceaccount:team-a:proxy ["https://kubernetes.default.svc.cluster.local"] ');
    const empty = await dd.kubectl(['create', '-f', '-'], { input: 'apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec: {}\n' });
    assert.equal(empty.stderr.trim(), 'Error from server (BadRequest): error when creating "STDIN": token is required for TokenReview in authentication');
    // A kind with no PATCH is validated by kubectl itself, against the definitions of /openapi/v2 in protobuf.
    const misspelt = await dd.kubectl(['create', '-f', '-'], { input: 'apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec:\n  tokn: x\n' });
    assert.equal(misspelt.stderr.trim(), 'error: error validating "STDIN": error validating data: ValidationError(TokenReview.spec): unknown field "tokn" in io.k8s.api.authentication.v1.TokenReviewSpec; if you choose to ignore these errors, turn validation off with --validate=false');
  });

  test('a pod naming a service account that does not exist is refused', async () => {
    const r = await dd.kubectl(['run', 'job-runner', '-n', 'team-a', '--image=busybox', '--overrides={"spec":{"serviceAccountName":"builder"}}']);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): pods "job-runner" is forbidden: error looking up service account team-a/builder: serviceaccount "builder" not found');
    await dd.ok(['create', 'serviceaccount', 'builder', '-n', 'team-a']);
    await dd.ok(['run', 'job-runner', '-n', 'team-a', '--image=busybox', '--overrides={"spec":{"serviceAccountName":"builder"}}']);
  });

  test('a pod that names no service account runs as default, which exists', async () => {
    await dd.ok(['run', 'web', '-n', 'team-a', '--image=nginx:1.27']);
    assert.equal(await dd.ok(['get', 'pod', 'web', '-n', 'team-a', '-o', 'jsonpath={.spec.serviceAccountName} {.spec.volumes[0].projected.sources[1].configMap.name}']), 'default kube-root-ca.crt');
    assert.equal((await dd.ok(['get', 'serviceaccount', 'default', '-n', 'team-a', '-o', 'name'])).trim(), 'serviceaccount/default');
  });
});
