import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { documentedSchemas, readDescriptions } from './definitions.ts';
import { descriptionsFileName, splitDescriptions } from './descriptions.ts';
import { asciiJson, generateSchemas, shortDefinitionName } from './generate.ts';
import { schemasJson } from './generated/schemas.ts';
import { atomicStructs, fieldPatchStrategies, listTags, mapTypes, quantityFields } from './struct-tags.ts';

const generated = await generateSchemas();

test('generated/schemas.ts and its descriptions match what the installed schema source generates (rerun generate.ts)', () => {
  const { structural, descriptions } = splitDescriptions(generated);
  assert.equal(asciiJson(structural), schemasJson);
  assert.deepEqual(JSON.parse(schemasJson), structural);
  assert.match(schemasJson, /^[\x00-\x7f]*$/, 'ASCII only, so V8 keeps it one byte a character');
  assert.doesNotMatch(schemasJson, /"description":"/, 'no description text in the structure');
  const file = readFileSync(new URL(`./generated/${descriptionsFileName}`, import.meta.url), 'utf8');
  assert.deepEqual(JSON.parse(file), descriptions);
  assert.match(file, /^[\x00-\x7f]*$/, 'ASCII only, so it reads as latin1');
});

test('the served schemas are the generated ones, descriptions and all', () => {
  assert.deepEqual(documentedSchemas(), generated);
  const priorityClass = documentedSchemas()['io.k8s.api.scheduling.v1.PriorityClass'];
  assert.match(priorityClass?.description ?? '', /^PriorityClass defines mapping/);
  assert.equal(priorityClass?.properties?.['description']?.type, 'string', 'a field named description is a field, not a description');
});

test('every struct-tag entry names a field or type the source has', () => {
  const fields = new Set<string>();
  for (const [name, s] of Object.entries(generated)) for (const p of Object.keys(s.properties ?? {})) fields.add(`${shortDefinitionName(name)}.${p}`);
  const keys = [...Object.keys(listTags), ...quantityFields, ...Object.keys(mapTypes), ...Object.keys(fieldPatchStrategies)];
  assert.deepEqual(keys.filter((k) => !fields.has(k)), []);
  assert.deepEqual([...atomicStructs].filter((t) => !(`io.k8s.api.${t}` in generated) && !(`io.k8s.apimachinery.pkg.apis.${t}` in generated)), []);
});

test('types land in their upstream packages', () => {
  for (const name of [
    'io.k8s.api.core.v1.PodTemplateSpec',
    'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
    'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference',
    'io.k8s.api.core.v1.NodeSelector',
    'io.k8s.api.core.v1.TopologySelectorTerm',
    'io.k8s.api.core.v1.EventSeries',
    'io.k8s.api.events.v1.EventSeries',
    'io.k8s.api.core.v1.ResourceClaim',
    'io.k8s.api.resource.v1.ResourceClaim',
    'io.k8s.api.apps.v1.DeploymentStrategy',
    'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
    'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  ]) {
    assert.ok(generated[name], name);
  }
  assert.equal(generated['io.k8s.api.coordination.v1.LeaseSpec']?.properties?.['renewTime']?.allOf?.[0]?.$ref, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime');
});

test('CustomResourceDefinition lands in apiextensions-apiserver, its untyped values as their own definitions', () => {
  const props = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
  const schemaProps = generated[props]?.properties ?? {};
  assert.equal(schemaProps['additionalProperties']?.allOf?.[0]?.$ref, `#/components/schemas/${props}OrBool`);
  assert.equal(schemaProps['items']?.allOf?.[0]?.$ref, `#/components/schemas/${props}OrArray`);
  assert.equal(schemaProps['enum']?.items?.allOf?.[0]?.$ref, '#/components/schemas/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON');
  // Upstream leaves these without a description; the source copies its definition's text into them.
  assert.equal(schemaProps['additionalProperties']?.description, undefined);
  assert.match(schemaProps['x-kubernetes-preserve-unknown-fields']?.description ?? '', /^x-kubernetes-preserve-unknown-fields stops/);
  assert.deepEqual(schemaProps['x-kubernetes-validations']?.['x-kubernetes-list-map-keys'], ['rule']);
  assert.deepEqual(generated['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition']?.['x-kubernetes-group-version-kind'], [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }]);
});

test('fields the source renames in TypeScript (continue, default, from) keep their descriptions', () => {
  assert.match(generated['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']?.properties?.['continue']?.description ?? '', /^continue may be set if the user set a limit/);
  assert.match(generated['io.k8s.api.networking.v1.NetworkPolicyIngressRule']?.properties?.['from']?.description ?? '', /^from is a list of sources/);
});

test('without the descriptions file the schemas are served without descriptions, and a warning says why', () => {
  const warnings: string[] = [];
  const emit = process.emitWarning;
  process.emitWarning = ((message: string | Error) => void warnings.push(String(message))) as typeof process.emitWarning;
  try {
    assert.deepEqual(readDescriptions(new URL('./generated/no-such-file.json', import.meta.url)), {});
  } finally {
    process.emitWarning = emit;
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /^OpenAPI documents are served without descriptions: ENOENT.*no-such-file\.json/);
});

test('a property that refers to another type keeps its own description, and default {} where upstream writes it', () => {
  // Upstream: api/openapi-spec/v3/api__v1_openapi.json, io.k8s.api.core.v1.ConfigMap.
  assert.deepEqual(generated['io.k8s.api.core.v1.ConfigMap']?.properties?.['metadata'], {
    allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
    default: {},
    description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  });
  const pod = generated['io.k8s.api.core.v1.Pod']?.properties ?? {};
  assert.equal(pod['spec']?.default !== undefined && pod['status']?.default !== undefined, true, 'a kind\'s spec and status are values');
  assert.match(pod['spec']?.description ?? '', /^Specification of the desired behavior of the pod\./);
  // *Affinity: a pointer, so no default.
  assert.deepEqual(generated['io.k8s.api.core.v1.PodSpec']?.properties?.['affinity'], {
    allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Affinity' }],
    description: "If specified, the pod's scheduling constraints",
  });
  assert.match(generated['io.k8s.api.core.v1.Container']?.properties?.['resources']?.description ?? '', /^Compute Resources required by this container\./);
  assert.match(generated['io.k8s.api.apps.v1.DeploymentSpec']?.properties?.['template']?.description ?? '', /^Template describes the pods that will be created\./);
  // Upstream has none for these; the source must not invent one.
  assert.equal(generated['io.k8s.api.certificates.v1.CertificateSigningRequest']?.properties?.['metadata']?.description, undefined);
});

test('every property that refers to another type has a description, but those upstream leaves without one', () => {
  const without: string[] = [];
  for (const [name, s] of Object.entries(generated)) {
    for (const [field, p] of Object.entries(s.properties ?? {})) if (p.allOf && p.description === undefined) without.push(`${shortDefinitionName(name)}.${field}`);
  }
  assert.deepEqual(without, [
    'certificates.v1.CertificateSigningRequest.metadata',
    'certificates.v1.CertificateSigningRequestList.metadata',
    'networking.v1.IngressRule.http',
    'apiextensions.v1.JSONSchemaProps.additionalItems',
    'apiextensions.v1.JSONSchemaProps.additionalProperties',
    'apiextensions.v1.JSONSchemaProps.example',
    'apiextensions.v1.JSONSchemaProps.externalDocs',
    'apiextensions.v1.JSONSchemaProps.items',
    'apiextensions.v1.JSONSchemaProps.not',
  ]);
});
