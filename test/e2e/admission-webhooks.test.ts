// Admission webhooks as an operator developer meets them with kubectl: webhooks served by the test
// itself over HTTPS on loopback (a `url` client config with its caBundle, as envtest runs them, or
// without one, trusted through NODE_EXTRA_CA_CERTS)
// refuse a pod in upstream's words, add a label through a JSON patch with a warning, and see the
// AdmissionReview upstream sends; a `service` webhook has no pod serving it, so it fails closed
// (Fail) or open (Ignore); a configuration with mistakes is refused with upstream's field errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificate } from '../../src/cluster/certificate.ts';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

interface Review {
  request: { uid: string; operation: string; kind: { kind: string }; namespace: string; name: string; subResource?: string; userInfo: { username: string; groups?: string[] }; options?: Record<string, unknown>; object: { metadata: { labels?: Record<string, string> } } };
}

const seen: Review[] = [];

const calls = new Map<string, number>();

const patched = (review: Review, patch: unknown[]): Record<string, unknown> => ({ uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });

function answer(path: string, review: Review): Record<string, unknown> {
  const labels = review.request.object.metadata.labels ?? {};
  const meta = review.request.object.metadata as { name?: string; annotations?: Record<string, string> };
  if (path === '/count') {
    // Counts its calls for the object in an annotation: a reinvocation shows as 2.
    const n = (calls.get(meta.name ?? '') ?? 0) + 1;
    calls.set(meta.name ?? '', n);
    return patched(review, meta.annotations ? [{ op: 'add', path: '/metadata/annotations/count-calls', value: String(n) }] : [{ op: 'add', path: '/metadata/annotations', value: { 'count-calls': String(n) } }]);
  }
  if (path === '/record') return { uid: review.request.uid, allowed: true };
  if (path === '/label') return patched(review, labels.sidecar ? [] : [{ op: 'add', path: '/metadata/labels/sidecar', value: 'injected' }]);
  if (path === '/validate') {
    if (labels.team === 'blocked') return { uid: review.request.uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'team blocked is out of GPU budget' } };
    return { uid: review.request.uid, allowed: true };
  }
  const patch = [{ op: 'add', path: '/metadata/labels/injected', value: 'true' }];
  return { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64'), warnings: ['label injected by mutate.example.com'] };
}

describe('admission webhooks', () => {
  let dd: Drydock;
  let server: Server;
  let base = '';
  let caBundle = '';
  const cert = createServingCertificate({ nowMs: Date.now(), serial: randomBytes(8), hosts: ['127.0.0.1'] });
  before(async () => {
    caBundle = Buffer.from(cert.certPem).toString('base64');
    server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        seen.push(review);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: answer(new URL(req.url ?? '/', 'https://x').pathname, review) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dd = await startDrydock();
  });
  after(async () => {
    await dd?.stop();
    server?.close();
  });

  const webhook = (name: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name,
    clientConfig: { url: `${base}${path}`, caBundle },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    namespaceSelector: { matchLabels: { webhooks: 'on' } },
    ...extra,
  });

  test('a validating webhook refuses a pod in its words; a mutating one patches and warns', async () => {
    await dd.ok(['create', 'namespace', 'ml']);
    await dd.ok(['label', 'namespace', 'ml', 'webhooks=on']);
    const configs = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'budget' }, webhooks: [webhook('validate.example.com', '/validate')] },
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'inject' }, webhooks: [webhook('mutate.example.com', '/mutate')] },
      ],
    };
    assert.equal(
      await dd.ok(['create', '-f', '-'], { input: JSON.stringify(configs) }),
      'validatingwebhookconfiguration.admissionregistration.k8s.io/budget created\nmutatingwebhookconfiguration.admissionregistration.k8s.io/inject created\n',
    );
    assert.match(await dd.ok(['get', 'validatingwebhookconfigurations']), /^NAME\s+WEBHOOKS\s+AGE\nbudget\s+1\s+\S+\n$/);

    const refused = await dd.kubectl(['run', 'train', '-n', 'ml', '--image=pytorch/pytorch', '--labels=team=blocked']);
    assert.equal(refused.stderr, 'Error from server (Forbidden): admission webhook "validate.example.com" denied the request: team blocked is out of GPU budget\n');

    const created = await dd.kubectl(['run', 'infer', '-n', 'ml', '--image=vllm/vllm-openai', '--labels=team=serving']);
    assert.equal(created.stdout, 'pod/infer created\n');
    assert.equal(created.stderr, 'Warning: label injected by mutate.example.com\n');
    // Once bound, the pod also carries its node's zone and region (PodTopologyLabels).
    await dd.ok(['wait', '--for=condition=PodScheduled', 'pod/infer', '-n', 'ml', '--timeout=20s']);
    const infer = JSON.parse(await dd.ok(['get', 'pod', 'infer', '-n', 'ml', '-o', 'json'])) as { metadata: { labels?: Record<string, string> }; spec: { nodeName: string } };
    const nodeLabels = JSON.parse(await dd.ok(['get', 'node', infer.spec.nodeName, '-o', 'jsonpath={.metadata.labels}'])) as Record<string, string>;
    const topology = { 'topology.kubernetes.io/region': nodeLabels['topology.kubernetes.io/region'], 'topology.kubernetes.io/zone': nodeLabels['topology.kubernetes.io/zone'] };
    assert.deepEqual(infer.metadata.labels, { injected: 'true', team: 'serving', ...topology });
    // The validating webhook saw the mutated pod, in an admission.k8s.io/v1 review with the caller's name.
    const last = seen.filter((r) => r.request.object.metadata.labels?.team === 'serving').at(-1);
    assert.equal(last?.request.operation, 'CREATE');
    assert.equal(last?.request.kind.kind, 'Pod');
    assert.equal(last?.request.userInfo.username, 'kubernetes-admin');
    assert.deepEqual(last?.request.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-run' });
    assert.ok(seen.some((r) => r.request.object.metadata.labels?.injected === 'true'));
    assert.equal(await dd.ok(['run', 'elsewhere', '-n', 'default', '--image=busybox', '--labels=team=blocked']), 'pod/elsewhere created\n', 'the namespace selector leaves default alone');
  });

  test("the cluster's own writes come as their programs: the scheduler binds, the node's kubelet writes status", async () => {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'record' },
      webhooks: [{ ...webhook('record.example.com', '/record'), rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods/binding', 'pods/status'] }] }],
    };
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
    await dd.ok(['run', 'watched', '-n', 'ml', '--image=busybox', '--labels=team=serving']);
    await dd.ok(['wait', '--for=condition=Ready', 'pod/watched', '-n', 'ml', '--timeout=20s']);
    const node = await dd.ok(['get', 'pod', 'watched', '-n', 'ml', '-o', 'jsonpath={.spec.nodeName}']);
    const about = seen.filter((r) => r.request.name === 'watched' && r.request.subResource);
    const binding = about.find((r) => r.request.subResource === 'binding');
    assert.equal(binding?.request.userInfo.username, 'system:kube-scheduler');
    const status = about.filter((r) => r.request.subResource === 'status');
    assert.ok(status.length > 0);
    for (const r of status) {
      assert.equal(r.request.userInfo.username, `system:node:${node}`);
      assert.deepEqual(r.request.userInfo.groups, ['system:nodes', 'system:authenticated']);
    }
    await dd.ok(['delete', 'validatingwebhookconfiguration', 'record']);
  });

  test("a Deployment's pods are created by the replicaset-controller's service account, as kube-controller-manager runs it", async () => {
    const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'record-pods' }, webhooks: [webhook('record-pods.example.com', '/record')] };
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
    await dd.ok(['create', 'deployment', 'served', '-n', 'ml', '--image=busybox']);
    await dd.ok(['wait', '--for=condition=Available', 'deployment/served', '-n', 'ml', '--timeout=20s']);
    const created = seen.find((r) => r.request.operation === 'CREATE' && r.request.kind.kind === 'Pod' && (r.request.object.metadata as { generateName?: string }).generateName?.startsWith('served-'));
    assert.equal(created?.request.userInfo.username, 'system:serviceaccount:kube-system:replicaset-controller');
    assert.deepEqual(created?.request.userInfo.groups, ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']);
    await dd.ok(['delete', 'validatingwebhookconfiguration', 'record-pods']);
  });

  test('a reinvocationPolicy IfNeeded webhook is called again when a later webhook changed the object', async () => {
    const hook = (name: string, path: string, extra: Record<string, unknown>): Record<string, unknown> => ({ ...webhook(name, path), rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], namespaceSelector: {}, objectSelector: { matchLabels: { reinvoke: 'test' } }, ...extra });
    const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'order' }, webhooks: [hook('count.example.com', '/count', { reinvocationPolicy: 'IfNeeded' }), hook('label.example.com', '/label', {})] };
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', labels: { reinvoke: 'test' } } }) });
    assert.equal(await dd.ok(['get', 'configmap', 'twice', '-o', 'jsonpath={.metadata.annotations.count-calls} {.metadata.labels.sidecar}']), '2 injected');
    const once = { ...config, webhooks: [hook('count.example.com', '/count', { reinvocationPolicy: 'Never' }), hook('label.example.com', '/label', {})] };
    await dd.ok(['replace', '-f', '-'], { input: JSON.stringify(once) });
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'once', labels: { reinvoke: 'test' } } }) });
    assert.equal(await dd.ok(['get', 'configmap', 'once', '-o', 'jsonpath={.metadata.annotations.count-calls}']), '1');
    await dd.ok(['delete', 'mutatingwebhookconfiguration', 'order']);
  });

  test('a service webhook has no pod serving it: Fail refuses, Ignore lets the write through', async () => {
    const config = (failurePolicy: string): string =>
      JSON.stringify({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'operator' },
        webhooks: [{ name: 'vconfigmap.operator.io', clientConfig: { service: { namespace: 'default', name: 'operator-webhook', path: '/validate' } }, rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy, objectSelector: { matchLabels: { checked: 'yes' } } }],
      });
    await dd.ok(['apply', '-f', '-'], { input: config('Fail') });
    const refused = await dd.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', labels: { checked: 'yes' } } }) });
    assert.equal(refused.stderr, 'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "vconfigmap.operator.io": failed to call webhook: Post "https://operator-webhook.default.svc:443/validate?timeout=10s": service "operator-webhook" not found\n');
    await dd.ok(['apply', '-f', '-'], { input: config('Ignore') });
    assert.equal(await dd.ok(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', labels: { checked: 'yes' } } }) }), 'configmap/c1 created\n');
  });

  test('a url webhook that refuses the connection, or does not answer in time, fails the call in Go words', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const silent = createServer({ cert: cert.certPem, key: cert.keyPem }, () => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const hook = (name: string, url: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, clientConfig: { url, caBundle }, rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }], sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra });
      const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'down' }, webhooks: [hook('refused.example.com', `https://127.0.0.1:${closedPort}/v`)] };
      await dd.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
      const refused = await dd.kubectl(['create', 'secret', 'generic', 's1', '--from-literal=a=b']);
      assert.equal(refused.stderr, `error: failed to create secret Internal error occurred: failed calling webhook "refused.example.com": failed to call webhook: Post "https://127.0.0.1:${closedPort}/v?timeout=10s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused\n`);
      const slow = { ...config, webhooks: [hook('slow.example.com', `https://127.0.0.1:${silentPort}/v`, { timeoutSeconds: 1 })] };
      await dd.ok(['replace', '-f', '-'], { input: JSON.stringify(slow) });
      const timedOut = await dd.kubectl(['create', 'secret', 'generic', 's2', '--from-literal=a=b']);
      assert.equal(timedOut.stderr, `error: failed to create secret Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://127.0.0.1:${silentPort}/v?timeout=1s": context deadline exceeded\n`);
      await dd.ok(['delete', 'validatingwebhookconfiguration', 'down']);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  test('a url webhook without caBundle is trusted through the system roots, NODE_EXTRA_CA_CERTS included', async () => {
    const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'system-roots' }, webhooks: [webhook('roots.example.com', '/validate', { clientConfig: { url: `${base}/validate` }, namespaceSelector: {} })] };
    const blocked = ['run', 'blocked', '--image=pytorch/pytorch', '--labels=team=blocked'];
    // This server's certificate is no system root here...
    await dd.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
    const unknown = await dd.kubectl(blocked);
    assert.equal(unknown.stderr, `Error from server (InternalError): Internal error occurred: failed calling webhook "roots.example.com": failed to call webhook: Post "${base}/validate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority\n`);
    await dd.ok(['delete', 'validatingwebhookconfiguration', 'system-roots']);
    // ...and is one where NODE_EXTRA_CA_CERTS names it, as for any Node program (the executable reads
    // the file only when a call needs it).
    const extra = await startDrydock({ env: { NODE_EXTRA_CA_CERTS: dd.writeFile('extra-ca.pem', cert.certPem) } });
    try {
      await extra.ok(['create', '-f', '-'], { input: JSON.stringify(config) });
      const refused = await extra.kubectl(blocked);
      assert.equal(refused.stderr, 'Error from server (Forbidden): admission webhook "roots.example.com" denied the request: team blocked is out of GPU budget\n');
      assert.equal(await extra.ok(['run', 'allowed', '--image=pytorch/pytorch', '--labels=team=serving']), 'pod/allowed created\n');
    } finally {
      await extra.stop();
    }
  });

  test('a configuration with mistakes is refused with upstream field errors', async () => {
    const bad = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bad' },
      webhooks: [
        { name: 'short', clientConfig: { url: 'http://127.0.0.1/x?y=1' }, rules: [], timeoutSeconds: 31, admissionReviewVersions: [] },
        { name: 'a.b.c', clientConfig: { service: { namespace: 'ns', name: 'svc' }, url: 'https://x' }, sideEffects: 'Some', admissionReviewVersions: ['v2'] },
      ],
    };
    const r = await dd.kubectl(['create', '-f', '-'], { input: JSON.stringify(bad) });
    assert.equal(
      r.stderr,
      [
        'The ValidatingWebhookConfiguration "bad" is invalid: ',
        '* webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
        '* webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
        '* webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
        `* webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        '* webhooks[0].clientConfig.url: Invalid value: "y=1": query parameters are not permitted in the URL',
        '* webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
        '* webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        '* webhooks[1].clientConfig: Required value: exactly one of url or service is required',
        '* webhooks[1].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
        '',
      ].join('\n'),
    );
  });
});
