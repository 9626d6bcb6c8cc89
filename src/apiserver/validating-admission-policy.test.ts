// The ValidatingAdmissionPolicy plugin's predicates and failure handling, in process: which
// requests a rule selects (subresources, scope, excluded rules, resource names, object selector
// on the old object too), an expression error under failurePolicy Fail and Ignore, a policy
// taking effect within the write that creates it and leaving with its deletion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { NamedRuleWithOperations, Pod, ValidatingAdmissionPolicy } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { createLocalClient } from './local-client.ts';
import { VirtualClock, isApiError } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';

const configMap = (name: string, namespace = 'default', labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { a: '1' } });

async function withPolicy(rules: NamedRuleWithOperations[], extra: Partial<NonNullable<ValidatingAdmissionPolicy['spec']>> = {}, matchResources?: object): Promise<Cluster> {
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  await cluster.client.create(refs.validatingAdmissionPolicies, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'false', message: 'refused' }], ...extra },
  });
  await cluster.client.create(refs.validatingAdmissionPolicyBindings, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b' },
    spec: { policyName: 'p', validationActions: ['Deny'], ...(matchResources ? { matchResources } : {}) },
  });
  return cluster;
}

const refusal = (p: Promise<unknown>): Promise<string | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => (isApiError(e) ? e.message : String(e)),
  );

test("'*' selects resources but not their subresources; 'pods/status' only the status writes", async () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  const writes = async (c: Cluster['client']): Promise<{ status?: string; labels?: string }> => {
    const live = await c.create<Pod>(refs.pods, pod);
    const status = await refusal(c.updateStatus(refs.pods, { ...live, status: { ...live.status, phase: 'Running' } }));
    const labels = await refusal(c.patch(refs.pods, 'default', 'p1', 'merge', { metadata: { labels: { a: 'b' } } }));
    return { ...(status ? { status } : {}), ...(labels ? { labels } : {}) };
  };
  {
    await using cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['*'] }]);
    assert.deepEqual(await writes(cluster.client), { labels: `pods "p1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: refused` });
  }
  {
    await using cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['pods/status'] }]);
    assert.deepEqual(await writes(cluster.client), { status: `pods "p1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: refused` });
  }
});

test('scope, excluded rules and resource names narrow what a rule selects', async () => {
  const everything: NamedRuleWithOperations = { apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources: ['*'], scope: 'Cluster' };
  await using cluster = await withPolicy([everything, { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['named'] }], {
    matchConstraints: { resourceRules: [everything, { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['named'] }], excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['namespaces'], resourceNames: ['free'] }] },
  });
  const c = cluster.client;
  assert.equal(await refusal(c.create(refs.configMaps, configMap('other'))), undefined, 'namespaced: not in scope Cluster, and not named');
  assert.match((await refusal(c.create(refs.configMaps, configMap('named')))) ?? '', /configmaps "named" is forbidden/);
  assert.match((await refusal(c.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } }))) ?? '', /namespaces "ns1" is forbidden/, 'a Namespace is cluster-scoped');
  assert.equal(await refusal(c.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'free' } })), undefined, 'excluded by name');
});

test("an object selector also matches on the old object's labels", async () => {
  await using cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }], {}, { objectSelector: { matchLabels: { locked: 'true' } } });
  const c = cluster.client;
  const free = await c.create(refs.configMaps, configMap('free'));
  assert.match((await refusal(c.update(refs.configMaps, { ...free, metadata: { ...free.metadata, labels: { locked: 'true' } } }))) ?? '', /is forbidden/, 'the new object has the label');
  assert.match((await refusal(c.create(refs.configMaps, configMap('locked', 'default', { locked: 'true' })))) ?? '', /is forbidden/);
});

test('an expression error denies under failurePolicy Fail and is skipped under Ignore', async () => {
  const rules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE' as const], resources: ['configmaps'] }];
  {
    await using cluster = await withPolicy(rules, { validations: [{ expression: 'object.data.missing == "x"' }] });
    assert.equal(
      await refusal(cluster.client.create(refs.configMaps, configMap('x'))),
      `configmaps "x" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.data.missing == "x"' resulted in error: no such key: missing`,
    );
  }
  {
    await using cluster = await withPolicy(rules, { failurePolicy: 'Ignore', validations: [{ expression: 'object.data.missing == "x"' }] });
    assert.equal(await refusal(cluster.client.create(refs.configMaps, configMap('x'))), undefined);
  }
});

test('a policy applies from the write that binds it and stops with the binding deleted', async () => {
  await using cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
  const c = cluster.client;
  assert.match((await refusal(c.create(refs.configMaps, configMap('one')))) ?? '', /is forbidden/);
  await c.delete(refs.validatingAdmissionPolicyBindings, '', 'b');
  assert.equal(await refusal(c.create(refs.configMaps, configMap('two'))), undefined);
});

test('a DELETE is judged with the deleted object as oldObject and no object', async () => {
  const rules: NamedRuleWithOperations[] = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['namespaces'] }];
  await using cluster = await withPolicy(rules, {
    validations: [{ expression: "object == null && oldObject.metadata.labels['env'] != 'prod'", message: 'production namespaces are not deleted' }],
    matchConditions: [{ name: 'labelled', expression: 'has(oldObject.metadata.labels)' }],
  });
  const c = cluster.client;
  await c.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } });
  await c.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev', labels: { env: 'dev' } } });
  assert.equal(await refusal(c.delete(refs.namespaces, '', 'prod')), `namespaces "prod" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: production namespaces are not deleted`);
  assert.equal(await refusal(c.delete(refs.namespaces, '', 'dev')), undefined);
  assert.equal((await c.get(refs.namespaces, '', 'prod')).metadata.deletionTimestamp, undefined, 'a refused delete leaves the object as it was');
});

test('params by selector: each matching param is checked; none found with Allow admits', async () => {
  const rules: NamedRuleWithOperations[] = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }];
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  await using _ = cluster;
  const c = cluster.client;
  await c.create(refs.validatingAdmissionPolicies, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'banned-keys' },
    spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: rules }, validations: [{ expression: '!(params.data.key in object.data)', messageExpression: "'key ' + params.data.key + ' is banned by ' + params.metadata.name" }] },
  });
  await c.create(refs.validatingAdmissionPolicyBindings, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'banned-keys' },
    spec: { policyName: 'banned-keys', validationActions: ['Deny'], paramRef: { selector: { matchLabels: { ban: 'key' } }, parameterNotFoundAction: 'Allow' } },
  });
  const secret = (name: string, data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, data });
  const b64 = Buffer.from('x').toString('base64');
  assert.equal(await refusal(c.create(refs.secrets, secret('s0', { password: b64 }))), undefined, 'no param in the namespace: Allow');
  await c.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ban-password', namespace: 'default', labels: { ban: 'key' } }, data: { key: 'password' } });
  await c.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ban-token', namespace: 'default', labels: { ban: 'key' } }, data: { key: 'token' } });
  await c.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unlabelled', namespace: 'default' }, data: { key: 'user' } });
  assert.equal(await refusal(c.create(refs.secrets, secret('s1', { token: b64 }))), `secrets "s1" is forbidden: ValidatingAdmissionPolicy 'banned-keys' with binding 'banned-keys' denied request: key token is banned by ban-token`);
  assert.match((await refusal(c.create(refs.secrets, secret('s2', { password: b64 })))) ?? '', /key password is banned by ban-password$/);
  assert.equal(await refusal(c.create(refs.secrets, secret('s3', { user: b64 }))), undefined, 'the unlabelled ConfigMap is no param');
});

test('match conditions: one false skips the policy even beside an error; errors alone follow the failure policy', async () => {
  const rules: NamedRuleWithOperations[] = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }];
  const broken = { name: 'broken', expression: 'object.data.missing == "x"' };
  {
    await using cluster = await withPolicy(rules, { matchConditions: [broken, { name: 'never', expression: 'false' }] });
    assert.equal(await refusal(cluster.client.create(refs.configMaps, configMap('x'))), undefined);
  }
  {
    await using cluster = await withPolicy(rules, { matchConditions: [broken, { name: 'always', expression: 'true' }] });
    assert.equal(await refusal(cluster.client.create(refs.configMaps, configMap('x'))), `configmaps "x" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.data.missing == "x"' resulted in error: no such key: missing`);
  }
});

test("a binding's param column shows a selector as upstream's printer does", async () => {
  await using cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
  const table = (await cluster.server.list(refs.validatingAdmissionPolicyBindings, '', {})).def.table;
  const cells = table?.cells({ metadata: { name: 'b' }, spec: { policyName: 'p', paramRef: { selector: { matchLabels: { ban: 'key', a: 'b' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }, parameterNotFoundAction: 'Allow' } } } as never, Date.now());
  assert.equal(cells?.[2], '&LabelSelector{MatchLabels:map[string]string{a: b,ban: key,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[x y],},},}');
});

test("an expression of the wrong type is refused with the type it has, as upstream's CompileCELExpression says", async () => {
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  try {
    const message = await refusal(
      cluster.client.create(refs.validatingAdmissionPolicies, {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'typed' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
          matchConditions: [{ name: 'named', expression: "'yes'" }],
          validations: [{ expression: '1', messageExpression: 'size(object.data) > 0' }],
        },
      }),
    );
    // Upstream's order: match conditions, then variables, then validations.
    assert.equal(
      message,
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "typed" is invalid: [spec.matchConditions[0].expression: Invalid value: "\'yes\'": must evaluate to bool but got string, spec.validations[0].expression: Invalid value: "1": must evaluate to bool but got int, spec.validations[0].messageExpression: Invalid value: "size(object.data) > 0": must evaluate to string but got bool]',
    );
  } finally {
    await cluster.stop();
  }
});

test("request.options is the operation's options as sent: CreateOptions with its fieldManager, a DELETE's DeleteOptions", async () => {
  const rules: NamedRuleWithOperations[] = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['configmaps'] }];
  await using cluster = await withPolicy(rules, {
    validations: [
      { expression: "request.operation != 'CREATE' || (request.options.kind == 'CreateOptions' && request.options.apiVersion == 'meta.k8s.io/v1' && has(request.options.fieldManager) && request.options.fieldManager == 'deployer')", message: 'created by the deployer only' },
      { expression: "request.operation != 'DELETE' || (request.options.kind == 'DeleteOptions' && request.options.propagationPolicy != 'Orphan')", message: 'no orphans' },
    ],
  });
  const c = cluster.client;
  assert.equal(await refusal(c.create(refs.configMaps, configMap('by-hand'))), `configmaps "by-hand" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: created by the deployer only`);
  assert.equal(await refusal(c.create(refs.configMaps, configMap('deployed'), { fieldManager: 'deployer' })), undefined);
  assert.equal(await refusal(c.delete(refs.configMaps, 'default', 'deployed', { propagationPolicy: 'Orphan' })), `configmaps "deployed" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no orphans`);
  assert.equal(await refusal(c.delete(refs.configMaps, 'default', 'deployed', { propagationPolicy: 'Background' })), undefined);
});

test('a validation may use optional types: a label the object lacks reads as its orValue', async () => {
  const cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], {
    validations: [{ expression: "object.metadata.?labels[?'tier'].orValue('dev') != 'prod' || object.data.a == '1'", message: 'prod needs a: 1' }],
  });
  try {
    const prod = { ...configMap('prod', 'default', { tier: 'prod' }), data: { a: '2' } };
    assert.equal(await refusal(cluster.client.create(refs.configMaps, prod)), `configmaps "prod" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: prod needs a: 1`);
    assert.equal(await refusal(cluster.client.create(refs.configMaps, { ...configMap('plain'), metadata: { name: 'plain', namespace: 'default' }, data: { a: '2' } })), undefined);
  } finally {
    await cluster.stop();
  }
});

test("the authorizer variable checks what the requesting user, or a service account, may do, as RBAC decides", async () => {
  const cluster = await withPolicy([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], {
    validations: [
      { expression: "!has(object.metadata.labels) || !('approved' in object.metadata.labels) || authorizer.group('').resource('configmaps').subresource('approval').namespace(object.metadata.namespace).check('update').allowed()", message: 'only approvers may create approved config maps' },
      { expression: "authorizer.serviceAccount('default', 'builder').group('apps').resource('deployments').namespace('default').check('create').allowed()", messageExpression: "'builder may not deploy: ' + authorizer.serviceAccount('default', 'builder').group('apps').resource('deployments').namespace('default').check('create').reason()" },
      { expression: "authorizer.requestResource.check('create').allowed() && authorizer.group('').resource('configmaps').namespace('default').labelSelector('tier=web').check('create').allowed()", message: 'not allowed to create what is asked' },
    ],
  });
  try {
    const rbac = (resource: string, object: KubeObject): Promise<unknown> => cluster.client.create({ group: 'rbac.authorization.k8s.io', version: 'v1', resource }, object);
    await rbac('roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'deployer', namespace: 'default' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }] } as KubeObject);
    const writer = { username: 'alice', groups: ['system:authenticated'] };
    await rbac('roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-writer', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] } as KubeObject);
    await rbac('rolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-writes', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ kind: 'User', name: 'alice' }] } as KubeObject);
    const asAlice = createLocalClient(cluster.server, { user: writer });
    // The service account has no binding yet: every create is refused with RBAC's empty reason (the message trimmed).
    assert.equal(await refusal(asAlice.create(refs.configMaps, configMap('one'))), `configmaps "one" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: builder may not deploy:`);
    await rbac('rolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'builder-deploys', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' }, subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'default' }] } as KubeObject);
    assert.equal(await refusal(asAlice.create(refs.configMaps, configMap('two'))), undefined);
    assert.equal(await refusal(asAlice.create(refs.configMaps, configMap('three', 'default', { approved: 'yes' }))), `configmaps "three" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: only approvers may create approved config maps`);
  } finally {
    await cluster.stop();
  }
});
