import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { SeededRandom, VirtualClock, formatFieldError } from '../../core/index.ts';
import type { ClientWatchEvent } from '../../client/index.ts';
import { MemoryStore } from '../../storage/index.ts';
import { createLocalClient } from '../local-client.ts';
import { ApiServer } from '../server.ts';
import { rejection } from '../api-error.test-support.ts';
import { CustomResources } from './controller.ts';
import { selectableFieldLabels, validateCrdSelectableFields, validateSelectableFields } from './selectable-fields.ts';
import type { CustomResourceDefinitionVersion, JSONSchemaProps } from './types.ts';

const shirtSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string' } } },
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['blue', 'green'] },
        size: { type: 'string', format: 'byte' },
        sleeves: { type: 'integer' },
        pocket: { type: 'boolean' },
        weight: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' } },
        fit: { type: 'object', properties: { cut: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        any: { 'x-kubernetes-int-or-string': true },
      },
    },
  },
};

const formatted = (errors: ReturnType<typeof validateSelectableFields>): string[] => errors.map((e) => formatFieldError(e, { withField: true }));

test('selectableFields must be simple paths to string, boolean or integer fields of the schema, in upstream words', () => {
  const at = 'spec.selectableFields';
  const cases: [string, string[]][] = [
    ['.spec.color', []],
    ['.spec.size', []],
    ['.spec.sleeves', []],
    ['.spec.pocket', []],
    ['.spec.fit.cut', []],
    ['.spec.labels.team', []],
    ['', [`${at}[0].jsonPath: Required value`]],
    ['spec.color', [`${at}[0].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec`]],
    [".spec['color']", [`${at}[0].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed`]],
    ['.spec.tags[0]', [`${at}[0].jsonPath: Invalid value: ".spec.tags[0]": is an invalid path: array notation is not allowed`]],
    ['.spec.', [`${at}[0].jsonPath: Invalid value: ".spec.": is an invalid path: unexpected end of JSON path`]],
    ['.spec.colour', [`${at}[0].jsonPath: Invalid value: ".spec.colour": is an invalid path: does not refer to a valid field`]],
    ['.spec.color.x', [`${at}[0].jsonPath: Invalid value: ".spec.color.x": is an invalid path: does not refer to a valid field`]],
    ['.status.phase', [`${at}[0].jsonPath: Invalid value: ".status.phase": is an invalid path: does not refer to a valid field`]],
    ['.spec.weight', [`${at}[0].jsonPath: Invalid value: ".spec.weight": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['.spec.tags', [`${at}[0].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['.spec.fit', [`${at}[0].jsonPath: Invalid value: ".spec.fit": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['.spec.any', [`${at}[0].jsonPath: Invalid value: ".spec.any": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['.metadata.name', [`${at}[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata`]],
    [
      '.metadata',
      [
        `${at}[0].jsonPath: Invalid value: ".metadata": must not point to fields in metadata`,
        `${at}[0].jsonPath: Invalid value: ".metadata": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
      ],
    ],
  ];
  for (const [jsonPath, expected] of cases) assert.deepEqual(formatted(validateSelectableFields([{ jsonPath }], shirtSchema, at)), expected, jsonPath);
});

test('selectableFields may not repeat a field, and at most 8 distinct ones count', () => {
  const at = 'spec.versions[1].selectableFields';
  assert.deepEqual(formatted(validateSelectableFields([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.color' }], shirtSchema, at)), [`${at}[2].jsonPath: Duplicate value: ".spec.color"`]);
  const nine = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k) => ({ jsonPath: `.spec.labels.${k}` }));
  assert.deepEqual(formatted(validateSelectableFields(nine, shirtSchema, at)), [`${at}: Too many: 9: must have at most 8 items`]);
  assert.deepEqual(formatted(validateSelectableFields([...nine.slice(0, 8), { jsonPath: '.spec.labels.a' }], shirtSchema, at)), [`${at}[8].jsonPath: Duplicate value: ".spec.labels.a"`]);
});

test('selectableFields are checked where the internal CRD holds them: at the top when every version has the same ones', () => {
  const version = (name: string, jsonPaths: string[], schema: JSONSchemaProps = shirtSchema): CustomResourceDefinitionVersion => ({
    name,
    served: true,
    storage: name === 'v1',
    schema: { openAPIV3Schema: schema },
    ...(jsonPaths.length ? { selectableFields: jsonPaths.map((jsonPath) => ({ jsonPath })) } : {}),
  });
  const other: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { colour: { type: 'string' } } } } };
  const errors = (versions: CustomResourceDefinitionVersion[]): { versions: string[][]; spec: string[] } => {
    const found = validateCrdSelectableFields(versions);
    return { versions: found.versions.map(formatted), spec: formatted(found.spec) };
  };
  assert.deepEqual(errors([version('v1', ['.spec.weight'])]), { versions: [[]], spec: ['spec.selectableFields[0].jsonPath: Invalid value: ".spec.weight": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'] });
  assert.deepEqual(errors([version('v1', ['.spec.color']), version('v2', ['.spec.colour'], other)]), { versions: [[], []], spec: [] });
  assert.deepEqual(errors([version('v1', ['.spec.colour']), version('v2', ['.spec.colour'], other)]), { versions: [[], []], spec: ['spec.selectableFields: Invalid value: "": selectableFields may only be set when validations.schema is included'] });
  assert.deepEqual(errors([version('v1', ['.spec.color']), version('v2', [])]), {
    versions: [['spec.versions[0].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included'], []],
    spec: [],
  });
  assert.deepEqual(errors([version('v1', []), version('v2', [])]), { versions: [[], []], spec: [] });
});

test("a version's selectableFields become field labels, valued as upstream's GetAttrs values them", () => {
  const labels = selectableFieldLabels([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.sleeves' }, { jsonPath: '.spec.pocket' }, { jsonPath: '.spec.labels.team' }]);
  assert.deepEqual(Object.keys(labels), ['spec.color', 'spec.sleeves', 'spec.pocket', 'spec.labels.team']);
  const read = (spec: unknown): string[] => Object.values(labels).map((get) => get({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 's' }, spec } as KubeObject));
  assert.deepEqual(read({ color: 'blue', sleeves: 2, pocket: false, labels: { team: 'ml' } }), ['blue', '2', 'false', 'ml']);
  assert.deepEqual(read({ color: null }), ['', '', '', '']);
  assert.deepEqual(read(undefined), ['', '', '', '']);
  assert.deepEqual(read('plain'), ['', '', '', '']);
  assert.deepEqual(read({ labels: { constructor: 'x' } }), ['', '', '', '']);
});

const shirts = { group: 'stable.example.com', version: 'v1', resource: 'shirts' };
const shirtsV2 = { ...shirts, version: 'v2' };

const shirtCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: shirtSchema }, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.sleeves' }] },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { ...shirtSchema, description: 'v2' } }, selectableFields: [{ jsonPath: '.spec.pocket' }] },
    ],
  },
} as KubeObject;

async function serveCrds() {
  const server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions() });
  const crds = new CustomResources(server);
  await crds.start();
  return { client: createLocalClient(server), crds };
}

async function shirtServer() {
  const { client, crds } = await serveCrds();
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  await client.create(refs.customResourceDefinitions, shirtCrd);
  await crds.settled();
  const shirt = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name, namespace: 'default' }, spec });
  return { client, crds, shirt };
}

const names = (list: { items: readonly KubeObject[] }): (string | undefined)[] => list.items.map((i) => i.metadata.name);

test("list selects custom resources by the requested version's selectable fields; other labels are refused", async () => {
  const { client, shirt } = await shirtServer();
  await client.create(shirts, shirt('a', { color: 'blue', sleeves: 2, pocket: true }));
  await client.create(shirts, shirt('b', { color: 'green', sleeves: 0 }));
  await client.create(shirts, shirt('c', { color: 'blue' }));
  assert.deepEqual(names(await client.list(shirts, { namespace: 'default', fieldSelector: 'spec.color=blue' })), ['a', 'c']);
  assert.deepEqual(names(await client.list(shirts, { namespace: 'default', fieldSelector: 'spec.color=blue,spec.sleeves!=2' })), ['c']);
  assert.deepEqual(names(await client.list(shirts, { namespace: 'default', fieldSelector: 'spec.sleeves=' })), ['c']);
  assert.deepEqual(names(await client.list(shirts, { namespace: 'default', fieldSelector: 'metadata.name=b,metadata.namespace=default' })), ['b']);
  assert.deepEqual(names(await client.list(shirtsV2, { namespace: 'default', fieldSelector: 'spec.pocket=true' })), ['a']);
  assert.deepEqual(names(await client.list(shirtsV2, { namespace: 'default', fieldSelector: 'spec.pocket=' })), ['b', 'c']);
  const v2Only = await rejection(client.list(shirts, { namespace: 'default', fieldSelector: 'spec.pocket=true' }));
  assert.equal(v2Only.code, 400);
  assert.equal(v2Only.message, 'field label not supported: spec.pocket');
  const unknown = await rejection(client.list(shirtsV2, { namespace: 'default', fieldSelector: 'spec.color=blue' }));
  assert.equal(unknown.message, 'field label not supported: spec.color');
});

test('a selectable field added to the CRD selects from then on', async () => {
  const { client, crds, shirt } = await shirtServer();
  await client.create(shirts, shirt('a', { color: 'blue', pocket: true }));
  const crd = await client.get<KubeObject & { spec: { versions: CustomResourceDefinitionVersion[] } }>(refs.customResourceDefinitions, undefined, 'shirts.stable.example.com');
  const [v1, v2] = crd.spec.versions;
  await client.update(refs.customResourceDefinitions, { ...crd, spec: { ...crd.spec, versions: [{ ...v1, selectableFields: [...(v1?.selectableFields ?? []), { jsonPath: '.spec.pocket' }] }, v2] } } as KubeObject);
  await crds.settled();
  assert.deepEqual(names(await client.list(shirts, { namespace: 'default', fieldSelector: 'spec.pocket=true' })), ['a']);
});

test('a watch with a selectable field sees an object enter and leave the selection as ADDED and DELETED', async () => {
  const { client, shirt } = await shirtServer();
  await client.create(shirts, shirt('a', { color: 'green' }));
  const events: ClientWatchEvent[] = [];
  const watch = client.watch(shirts, { namespace: 'default', fieldSelector: 'spec.color=blue' }, (e) => events.push(e), () => {});
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  await settle();
  await client.create(shirts, shirt('b', { color: 'green' }));
  await client.patch(shirts, 'default', 'a', 'merge', { spec: { color: 'blue' } });
  await client.patch(shirts, 'default', 'a', 'merge', { spec: { sleeves: 1 } });
  await client.patch(shirts, 'default', 'a', 'merge', { spec: { color: 'green' } });
  await client.delete(shirts, 'default', 'b');
  await settle();
  assert.deepEqual(events.map((e) => [e.type, (e.object as KubeObject).metadata.name]), [['ADDED', 'a'], ['MODIFIED', 'a'], ['DELETED', 'a']]);
  watch.stop();
});

test('a CRD whose selectableFields are wrong is a 422 naming each, with the other CRD errors', async () => {
  const { client } = await serveCrds();
  const spec = shirtCrd.spec as { versions: CustomResourceDefinitionVersion[] };
  const v1 = { ...spec.versions[0], selectableFields: [{ jsonPath: '.spec.weight' }, { jsonPath: '.spec.color' }, { jsonPath: '.spec.color' }] };
  const single = { ...shirtCrd, spec: { ...spec, scope: 'Global', versions: [v1] } } as KubeObject;
  const err = await rejection(client.create(refs.customResourceDefinitions, single));
  assert.equal(err.code, 422);
  assert.equal(
    err.message,
    'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: [spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced", spec.selectableFields[0].jsonPath: Invalid value: ".spec.weight": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed., spec.selectableFields[2].jsonPath: Duplicate value: ".spec.color"]',
  );
  const v2 = { ...spec.versions[1], selectableFields: [{ jsonPath: '.metadata.name' }] };
  const multi = { ...shirtCrd, spec: { ...spec, versions: [spec.versions[0], v2] } } as KubeObject;
  const perVersion = await rejection(client.create(refs.customResourceDefinitions, multi));
  assert.equal(perVersion.message, 'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: spec.versions[1].selectableFields[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata');
});
