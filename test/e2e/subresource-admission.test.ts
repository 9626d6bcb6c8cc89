// Admission policies on subresources as a kubectl user meets them. A ValidatingAdmissionPolicy on
// pods/binding (CREATE) sees the scheduler's Binding, with the zone label PodTopologyLabels copied onto
// it from the node: a pod bound for a closed zone stays Pending, the scheduler's FailedScheduling event
// carrying the policy's denial. A policy on pods/eviction (CREATE) stops `kubectl drain` in a namespace
// whose evictions are frozen, in upstream's words, and the pod stays. A policy on pods/exec (CONNECT)
// reads the PodExecOptions: `kubectl exec -- rm ...` is refused, another command runs. A policy on
// nodes/proxy (CONNECT) reads the NodeProxyOptions' path: the kubelet's /configz is refused, /healthz answers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: a
  count: 1
  labels: {topology.kubernetes.io/zone: zone-a}
- name: b
  count: 1
  labels: {topology.kubernetes.io/zone: zone-b}
`;

/** A policy named `name` checking `validation` on what `constraints` select, and its Deny binding. */
const denying = (name: string, constraints: Record<string, unknown>, validation: Record<string, string>): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: constraints, validations: [validation] } },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } },
    ],
  });

/** A policy refusing everything `constraints` select with `message`, as Forbidden. */
const refusing = (name: string, constraints: Record<string, unknown>, message: string): string => denying(name, constraints, { expression: 'false', messageExpression: message, reason: 'Forbidden' });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => globalThis.setTimeout(resolve, ms));

describe('admission policies on pods/binding, pods/eviction, pods/exec and nodes/proxy', () => {
  const dd = drydockForSuite({ config: cluster });

  test('a bind into a closed zone is refused: the pod stays Pending with the denial in its FailedScheduling event', async () => {
    const bindingRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/binding'] };
    const policy = refusing('zone-b-closed', { resourceRules: [bindingRule], objectSelector: { matchLabels: { 'topology.kubernetes.io/zone': 'zone-b' } } }, "'zone-b takes no new pods: ' + object.metadata.name + ' was bound for ' + object.target.name");
    await dd.ok(['create', '-f', '-'], { input: policy });
    const pod = (name: string, zone: string): string =>
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: name } }, spec: { nodeSelector: { 'topology.kubernetes.io/zone': zone }, containers: [{ name: 'c', image: 'nginx' }] } });
    await dd.ok(['create', '-f', '-'], { input: pod('in-a', 'zone-a') });
    await dd.ok(['create', '-f', '-'], { input: pod('in-b', 'zone-b') });
    await dd.ok(['wait', '--for=condition=PodScheduled', 'pod/in-a', '--timeout=30s']);
    assert.equal(await dd.ok(['get', 'pod', 'in-a', '-o', 'jsonpath={.spec.nodeName} {.metadata.labels.topology\\.kubernetes\\.io/zone}']), 'a-0 zone-a');
    const denial = `running Bind plugin "DefaultBinder": pods "in-b" is forbidden: ValidatingAdmissionPolicy 'zone-b-closed' with binding 'zone-b-closed' denied request: zone-b takes no new pods: in-b was bound for b-0`;
    let events = '';
    for (let i = 0; i < 60 && !events.includes(denial); i++) {
      events = await dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=in-b,reason=FailedScheduling', '-o', 'jsonpath={range .items[*]}{.type} {.source.component} {.message}{"\\n"}{end}']);
      if (!events.includes(denial)) await sleep(250);
    }
    assert.equal(events.split('\n')[0], `Warning default-scheduler ${denial}`);
    const status = await dd.ok(['get', 'pod', 'in-b', '-o', 'jsonpath={.status.phase}|{.spec.nodeName}|{.status.conditions[?(@.type=="PodScheduled")].reason}|{.status.conditions[?(@.type=="PodScheduled")].message}']);
    assert.equal(status, `Pending||SchedulerError|${denial}`);
    await dd.ok(['delete', 'validatingadmissionpolicybinding', 'zone-b-closed']);
    await dd.ok(['delete', 'pod', 'in-a', 'in-b', '--timeout=30s']);
  });

  test('kubectl drain stops at an eviction the policy refuses; the pod stays', async () => {
    await dd.ok(['create', 'namespace', 'frozen']);
    await dd.ok(['label', 'namespace', 'frozen', 'evictions=frozen']);
    const evictionRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/eviction'] };
    const policy = refusing('eviction-freeze', { resourceRules: [evictionRule], namespaceSelector: { matchLabels: { evictions: 'frozen' } } }, "'evictions are frozen in namespace ' + request.namespace");
    await dd.ok(['create', '-f', '-'], { input: policy });
    await dd.ok(['create', 'deployment', 'db', '-n', 'frozen', '--image=nginx']);
    await dd.ok(['rollout', 'status', 'deployment/db', '-n', 'frozen', '--timeout=60s']);
    const [name = '', node = ''] = (await dd.ok(['get', 'pods', '-n', 'frozen', '-l', 'app=db', '-o', 'jsonpath={.items[0].metadata.name} {.items[0].spec.nodeName}'])).split(' ');
    const r = await dd.kubectl(['drain', node, '--ignore-daemonsets', '--timeout=20s'], { timeoutMs: 60_000 });
    assert.equal(r.code, 1);
    const refusal = `error when evicting pods/"${name}" -n "frozen": pods "${name}" is forbidden: ValidatingAdmissionPolicy 'eviction-freeze' with binding 'eviction-freeze' denied request: evictions are frozen in namespace frozen`;
    assert.ok(r.stderr.split('\n').includes(refusal), r.stderr);
    assert.equal(await dd.ok(['get', 'pod', name, '-n', 'frozen', '-o', 'jsonpath={.status.phase} {.metadata.deletionTimestamp}']), 'Running ');
  });

  test('kubectl exec of a command the policy forbids is refused; another runs', async () => {
    const execRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['pods/exec'] };
    const policy = denying('no-rm', { resourceRules: [execRule] }, { expression: "object.command[0] != 'rm'", messageExpression: "'no rm in ' + object.container" });
    await dd.ok(['create', '-f', '-'], { input: policy });
    await dd.ok(['run', 'shell', '--image=busybox', '--', 'sleep', '3600']);
    await dd.ok(['wait', '--for=condition=Ready', 'pod/shell', '--timeout=30s']);
    const refused = await dd.kubectl(['exec', 'shell', '--', 'rm', '-rf', '/data']);
    assert.deepEqual(refused, { code: 1, stdout: '', stderr: `The pods "shell" is invalid: : ValidatingAdmissionPolicy 'no-rm' with binding 'no-rm' denied request: no rm in shell\n` });
    assert.equal(await dd.ok(['exec', 'shell', '--', 'echo', 'hello']), 'hello\n');
  });

  test("kubectl get --raw of a node's proxy: the path the policy forbids is refused; another answers", async () => {
    const proxyRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['nodes/proxy'] };
    const policy = denying('no-configz', { resourceRules: [proxyRule] }, { expression: "!has(object.path) || !object.path.startsWith('/configz')", messageExpression: "'kubelet configuration is private: ' + object.path" });
    await dd.ok(['create', '-f', '-'], { input: policy });
    const node = (await dd.ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    const refused = await dd.kubectl(['get', '--raw', `/api/v1/nodes/${node}/proxy/configz`]);
    assert.deepEqual(refused, { code: 1, stdout: '', stderr: `The nodes "${node}" is invalid: : ValidatingAdmissionPolicy 'no-configz' with binding 'no-configz' denied request: kubelet configuration is private: /configz\n` });
    assert.equal(await dd.ok(['get', '--raw', `/api/v1/nodes/${node}/proxy/healthz`]), 'ok');
  });
});
