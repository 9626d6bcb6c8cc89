// Admission of subresource requests as a policy sees them, in process: a bind, an eviction and a token
// request are CREATEs of pods/binding, pods/eviction and serviceaccounts/token whose object is the
// request's own kind; status and scale writes are UPDATEs with the old object; the writes a bind or an
// eviction makes to the pod itself are admitted by nobody (BindingREST, EvictionREST).
// The policy refuses every request it selects, its message spelling out the attributes it saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refs } from '../api/index.ts';
import type { NamedRuleWithOperations, Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import type { Client } from '../client/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';
import { connectOptions, proxySubpath } from './connect-admission.ts';
import { createHttpHandler } from './http.ts';

const attributes = [
  'request.operation',
  "request.resource.resource + '/' + (has(request.subResource) ? request.subResource : '')",
  "request.kind.group + '/' + request.kind.version + '/' + request.kind.kind",
  "request.requestKind.kind",
  "object == null ? 'no object' : object.kind",
  'request.name',
  "request.namespace",
  "oldObject == null ? 'no oldObject' : 'oldObject ' + oldObject.kind",
  "has(request.options) ? request.options.kind : 'no options'",
].map((part) => `(${part})`).join(" + ' | ' + ");

async function withPolicy(rules: NamedRuleWithOperations[], messageExpression = attributes): Promise<Cluster> {
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  await cluster.client.create(refs.validatingAdmissionPolicies, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'false', messageExpression }] },
  });
  await cluster.client.create(refs.validatingAdmissionPolicyBindings, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b' },
    spec: { policyName: 'p', validationActions: ['Deny'] },
  });
  return cluster;
}

const rule = (operations: NonNullable<NamedRuleWithOperations['operations']>, resources: string[], apiGroups = ['']): NamedRuleWithOperations => ({ apiGroups, apiVersions: ['v1'], operations, resources });

const refusal = (p: Promise<unknown>): Promise<string | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => (isApiError(e) ? e.message : String(e)),
  );

const denied = (resource: string, name: string, seen: string): string => `${resource} "${name}" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ${seen}`;

const pod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

const bind = (client: Client, name: string, node = 'n1'): Promise<unknown> =>
  client.create(refs.pods, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } }, { namespace: 'default', name, subresource: 'binding' });

const evict = (client: Client, name: string): Promise<unknown> =>
  client.create(refs.pods, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } }, { namespace: 'default', name, subresource: 'eviction' });

test('a bind is a CREATE of pods/binding whose object is the Binding; the pod stays unbound when it is refused', async () => {
  await using cluster = await withPolicy([rule(['*'], ['pods/binding'])]);
  await cluster.client.create(refs.pods, pod('web'));
  assert.equal(await refusal(bind(cluster.client, 'web')), denied('pods', 'web', 'CREATE | pods/binding | /v1/Binding | Binding | Binding | web | default | no oldObject | CreateOptions'));
  assert.equal((await cluster.client.get<Pod>(refs.pods, 'default', 'web')).spec.nodeName, undefined);
});

test('the legacy bindings resource is a CREATE of bindings, named by its object', async () => {
  await using cluster = await withPolicy([rule(['CREATE'], ['bindings'])]);
  await cluster.client.create(refs.pods, pod('web'));
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { kind: 'Node', name: 'n1' } };
  const refused = await refusal(cluster.client.create({ group: '', version: 'v1', resource: 'bindings' }, binding, { namespace: 'default' }));
  assert.equal(refused, denied('bindings', 'web', 'CREATE | bindings/ | /v1/Binding | Binding | Binding | web | default | no oldObject | CreateOptions'));
});

test('a bind is no UPDATE of the pod: a policy on pod updates lets the scheduler bind', async () => {
  await using cluster = await withPolicy([rule(['UPDATE'], ['pods', 'pods/*'])]);
  await cluster.client.create(refs.pods, pod('web'));
  await bind(cluster.client, 'web');
  assert.equal((await cluster.client.get<Pod>(refs.pods, 'default', 'web')).spec.nodeName, 'n1');
});

test('an eviction is a CREATE of pods/eviction whose object is the Eviction of policy/v1', async () => {
  await using cluster = await withPolicy([rule(['CREATE'], ['pods/eviction'])]);
  await cluster.client.create(refs.pods, pod('web'));
  assert.equal(await refusal(evict(cluster.client, 'web')), denied('pods', 'web', 'CREATE | pods/eviction | policy/v1/Eviction | Eviction | Eviction | web | default | no oldObject | CreateOptions'));
  const live = await cluster.client.get<Pod>(refs.pods, 'default', 'web');
  assert.equal(live.status?.conditions?.some((c) => c.type === 'DisruptionTarget'), undefined);
});

test("an eviction's own writes to the pod (its DisruptionTarget condition, its deletion) are admitted by nobody", async () => {
  await using cluster = await withPolicy([rule(['UPDATE', 'DELETE'], ['pods', 'pods/status'])]);
  await cluster.client.create(refs.pods, pod('web'));
  await evict(cluster.client, 'web');
  assert.equal(await refusal(cluster.client.get(refs.pods, 'default', 'web')), 'pods "web" not found');
  // The same policy refuses the user's own delete.
  await cluster.client.create(refs.pods, pod('db'));
  assert.equal(await refusal(cluster.client.delete(refs.pods, 'default', 'db')), denied('pods', 'db', 'DELETE | pods/ | /v1/Pod | Pod | no object | db | default | oldObject Pod | DeleteOptions'));
});

test('a token request is a CREATE of serviceaccounts/token whose object is the TokenRequest', async () => {
  await using cluster = await withPolicy([rule(['CREATE'], ['serviceaccounts/token'])]);
  await cluster.client.create(refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: ['vault'] } };
  const refused = await refusal(cluster.client.create(refs.serviceAccounts, request, { namespace: 'default', name: 'builder', subresource: 'token' }));
  assert.equal(refused, denied('serviceaccounts', 'builder', 'CREATE | serviceaccounts/token | authentication.k8s.io/v1/TokenRequest | TokenRequest | TokenRequest | builder | default | no oldObject | CreateOptions'));
});

test('status and scale writes are UPDATEs with the old object, a scale one of autoscaling/v1 Scales', async () => {
  await using cluster = await withPolicy([rule(['UPDATE'], ['pods/status']), rule(['UPDATE'], ['deployments/scale'], ['apps'])]);
  const live = await cluster.client.create<Pod>(refs.pods, pod('web'));
  const status = await refusal(cluster.client.updateStatus(refs.pods, { ...live, status: { ...live.status, phase: 'Running' } }));
  assert.equal(status, denied('pods', 'web', 'UPDATE | pods/status | /v1/Pod | Pod | Pod | web | default | oldObject Pod | UpdateOptions'));
  const labels = { app: 'web' };
  const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  await cluster.client.create(refs.deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } });
  const scale = await refusal(cluster.client.patch(refs.deployments, 'default', 'web', 'merge', { spec: { replicas: 3 } }, { subresource: 'scale' }));
  assert.equal(scale, denied('deployments.apps', 'web', 'UPDATE | deployments/scale | autoscaling/v1/Scale | Scale | Scale | web | default | oldObject Scale | UpdateOptions'));
});

test('an exec is a CONNECT of pods/exec whose object is the PodExecOptions, refused before the pod is looked up', async () => {
  await using cluster = await withPolicy([rule(['CONNECT'], ['pods/exec'])]);
  const http = createServer(createHttpHandler({ server: cluster.server, tokens: ['t'] }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1/namespaces/default/pods/web/exec?command=ls&command=-l&stdout=true&container=c`;
    const res = await fetch(url, { method: 'POST', headers: { Authorization: 'Bearer t' } });
    const status = (await res.json()) as { code?: number; message?: string };
    assert.deepEqual({ code: res.status, message: status.message }, { code: 422, message: denied('pods', 'web', 'CONNECT | pods/exec | /v1/PodExecOptions | PodExecOptions | PodExecOptions | web | default | no oldObject | no options') });
  } finally {
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});

test("a connecter's query decodes to its v1 options as upstream writes them, omitempty fields left out", () => {
  const query = (text: string): URLSearchParams => new URLSearchParams(text);
  assert.deepEqual(connectOptions('exec', query('command=sh&command=-c&command=date&stdin=true&stdout=1&stderr=false&tty=0&container=app')), { kind: 'PodExecOptions', apiVersion: 'v1', stdin: true, stdout: true, container: 'app', command: ['sh', '-c', 'date'] });
  assert.deepEqual(connectOptions('exec', query('stdout=true')), { kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, command: null });
  assert.deepEqual(connectOptions('attach', query('stdin=true&tty=true&command=ignored')), { kind: 'PodAttachOptions', apiVersion: 'v1', stdin: true, tty: true });
  assert.deepEqual(connectOptions('portforward', query('ports=8080,9090&ports=53')), { kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [8080, 9090, 53] });
  assert.deepEqual(connectOptions('portforward', query('')), { kind: 'PodPortForwardOptions', apiVersion: 'v1' });
  assert.equal(connectOptions('portforward', query('ports=http')), undefined);
});

/** Sends one request to the cluster's API over HTTP, as kubectl would; the Status's code and message. */
async function overHttp(cluster: Cluster, method: string, path: string): Promise<{ code: number; message: string | undefined }> {
  const http = createServer(createHttpHandler({ server: cluster.server, tokens: ['t'] }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`, { method, headers: { Authorization: 'Bearer t' } });
    const status = (await res.json()) as { message?: string };
    return { code: res.status, message: status.message };
  } finally {
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

test("the pod, service and node proxies are CONNECTs whose options carry the path after proxy", async () => {
  const seen = "request.operation + ' ' + request.resource.resource + '/' + request.subResource + ' ' + object.kind + ' ' + (has(object.path) ? object.path : '<no path>')";
  await using cluster = await withPolicy([rule(['CONNECT'], ['pods/proxy', 'services/proxy', 'nodes/proxy'])], seen);
  assert.deepEqual(await overHttp(cluster, 'GET', '/api/v1/namespaces/default/pods/web:8080/proxy/metrics/v1/'), { code: 422, message: denied('pods', 'web:8080', 'CONNECT pods/proxy PodProxyOptions /metrics/v1/') });
  assert.deepEqual(await overHttp(cluster, 'POST', '/api/v1/namespaces/default/services/http:web:/proxy/v1%2Fmodels?x=1'), { code: 422, message: denied('services', 'http:web:', 'CONNECT services/proxy ServiceProxyOptions /v1/models') });
  assert.deepEqual(await overHttp(cluster, 'GET', '/api/v1/nodes/n1/proxy'), { code: 422, message: denied('nodes', 'n1', 'CONNECT nodes/proxy NodeProxyOptions <no path>') });
});

test('a connecter refuses dryRun before admission, as ConnectResource does', async () => {
  await using cluster = await withPolicy([rule(['CONNECT'], ['pods/exec'])]);
  const refused = await overHttp(cluster, 'POST', '/api/v1/namespaces/default/pods/web/exec?command=ls&stdout=true&dryRun=All');
  assert.deepEqual(refused, { code: 400, message: 'dryRun is not supported' });
  assert.equal((await overHttp(cluster, 'GET', '/api/v1/nodes/n1/proxy/stats/summary?dryRun=All')).message, 'dryRun is not supported');
});

test("a proxy's path is what follows proxy, decoded, with a leading slash and the request's trailing one", () => {
  assert.equal(proxySubpath('/api/v1/namespaces/ns/pods/web/proxy'), '');
  assert.equal(proxySubpath('/api/v1/namespaces/ns/pods/web/proxy/'), '/');
  assert.equal(proxySubpath('/api/v1/nodes/n1/proxy/stats/summary'), '/stats/summary');
  assert.equal(proxySubpath('/api/v1/namespaces/ns/services/web/proxy/a%20b/c/'), '/a b/c/');
  assert.equal(proxySubpath('/api/v1/namespaces/ns/services/web/proxy//a//b'), '/a//b');
});
