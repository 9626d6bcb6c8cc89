// ValidatingAdmissionPolicy as a user meets it with kubectl: the documentation's demo policy refuses
// a Deployment of 6 replicas in a test namespace in upstream's words; a GPU limit read from a
// ConfigMap denies in one namespace and only warns in another, exempts by label, and refuses
// everything while its param is missing; a scale through deployments/scale is judged as a Scale;
// a protected namespace is not deleted; a policy with mistakes is refused with upstream's field errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/admission-policy', name), 'utf8');

const gpuPod = (name: string, namespace: string, gpus: number, labels: Record<string, string> = {}): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'train', image: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime', resources: { limits: { 'nvidia.com/gpu': String(gpus) } } }] },
  });

/** A policy named `name` and a Deny binding of the same name, as one List for `kubectl create -f -`. */
const deniedBy = (name: string, spec: Record<string, unknown>): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } },
    ],
  });

describe('ValidatingAdmissionPolicy', () => {
  const dd = drydockForSuite();

  test("the documentation's demo: more than 5 replicas in a test namespace is refused, elsewhere allowed", async () => {
    assert.equal(
      await dd.ok(['apply', '-f', dd.writeFile('demo-policy.yaml', fixture('demo-policy.yaml'))]),
      'validatingadmissionpolicy.admissionregistration.k8s.io/demo-policy.example.com created\nvalidatingadmissionpolicybinding.admissionregistration.k8s.io/demo-binding-test.example.com created\n',
    );
    assert.match(await dd.ok(['get', 'validatingadmissionpolicies']), /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\ndemo-policy\.example\.com\s+1\s+<unset>\s+\S+\n$/);
    await dd.ok(['create', 'namespace', 'staging']);
    await dd.ok(['label', 'namespace', 'staging', 'environment=test']);
    const refused = await dd.kubectl(['create', 'deployment', 'nginx', '-n', 'staging', '--image=nginx', '--replicas=6']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `error: failed to create deployment: deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5\n`,
    );
    assert.equal(await dd.ok(['create', 'deployment', 'nginx', '-n', 'staging', '--image=nginx', '--replicas=5']), 'deployment.apps/nginx created\n');
    assert.equal(await dd.ok(['create', 'deployment', 'nginx', '-n', 'default', '--image=nginx', '--replicas=6']), 'deployment.apps/nginx created\n');
    // The rule names deployments, not deployments/scale: a scale is not this policy's business.
    assert.equal(await dd.ok(['scale', 'deployment', 'nginx', '-n', 'staging', '--replicas=8']), 'deployment.apps/nginx scaled\n');
    const update = await dd.kubectl(['patch', 'deployment', 'nginx', '-n', 'staging', '-p', '{"spec":{"replicas":9}}']);
    assert.match(update.stderr, /^The deployments "nginx" is invalid: : ValidatingAdmissionPolicy 'demo-policy\.example\.com' with binding 'demo-binding-test\.example\.com' denied request: failed expression: object\.spec\.replicas <= 5\n$/);
  });

  test('a GPU limit from a ConfigMap: denied, warned, exempted, and refused while the param is missing', async () => {
    await dd.ok(['create', 'namespace', 'research']);
    await dd.ok(['apply', '-f', dd.writeFile('gpu-limit-policy.yaml', fixture('gpu-limit-policy.yaml'))]);
    const missing = await dd.kubectl(['create', '-f', '-'], { input: gpuPod('one', 'default', 1) });
    // A configuration error has no reason of its own: Invalid, which kubectl prints as such (as upstream's does).
    assert.equal(missing.stderr, "The pods \"one\" is invalid: : ValidatingAdmissionPolicy 'gpu-limit' with binding 'gpu-limit-deny' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\n");
    // parameterNotFoundAction Allow: without its param the warning binding says nothing.
    assert.equal((await dd.kubectl(['create', '-f', '-'], { input: gpuPod('early', 'research', 8) })).stderr, '');

    await dd.ok(['create', 'configmap', 'gpu-limit', '-n', 'kube-system', '--from-literal=maxGpusPerPod=4']);
    assert.equal(await dd.ok(['create', '-f', '-'], { input: gpuPod('four', 'default', 4) }), 'pod/four created\n');
    const tooMany = await dd.kubectl(['create', '-f', '-'], { input: gpuPod('eight', 'default', 8) });
    assert.equal(tooMany.stderr, `Error from server (Forbidden): error when creating "STDIN": pods "eight" is forbidden: ValidatingAdmissionPolicy 'gpu-limit' with binding 'gpu-limit-deny' denied request: pod asks for 8 GPUs; the limit is 4\n`);
    const warned = await dd.kubectl(['create', '-f', '-'], { input: gpuPod('big', 'research', 8) });
    assert.equal(warned.code, 0);
    assert.equal(warned.stderr, "Warning: Validation failed for ValidatingAdmissionPolicy 'gpu-limit' with binding 'gpu-limit-warn': pod asks for 8 GPUs; the limit is 4\n");
    assert.equal(await dd.ok(['create', '-f', '-'], { input: gpuPod('exempt', 'default', 8, { 'gpu-limit-exempt': 'true' }) }), 'pod/exempt created\n');
    assert.match(await dd.ok(['get', 'validatingadmissionpolicybindings']), /gpu-limit-deny\s+gpu-limit\s+kube-system\/gpu-limit\s+/);
  });

  test('a scale through deployments/scale is judged as an autoscaling/v1 Scale', async () => {
    const policy = deniedBy('scale-cap', {
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] },
      validations: [{ expression: "request.kind.kind == 'Scale' && object.spec.replicas <= 3", message: 'at most 3 replicas through scale', reason: 'Forbidden' }],
    });
    await dd.ok(['create', '-f', '-'], { input: policy });
    await dd.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=1']);
    assert.equal(await dd.ok(['scale', 'deployment', 'web', '--replicas=3']), 'deployment.apps/web scaled\n');
    const refused = await dd.kubectl(['scale', 'deployment', 'web', '--replicas=4']);
    assert.equal(refused.stderr, `Error from server (Forbidden): deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'scale-cap' with binding 'scale-cap' denied request: at most 3 replicas through scale\n`);
  });

  test('a DELETE is judged too: a protected namespace is not deleted', async () => {
    const policy = deniedBy('protect-prod', {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['namespaces'] }], objectSelector: { matchLabels: { env: 'prod' } } },
      validations: [{ expression: 'request.userInfo.username == "ops-bot"', messageExpression: "'namespace ' + oldObject.metadata.name + ' is protected; ' + request.userInfo.username + ' may not delete it'", reason: 'Forbidden' }],
    });
    await dd.ok(['create', '-f', '-'], { input: policy });
    await dd.ok(['create', 'namespace', 'prod']);
    await dd.ok(['label', 'namespace', 'prod', 'env=prod']);
    const refused = await dd.kubectl(['delete', 'namespace', 'prod']);
    assert.equal(refused.stderr, `Error from server (Forbidden): namespaces "prod" is forbidden: ValidatingAdmissionPolicy 'protect-prod' with binding 'protect-prod' denied request: namespace prod is protected; kubernetes-admin may not delete it\n`);
    assert.match(await dd.ok(['get', 'namespace', 'prod']), /prod\s+Active/);
    assert.equal(await dd.ok(['delete', 'namespace', 'staging']), 'namespace "staging" deleted\n', 'an unlabelled namespace goes as usual');
  });

  test('a policy or binding with mistakes is refused with upstream field errors', async () => {
    const bad = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'bad' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', '*'], resources: ['pods', '*/*'] }] },
        validations: [{ expression: 'object.spec.replicas >', reason: 'Teapot' }],
      },
    };
    const r = await dd.kubectl(['create', '-f', '-'], { input: JSON.stringify(bad) });
    const lines = r.stderr.split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'The ValidatingAdmissionPolicy "bad" is invalid: ',
      `* spec.matchConstraints.resourceRules[0].operations: Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations`,
      `* spec.matchConstraints.resourceRules[0].resources: Invalid value: ["pods","*/*"]: if '*/*' is present, must not specify other resources`,
    ]);
    // cel-go's layout of a syntax error (position, source line, caret); the parser's own words differ.
    assert.match(lines[3] ?? '', /^\* spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas >": compilation failed: ERROR: <input>:1:23: Syntax error: /);
    assert.deepEqual(lines.slice(4), [' | object.spec.replicas >', ' | ......................^', '* spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"', '']);
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'bad' }, spec: { policyName: 'x', validationActions: ['Deny', 'Warn'], paramRef: { name: 'p' } } };
    const b = await dd.kubectl(['create', '-f', '-'], { input: JSON.stringify(binding) });
    assert.equal(
      b.stderr,
      [
        'The ValidatingAdmissionPolicyBinding "bad" is invalid: ',
        '* spec.paramRef.parameterNotFoundAction: Required value',
        '* spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
        '',
      ].join('\n'),
    );
  });
});
