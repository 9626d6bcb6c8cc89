// CRD validation rules (x-kubernetes-validations) as an operator's user meets them: the
// documentation's CronTab refuses replicas outside [minReplicas, maxReplicas] in the rules' own
// messages, a transition rule keeps a field immutable on update (and is not run on create), a
// messageExpression and a reason shape the error, and a type error stops the rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kubectlBinary, startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const crd = readFileSync(join(import.meta.dirname, '../../../test/fixtures/crd/crontab-validation-rules.yaml'), 'utf8');

const cronTab = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec });

describe('CRD validation rules', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
    await dd.ok(['apply', '-f', dd.writeFile('crd.yaml', crd)]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com']);
  });
  after(async () => {
    await dd?.stop();
  });

  test("replicas outside the bounds are refused in the rules' messages", async () => {
    const r = await dd.kubectl(['create', '-f', '-'], { input: cronTab('my-new-cron-object', { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', minReplicas: 0, replicas: 20, maxReplicas: 10 }) });
    assert.equal(r.stderr, 'The CronTab "my-new-cron-object" is invalid: spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.\n');
    assert.equal(await dd.ok(['create', '-f', '-'], { input: cronTab('ok', { image: 'a', minReplicas: 1, replicas: 2, maxReplicas: 3 }) }), 'crontab.stable.example.com/ok created\n');
  });

  test('a transition rule keeps a field immutable on update, and is not run on create', async () => {
    const changed = await dd.kubectl(['patch', 'crontab', 'ok', '--type=merge', '-p', '{"spec":{"image":"b"}}']);
    assert.equal(changed.stderr, 'The CronTab "ok" is invalid: spec.image: Invalid value: "string": Value is immutable\n');
    assert.equal(await dd.ok(['patch', 'crontab', 'ok', '--type=merge', '-p', '{"spec":{"replicas":3}}']), 'crontab.stable.example.com/ok patched\n');
  });

  test('a messageExpression and a reason shape the error; a type error stops the rules', async () => {
    const gpus = await dd.kubectl(['create', '-f', '-'], { input: cronTab('gpus', { minReplicas: 1, replicas: 1, maxReplicas: 1, gpus: 12 }) });
    assert.equal(gpus.stderr, 'The CronTab "gpus" is invalid: spec.gpus: Forbidden: gpus must be a whole number of 8-GPU nodes past 8, not 12\n');
    const typed = await dd.kubectl(['create', '-f', '-', '--validate=false'], { input: cronTab('typed', { minReplicas: 'one', replicas: 1, maxReplicas: 1 }) });
    assert.equal(
      typed.stderr,
      'The CronTab "typed" is invalid: \n* spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string"\n* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n',
    );
  });

  test("rules may use the CEL environment's IP and CIDR libraries, optionals, string.format, sets, two-variable comprehensions and the Format library; a date-time field is checked and is a timestamp", async () => {
    await dd.ok(['apply', '-f', dd.writeFile('pool-crd.yaml', readFileSync(join(import.meta.dirname, '../../../test/fixtures/crd/endpoint-pool-validation-rules.yaml'), 'utf8'))]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/endpointpools.serving.example.com']);
    const pool = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'serving.example.com/v1', kind: 'EndpointPool', metadata: { name }, spec });
    const addresses = [{ type: 'IPAddress', value: '10.1.2.3' }, { type: 'Hostname', value: 'vllm.example.com' }];
    assert.equal(await dd.ok(['create', '-f', '-'], { input: pool('good', { allowedCIDR: '10.0.0.0/8', ports: [8000], addresses }) }), 'endpointpool.serving.example.com/good created\n');
    const refused = async (name: string, spec: Record<string, unknown>): Promise<string> => (await dd.kubectl(['create', '-f', '-'], { input: pool(name, spec) })).stderr;
    assert.equal(await refused('outside', { allowedCIDR: '192.168.0.0/16', ports: [80], addresses }), 'The EndpointPool "outside" is invalid: spec: Invalid value: "object": addresses must lie in 192.168.0.0/16\n');
    assert.equal(await refused('not-ip', { ports: [443], addresses: [{ type: 'IPAddress', value: 'vllm.example.com' }] }), 'The EndpointPool "not-ip" is invalid: spec.addresses[0]: Invalid value: "object": value must be an IP address\n');
    assert.equal(await refused('mode', { mode: 'Pause', ports: [9090] }), 'The EndpointPool "mode" is invalid: \n* spec: Invalid value: "object": mode must be Serve or Drain\n* spec: Invalid value: "object": a port must be one of 80, 443 and 8000\n');
    const routes = { 'vllm.example.com': 'svc/vllm', 'Bad_Host': 'svc/x', 'ok.example.com': 'pod/y' };
    assert.equal(await refused('routes', { ports: [80], routes }), 'The EndpointPool "routes" is invalid: spec.routes: Invalid value: "object": bad routes: Bad_Host, ok.example.com\n');
    assert.equal(await dd.ok(['create', '-f', '-'], { input: pool('draining', { mode: 'Drain', ports: [80], drainAfter: '2026-12-06T10:00:00Z', routes: { 'vllm.example.com': 'svc/vllm' } }) }), 'endpointpool.serving.example.com/draining created\n');
    assert.equal(await refused('early', { ports: [80], drainAfter: '2019-06-01T00:00:00Z' }), 'The EndpointPool "early" is invalid: spec: Invalid value: "object": drainAfter must be after 2020\n');
    assert.equal(
      await refused('soon', { ports: [80], drainAfter: 'soon' }),
      'The EndpointPool "soon" is invalid: \n* spec.drainAfter: Invalid value: "soon": spec.drainAfter in body must be of type date-time: "soon"\n* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n',
    );
  });

  test('validation ratcheting: once the schema tightens, an object it no longer accepts can still be labelled or changed elsewhere', async () => {
    const schema = (maxLength: number): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: models.serving.example.com
spec:
  group: serving.example.com
  names: {kind: Model, plural: models, singular: model}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: ${maxLength}}
              replicas: {type: integer}
`;
    await dd.ok(['apply', '-f', dd.writeFile('model-crd.yaml', schema(64))]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/models.serving.example.com']);
    const model = JSON.stringify({ apiVersion: 'serving.example.com/v1', kind: 'Model', metadata: { name: 'llama' }, spec: { name: 'meta-llama-3.1-8b-instruct', replicas: 1 } });
    await dd.ok(['create', '-f', '-'], { input: model });
    await dd.ok(['apply', '-f', dd.writeFile('model-crd.yaml', schema(16))]);
    assert.equal(await dd.ok(['label', 'model', 'llama', 'tier=gold']), 'model.serving.example.com/llama labeled\n');
    assert.equal(await dd.ok(['patch', 'model', 'llama', '--type=merge', '-p', '{"spec":{"replicas":2}}']), 'model.serving.example.com/llama patched\n');
    const renamed = await dd.kubectl(['patch', 'model', 'llama', '--type=merge', '-p', '{"spec":{"name":"meta-llama-3.1-70b-instruct"}}']);
    assert.equal(renamed.stderr, 'The Model "llama" is invalid: spec.name: Too long: may not be more than 16 bytes\n');
  });

  test('a CRD whose rule does not compile is refused', async () => {
    const bad = crd.replace('crontabs.stable.example.com', 'widgets.stable.example.com').replace('plural: crontabs', 'plural: widgets').replace('singular: crontab', 'singular: widget').replace('kind: CronTab', 'kind: Widget').replace('"self.minReplicas <= self.replicas"', '"self.minReplicas <="');
    const r = await dd.kubectl(['apply', '-f', dd.writeFile('bad-crd.yaml', bad)]);
    // The value shown is the whole rule, as the internal type prints with %#v.
    assert.match(r.stderr, /^The CustomResourceDefinition "widgets\.stable\.example\.com" is invalid: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.minReplicas <=", Message:"replicas should be greater than or equal to minReplicas\.", MessageExpression:"", Reason:\(\*apiextensions\.FieldValueErrorReason\)\(nil\), FieldPath:"", OptionalOldSelf:\(\*bool\)\(nil\)\}: compilation failed: ERROR: <input>:1:/);
  });

  test('a schema type outside the OpenAPI ones is refused, and the published OpenAPI stays readable by an older kubectl', async () => {
    const typo = crd.replace('crontabs.stable.example.com', 'gadgets.stable.example.com').replace('plural: crontabs', 'plural: gadgets').replace('singular: crontab', 'singular: gadget').replace('kind: CronTab', 'kind: Gadget').replace('replicas:\n                type: integer', 'replicas:\n                type: int');
    assert.notEqual(typo, crd.replace('crontabs.stable.example.com', 'gadgets.stable.example.com'));
    const r = await dd.kubectl(['apply', '-f', dd.writeFile('typo-crd.yaml', typo)]);
    assert.equal(r.stderr, 'The CustomResourceDefinition "gadgets.stable.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[replicas].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"\n');
    // kubectl before 1.30 reads the OpenAPI v2 document first, and one unknown type fails every command.
    const older = join(dirname(kubectlBinary()), 'kubectl.1.27');
    if (existsSync(older)) assert.equal((await dd.kubectl(['get', 'crontabs'], { binary: older })).code, 0);
  });

  // A schema with the shapes whose handling is easy to get wrong: a free-form object, an embedded
  // resource, and a scale path with an index (CRD validation accepts it; upstream splits it at dots).
  const jobsCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: batches.x.example.com}
spec:
  group: x.example.com
  names: {kind: Batch, plural: batches}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: ".spec.jobs[0].replicas", statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              settings: {type: object}
              jobs: {type: array, items: {type: object, properties: {replicas: {type: integer}}}}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  spec: {type: object, properties: {image: {type: string}}}
          status: {type: object, properties: {replicas: {type: integer}}}
`;
  const batch = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'x.example.com/v1', kind: 'Batch', metadata: { name }, spec });
  const batches = async (): Promise<void> => {
    await dd.ok(['apply', '-f', dd.writeFile('batches-crd.yaml', jobsCrd)]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/batches.x.example.com']);
  };

  test('server-side apply into an object with no properties succeeds; storage prunes its values, managedFields keep them', async () => {
    await batches();
    assert.equal(await dd.ok(['apply', '--server-side', '-f', '-'], { input: batch('free', { settings: { a: 1, nested: { x: 1 } } }) }), 'batch.x.example.com/free serverside-applied\n');
    const got = JSON.parse(await dd.ok(['get', 'batch', 'free', '-o', 'json', '--show-managed-fields'])) as { spec: unknown; metadata: { managedFields: { fieldsV1: unknown }[] } };
    assert.deepEqual(got.spec, { settings: {} });
    assert.deepEqual(got.metadata.managedFields.map((m) => m.fieldsV1), [{ 'f:spec': { 'f:settings': { 'f:a': {}, 'f:nested': { '.': {}, 'f:x': {} } } } }]);
  });

  test('an embedded resource needs apiVersion and kind; its metadata is an ObjectMeta, checked and pruned as one', async () => {
    await batches();
    const missing = await dd.kubectl(['create', '--validate=false', '-f', '-'], { input: batch('bare', { template: { metadata: { name: 'a/b' }, spec: { image: 'i' } } }) });
    assert.equal(missing.stderr, `The Batch "bare" is invalid: \n* spec.template.apiVersion: Required value\n* spec.template.kind: Required value\n* spec.template.metadata.name: Invalid value: "a/b": may not contain '/'\n`);
    const template = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' }, owner: 'me', annotations: {} }, spec: { image: 'i' } };
    const strict = await dd.kubectl(['create', '-f', '-'], { input: batch('strict', { template }) });
    assert.equal(strict.stderr, 'Error from server (BadRequest): error when creating "STDIN": Batch in version "v1" cannot be handled as a Batch: strict decoding error: unknown field "spec.template.metadata.owner"\n');
    await dd.ok(['create', '--validate=false', '-f', '-'], { input: batch('pruned', { template }) });
    assert.equal(await dd.ok(['get', 'batch', 'pruned', '-o', 'jsonpath={.spec.template.metadata}']), '{"labels":{"app":"web"},"name":"web"}');
    const typed = await dd.kubectl(['create', '-f', '-'], { input: batch('typed', { template: { ...template, kind: 7 } }) });
    assert.equal(typed.stderr, 'Error from server (BadRequest): error when creating "STDIN": Batch in version "v1" cannot be handled as a Batch: spec.template.kind: Invalid value: 7: must be a string\n');
    const update = await dd.kubectl(['patch', 'batch', 'pruned', '--type=merge', '-p', '{"spec":{"template":{"kind":"Bad_Kind"}}}']);
    assert.match(update.stderr, /^The Batch "pruned" is invalid: spec\.template\.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label/);
  });

  test('a scale path with an index names a field called jobs[0]: reading the scale fails, and a scale write is pruned away', async () => {
    await batches();
    await dd.ok(['create', '-f', '-'], { input: batch('jobs', { jobs: [{ replicas: 3 }] }) });
    const read = await dd.kubectl(['get', '--raw', '/apis/x.example.com/v1/namespaces/default/batches/jobs/scale']);
    assert.equal(read.stderr, 'Error from server (InternalError): Internal error occurred: the spec replicas field ".spec.jobs[0].replicas" does not exist\n');
    assert.equal(await dd.ok(['scale', 'batch', 'jobs', '--replicas=5']), 'batch.x.example.com/jobs scaled\n');
    assert.equal(await dd.ok(['get', 'batch', 'jobs', '-o', 'jsonpath={.spec}']), '{"jobs":[{"replicas":3}]}');
  });
});
