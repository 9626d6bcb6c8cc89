import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDecoded, checkObjectMeta } from './decode-check.ts';

test('checkDecoded words a mistyped field as encoding/json does', () => {
  const cases: [unknown, string | undefined][] = [
    [{ spec: { containers: 'nginx' } }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
    [{ spec: { containers: [{ name: 'a', image: 3 }] } }, 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
    [{ spec: 'x' }, 'json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec'],
    [{ spec: { terminationGracePeriodSeconds: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'],
    [{ metadata: { labels: { a: 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ spec: { containers: [{ name: 'a', resources: { limits: { cpu: 1 } } }] } }, undefined],
    [{ spec: { hostNetwork: null } }, undefined],
    [{ spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }], readinessProbe: { httpGet: { port: ['http'] } } }] } }, 'json: cannot unmarshal array into Go struct field HTTPGetAction.spec.containers.readinessProbe.httpGet.port of type int32'],
    [{ spec: { containers: [{ name: 'a', readinessProbe: { httpGet: { port: 1.5 } } }] } }, 'json: cannot unmarshal number 1.5 into Go struct field HTTPGetAction.spec.containers.readinessProbe.httpGet.port of type int32'],
    [{ spec: { containers: [{ name: 'a', readinessProbe: { httpGet: { port: 'http' } }, livenessProbe: { tcpSocket: { port: 8080 } } }] } }, undefined],
    [{ spec: { containers: [{ name: 'a', resources: { requests: true } }] } }, 'json: cannot unmarshal bool into Go struct field ResourceRequirements.spec.containers.resources.requests of type v1.ResourceList'],
  ];
  for (const [pod, expected] of cases) assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: false }).typeError, expected, JSON.stringify(pod));
});

test('checkDecoded prunes unknown fields and reports them in document order', () => {
  const pod = { metadata: { name: 'p', labelz: {} }, spec: { containers: [{ name: 'a', imagePullPolicyy: 'Always' }] } };
  const check = checkDecoded(pod, '', 'v1', 'Pod', { prune: true });
  assert.deepEqual(check.unknown, ['metadata.labelz', 'spec.containers[0].imagePullPolicyy']);
  assert.deepEqual(pod, { metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] } });
});

test("an unknown field named as one of Object.prototype's members is unknown all the same", () => {
  const pod = { spec: { constructor: { a: 1 }, toString: 5, containers: [{ name: 'a', valueOf: 2, hasOwnProperty: 'x' }] } };
  const check = checkDecoded(pod, '', 'v1', 'Pod', { prune: true });
  assert.deepEqual(check.unknown, ['spec.constructor', 'spec.toString', 'spec.containers[0].valueOf', 'spec.containers[0].hasOwnProperty']);
  assert.deepEqual(pod, { spec: { containers: [{ name: 'a' }] } });
});

test('quantities decode as Quantity.UnmarshalJSON does: trimmed, written back canonical unless they were, or refused in its words', () => {
  const pod = { spec: { containers: [{ name: 'a', resources: { requests: { cpu: '0.5', memory: '1024Mi', 'nvidia.com/gpu': 1 }, limits: { cpu: ' 1000m ', memory: '2147483648' } } }] } };
  assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: true }).typeError, undefined);
  assert.deepEqual(pod.spec.containers[0]?.resources, { requests: { cpu: '500m', memory: '1Gi', 'nvidia.com/gpu': '1' }, limits: { cpu: '1', memory: '2147483648' } });
  const refused = (cpu: string): string | undefined => checkDecoded({ spec: { containers: [{ name: 'a', resources: { requests: { cpu } } }] } }, '', 'v1', 'Pod', { prune: true }).typeError;
  assert.equal(refused('abc'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(refused('32MMi'), "unable to parse quantity's suffix");
});

test('times decode as metav1.Time does: written back in UTC, whole seconds', () => {
  const pod = { status: { conditions: [
    { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-04T21:00:00.123Z' },
    { type: 'Initialized', status: 'True', lastTransitionTime: '2026-12-04T23:30:05+02:00' },
    { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-12-04T21:00:00Z' },
  ] } };
  assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: true }).typeError, undefined);
  assert.deepEqual(pod.status.conditions.map((c) => c.lastTransitionTime), ['2026-12-04T21:00:00Z', '2026-12-04T21:30:05Z', '2026-12-04T21:00:00Z']);
});

test('a decoded body holds no null: a field goes, a list item or map value takes its zero value, as encoding/json leaves them', () => {
  const pod = {
    metadata: { name: 'p', labels: null, annotations: { a: null, b: 'x' }, finalizers: [null] },
    spec: { nodeSelector: null, containers: [null, { name: 'a', image: 'x', ports: null, env: [{ name: 'E', value: null }] }], priority: null },
  };
  const check = checkDecoded(pod, '', 'v1', 'Pod', { prune: true });
  assert.equal(check.typeError, undefined);
  assert.deepEqual(pod, {
    metadata: { name: 'p', annotations: { a: '', b: 'x' }, finalizers: [''] },
    spec: { containers: [{}, { name: 'a', image: 'x', env: [{ name: 'E' }] }] },
  });
  const kept = { metadata: { labels: null } };
  checkDecoded(kept, '', 'v1', 'Pod', { prune: false });
  assert.deepEqual(kept, { metadata: { labels: null } }, 'without prune the object is only read');
});

test("server-side apply's typed check lists unknown fields and mistyped values in document order", () => {
  const check = checkDecoded({ data: { a: 1, b: 'x' }, immutable: 'yes', dataa: {} }, '', 'v1', 'ConfigMap', { prune: false });
  assert.deepEqual(check.typed, [
    { path: 'data.a', message: 'expected string, got &value.valueUnstructured{Value:1}' },
    { path: 'immutable', message: 'expected boolean, got &{yes}' },
    { path: 'dataa', message: 'field not declared in schema' },
  ]);
  assert.equal(checkDecoded({ data: { a: 'x' } }, '', 'v1', 'ConfigMap', { prune: false }).typed, undefined);
});

test('metadata is decoded as ObjectMeta for a kind without a generated schema and for a custom object on its own', () => {
  const crd = { metadata: { name: 'x', finalizers: true }, spec: { anything: 1 } };
  assert.equal(checkDecoded(crd, 'apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', { prune: true }).typeError, 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.finalizers of type []string');
  const custom = { metadata: { name: [null], labels: null, extra: 1 }, spec: {} };
  const check = checkObjectMeta(custom, { prune: true });
  assert.equal(check.typeError, 'json: cannot unmarshal array into Go struct field ObjectMeta.name of type string');
  assert.deepEqual(check.unknown, ['metadata.extra']);
  assert.deepEqual(custom.metadata, { name: [null] }, 'unknown and null fields dropped');
  assert.equal(checkObjectMeta({ metadata: 5 }, { prune: false }).typeError, 'json: cannot unmarshal number into Go value of type v1.ObjectMeta');
});

test("a CustomResourceDefinition decodes with apiextensions' Go types: a mistyped field in encoding/json's words, unknown schema keywords reported", () => {
  const crd = { metadata: { name: 'crontabs.stable.example.com' }, spec: { group: 'stable.example.com', names: { plural: 'crontabs', kind: 'CronTab', shortNames: 'ct' }, scope: 'Namespaced', versions: [] } };
  assert.equal(checkDecoded(crd, 'apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', { prune: true }).typeError, 'json: cannot unmarshal string into Go struct field CustomResourceDefinitionNames.spec.names.shortNames of type []string');
  const schema = { type: 'object', properties: { spec: { type: 'object', descriptoin: 'typo', 'x-kubernetes-validations': [{ rule: 'self.a > 0' }], default: {}, items: [], enum: ['a', 1] } } };
  const typo = { spec: { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, additionalPrinterColumns: [{ name: 'A', type: 'integer', jsonPath: '.spec.a', priority: 0 }] }] } };
  const check = checkDecoded(typo, 'apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', { prune: false });
  assert.equal(check.typeError, undefined);
  assert.deepEqual(check.unknown, ['spec.versions[0].schema.openAPIV3Schema.properties.spec.descriptoin']);
});

test("a CRD schema's items, additionalProperties and dependencies are decoded in the shape they hold, as their own UnmarshalJSON does", () => {
  const crd = (props: object): object => ({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: props } } }] } });
  const typeError = (props: object): string | undefined => checkDecoded(crd(props), 'apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', { prune: false }).typeError;
  assert.equal(typeError({ a: { type: 'array', items: { type: 'string', allOf: 'x' } } }), 'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.items.allOf of type []v1.JSONSchemaProps');
  assert.equal(typeError({ a: { type: 'array', items: [{ type: 'string' }, { type: 5 }] } }), 'json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.items.type of type string');
  assert.equal(typeError({ a: { type: 'object', additionalProperties: true, dependencies: { b: ['c'] }, items: 5 } }), undefined);
  assert.equal(typeError({ a: { type: 'object', additionalProperties: { required: 'x' } } }), 'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.additionalProperties.required of type []string');
});

test("an integer past its Go type's range fails as strconv and OverflowInt fail it, int32 and int64 alike", () => {
  const replicas = (value: number): string | undefined => checkDecoded({ spec: { replicas: value } }, 'apps', 'v1', 'Deployment', { prune: false }).typeError;
  assert.equal(replicas(2147483647), undefined);
  assert.equal(replicas(2147483648), 'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32');
  assert.equal(replicas(1e308), 'json: cannot unmarshal number 1e+308 into Go struct field DeploymentSpec.spec.replicas of type int32');
  assert.equal(replicas(-2147483649), 'json: cannot unmarshal number -2147483649 into Go struct field DeploymentSpec.spec.replicas of type int32');
  const grace = (value: number): string | undefined => checkDecoded({ spec: { terminationGracePeriodSeconds: value } }, '', 'v1', 'Pod', { prune: false }).typeError;
  assert.equal(grace(2 ** 53 + 2), undefined);
  assert.equal(grace(2 ** 63), 'json: cannot unmarshal number 9223372036854776000 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64');
  const scale = checkDecoded({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 1e308 } }, 'autoscaling', 'v1', 'Scale', { prune: false }).typeError;
  assert.equal(scale, 'json: cannot unmarshal number 1e+308 into Go struct field ScaleSpec.spec.replicas of type int32');
});

test('DeleteOptions and a TokenRequest, kinds that are no resource of their own, decode with their Go types', () => {
  assert.equal(checkDecoded({ gracePeriodSeconds: 'soon' }, '', 'v1', 'DeleteOptions', { prune: false }).typeError, 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
  assert.equal(checkDecoded({ gracePeriodSeconds: 30, propagationPolicy: 'Background', preconditions: { uid: 'u' } }, '', 'v1', 'DeleteOptions', { prune: false }).typeError, undefined);
  const token = (spec: object): string | undefined => checkDecoded({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec }, 'authentication.k8s.io', 'v1', 'TokenRequest', { prune: false }).typeError;
  assert.equal(token({ audiences: ['api'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } }), undefined);
  assert.equal(token({ boundObjectRef: { kind: 'Pod', apiVersion: 1, name: 'p' } }), 'json: cannot unmarshal number into Go struct field BoundObjectReference.spec.boundObjectRef.apiVersion of type string');
  assert.equal(token({ expirationSeconds: '1h' }), 'json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64');
  assert.equal(token({ audiences: 'api' }), 'json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.audiences of type []string');
});
