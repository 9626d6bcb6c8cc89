import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';
import { MemoryStore } from '../../storage/index.ts';
import { createLocalClient } from '../local-client.ts';
import { ApiServer } from '../server.ts';
import { CustomResources } from './controller.ts';
import { rejection } from '../api-error.test-support.ts';

const crdRef = refs.customResourceDefinitions;
const widgets = { group: 'example.dev', version: 'v1', resource: 'widgets' };

function widgetCrd(overrides: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.dev' },
    spec: {
      group: 'example.dev',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      ...overrides,
    },
  } as KubeObject;
}

async function setup(): Promise<{ server: ApiServer; crds: CustomResources; client: ReturnType<typeof createLocalClient> }> {
  const server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions() });
  const crds = new CustomResources(server);
  await crds.start();
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { server, crds, client };
}

test('a created CRD is defaulted, Established and served; deleting it removes its objects', async () => {
  const { server, crds, client } = await setup();
  await client.create(crdRef, widgetCrd());
  await crds.settled();
  const crd = await client.get<KubeObject & { spec: { names: Record<string, string> }; status: { conditions: { type: string; status: string; reason: string }[] } }>(crdRef, undefined, 'widgets.example.dev');
  assert.deepEqual(crd.spec.names, { plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
  assert.deepEqual(crd.status.conditions.map((c) => [c.type, c.status, c.reason]), [['NamesAccepted', 'True', 'NoConflicts'], ['Established', 'True', 'InitialNamesAccepted']]);
  assert.ok(server.index.find('example.dev', 'v1', 'widgets'));

  await client.create(widgets, { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size: 1 } });
  const bad = await rejection(client.create(widgets, { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'x', namespace: 'default' }, spec: { size: 'big' } }));
  assert.equal(bad.message, 'Widget.example.dev "x" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"');
  const smp = await rejection(client.patch(widgets, 'default', 'w', 'strategic', { spec: { size: 2 } }));
  assert.equal(smp.code, 415);

  await client.delete(crdRef, undefined, 'widgets.example.dev');
  await crds.settled();
  await crds.settled();
  assert.equal(server.index.find('example.dev', 'v1', 'widgets'), undefined);
  assert.equal((await server.storage.store.list('/registry/example.dev/widgets/')).items.length, 0);
  const gone = await rejection(client.get(crdRef, undefined, 'widgets.example.dev'));
  assert.equal(gone.code, 404);
});

test('an invalid CRD is a 422 naming each field', async () => {
  const { client } = await setup();
  const err = await rejection(client.create(crdRef, widgetCrd({ scope: 'Global', group: 'example' })));
  assert.equal(err.message, 'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.dev" is invalid: [metadata.name: Invalid value: "widgets.example.dev": must be spec.names.plural+"."+spec.group, spec.group: Invalid value: "example": should be a domain with at least one dot, spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"]');
});
