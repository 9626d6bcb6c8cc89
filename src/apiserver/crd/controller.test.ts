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

async function setup(): Promise<{ server: ApiServer; crds: CustomResources; client: ReturnType<typeof createLocalClient>; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions() });
  const crds = new CustomResources(server);
  await crds.start();
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { server, crds, client, clock };
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

type Crd = KubeObject & { status: { conditions: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[] } };

test('a deleted CRD waits for objects with finalizers of their own, refusing new ones, and goes once they are gone', async () => {
  const { server, crds, client, clock } = await setup();
  await client.create(crdRef, widgetCrd());
  await crds.settled();
  const created = await client.get<Crd>(crdRef, undefined, 'widgets.example.dev');
  assert.deepEqual(created.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  const widget = (name: string, finalizers?: string[]): KubeObject => ({ apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name, namespace: 'default', ...(finalizers ? { finalizers } : {}) } });
  await client.create(widgets, widget('held', ['example.com/hold']));
  await client.create(widgets, widget('free'));
  const events: string[] = [];
  const watch = client.watch(widgets, { namespace: 'default', resourceVersion: String(server.storage.store.revision()) }, (e) => events.push(`${e.type} ${(e.object as KubeObject).metadata?.name ?? ''}`));

  await client.delete(crdRef, undefined, 'widgets.example.dev');
  await crds.settled();
  const terminating = await client.get<Crd>(crdRef, undefined, 'widgets.example.dev');
  assert.ok(terminating.metadata.deletionTimestamp);
  assert.deepEqual(terminating.status.conditions.map((c) => [c.type, c.status, c.reason, c.message]), [
    ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
    ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ['Terminating', 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress'],
  ]);
  const held = await client.get(widgets, 'default', 'held');
  assert.ok(held.metadata.deletionTimestamp, 'marked, kept for its finalizer');
  assert.equal((await rejection(client.get(widgets, 'default', 'free'))).code, 404);

  const refused = await rejection(client.create(widgets, widget('late')));
  assert.deepEqual([refused.code, refused.reason, refused.message], [403, 'Forbidden', 'widgets.example.dev "late" is forbidden: create not allowed while custom resource definition is terminating']);
  const applied = await rejection(client.patch(widgets, 'default', 'late', 'apply', widget('late'), { fieldManager: 'test', dryRun: true }));
  assert.equal(applied.message, 'widgets.example.dev "late" is forbidden: create not allowed while custom resource definition is terminating');

  // A minute of polling, then the failure is recorded and the work queue tries again 5ms later.
  await clock.advance(60_000);
  await crds.settled();
  const checking = await client.get<Crd>(crdRef, undefined, 'widgets.example.dev');
  assert.deepEqual(checking.status.conditions.find((c) => c.type === 'Terminating'), {
    type: 'Terminating',
    status: 'True',
    reason: 'InstanceDeletionCheck',
    message: 'could not confirm zero CustomResources remaining: context deadline exceeded',
    lastTransitionTime: terminating.status.conditions.find((c) => c.type === 'Terminating')?.lastTransitionTime,
  });
  await clock.advance(5);
  await crds.settled();
  assert.equal((await client.get<Crd>(crdRef, undefined, 'widgets.example.dev')).status.conditions.find((c) => c.type === 'Terminating')?.reason, 'InstanceDeletionInProgress');
  assert.ok(server.index.find('example.dev', 'v1', 'widgets'), 'still served meanwhile');

  await client.patch(widgets, 'default', 'held', 'merge', { metadata: { finalizers: null } });
  await clock.advance(1_000);
  await crds.settled();
  assert.equal((await rejection(client.get(crdRef, undefined, 'widgets.example.dev'))).code, 404);
  assert.equal(server.index.find('example.dev', 'v1', 'widgets'), undefined);
  watch.stop();
  assert.deepEqual(events, ['DELETED free', 'MODIFIED held', 'DELETED held']);
});

test('a CRD that was never established is released at once, without deleting objects', async () => {
  const { crds, client } = await setup();
  await client.create(crdRef, widgetCrd());
  await crds.settled();
  await client.create(widgets, { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } });
  const gadgets = widgetCrd({ names: { plural: 'gadgets', kind: 'Widget' } });
  gadgets.metadata.name = 'gadgets.example.dev';
  await client.create(crdRef, gadgets);
  await crds.settled();
  const conflicting = await client.get<Crd>(crdRef, undefined, 'gadgets.example.dev');
  assert.deepEqual(conflicting.status.conditions.map((c) => [c.type, c.status, c.reason]), [['NamesAccepted', 'False', 'KindConflict'], ['Established', 'False', 'NotAccepted']]);
  await client.delete(crdRef, undefined, 'gadgets.example.dev');
  await crds.settled();
  assert.equal((await rejection(client.get(crdRef, undefined, 'gadgets.example.dev'))).code, 404);
  assert.equal((await client.get(widgets, 'default', 'w')).metadata.name, 'w');
});

test('a custom resource has generation 1 from create, bumped by any change but metadata, status counting only without a status subresource', async () => {
  const { crds, client } = await setup();
  const withStatus = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } };
  await client.create(crdRef, widgetCrd({ versions: [{ name: 'v1', served: true, storage: true, schema: withStatus }] }));
  await crds.settled();
  type Widget = KubeObject & { spec: { size: number }; status?: { ready: boolean } };
  const generation = async (): Promise<number | undefined> => (await client.get<Widget>(widgets, 'default', 'w')).metadata.generation;
  await client.create(widgets, { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size: 1 } });
  assert.equal(await generation(), 1);
  await client.patch(widgets, 'default', 'w', 'merge', { metadata: { labels: { a: 'b' } } });
  assert.equal(await generation(), 1, 'a metadata change keeps it');
  await client.patch(widgets, 'default', 'w', 'merge', { status: { ready: true } });
  assert.equal(await generation(), 2, 'without a status subresource, status is part of what counts');
  await client.patch(widgets, 'default', 'w', 'merge', { spec: { size: 2 } });
  assert.equal(await generation(), 3);

  const statusVersions = [{ name: 'v1', served: true, storage: true, schema: withStatus, subresources: { status: {} } }];
  const live = await client.get<KubeObject & { spec: Record<string, unknown> }>(crdRef, undefined, 'widgets.example.dev');
  await client.update(crdRef, { ...live, spec: { ...live.spec, versions: statusVersions } });
  await crds.settled();
  await client.patch(widgets, 'default', 'w', 'merge', { status: { ready: false } }, { subresource: 'status' });
  assert.equal(await generation(), 3, 'a status subresource write keeps it');
  await client.patch(widgets, 'default', 'w', 'merge', { spec: { size: 3 } });
  assert.equal(await generation(), 4);
});

test("a custom resource's scale fields are checked on every write, as its validator's ValidateScaleSpec/Status", async () => {
  const { crds, client } = await setup();
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
  await client.create(crdRef, widgetCrd({ versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {}, scale } }] }));
  await crds.settled();
  const widget = (name: string, spec: unknown): KubeObject => ({ apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name, namespace: 'default' }, spec } as KubeObject);
  const negative = await rejection(client.create(widgets, widget('n', { replicas: -1 })));
  assert.equal(negative.message, 'Widget.example.dev "n" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
  const text = await rejection(client.create(widgets, widget('t', { replicas: 'three' })));
  assert.equal(text.message, 'Widget.example.dev "t" is invalid: .spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64');
  const huge = await rejection(client.create(widgets, widget('h', { replicas: 2147483648 })));
  assert.equal(huge.message, 'Widget.example.dev "h" is invalid: .spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647');
  const notMap = await rejection(client.create(widgets, widget('m', 'flat')));
  assert.equal(notMap.message, 'Widget.example.dev "m" is invalid: .spec.replicas: Invalid value: 0: .spec.replicas accessor error: flat is of the type string, expected map[string]interface{}');

  await client.create(widgets, widget('w', { replicas: 1 }));
  const selector = await rejection(client.patch(widgets, 'default', 'w', 'merge', { status: { replicas: 1, selector: { app: 'w' } } }, { subresource: 'status' }));
  assert.equal(selector.message, 'Widget.example.dev "w" is invalid: .status.selector: Invalid value: "": .status.selector accessor error: map[app:w] is of the type map[string]interface {}, expected string');
  const scaledDown = await rejection(client.patch({ ...widgets }, 'default', 'w', 'merge', { spec: { replicas: -2 } }, { subresource: 'scale' }));
  assert.equal(scaledDown.message, 'Widget.example.dev "w" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer');
});

test('a scale write that creates the maps on the way to specReplicasPath owns the replicas field only, as ScaleHandler.ToParent', async () => {
  const { crds, client } = await setup();
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'object', properties: { replicas: { type: 'integer' } } } } } } } };
  const scale = { specReplicasPath: '.spec.a.replicas', statusReplicasPath: '.status.replicas' };
  await client.create(crdRef, widgetCrd({ versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { scale } }] }));
  await crds.settled();
  await client.create(widgets, { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: {} } as KubeObject, { fieldManager: 'creator' });
  const scaled = async (replicas: number, fieldManager: string): Promise<unknown[][]> => {
    await client.patch(widgets, 'default', 'w', 'merge', { spec: { replicas } }, { subresource: 'scale', fieldManager });
    const w = await client.get<KubeObject>(widgets, 'default', 'w');
    assert.deepEqual(w.spec, { a: { replicas } });
    return (w.metadata.managedFields ?? []).filter((m) => m.subresource === 'scale').map((m) => [m.manager, m.subresource, m.fieldsV1]);
  };
  assert.deepEqual(await scaled(3, 'hpa'), [['hpa', 'scale', { 'f:spec': { 'f:a': { 'f:replicas': {} } } }]]);
  // The field moves to the next scaler; the first keeps no entry behind.
  assert.deepEqual(await scaled(4, 'kubectl'), [['kubectl', 'scale', { 'f:spec': { 'f:a': { 'f:replicas': {} } } }]]);
});
