// @kubernetes/client-node against `drydock up` as an operator author uses it: create a CRD,
// wait for it to be established, create a custom object and follow it with an Informer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, CustomObjectsApi, KubeConfig, makeInformer, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { KubernetesListObject, KubernetesObject, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

interface Widget extends KubernetesObject {
  spec?: { size?: number; color?: string };
}

const crd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.dev' },
  spec: {
    group: 'example.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string', _default: 'blue' } } } } } },
    }],
  },
};

describe('@kubernetes/client-node with custom resources', () => {
  let dd: Drydock;
  let kc: KubeConfig;
  before(async () => {
    dd = await startDrydock({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n' });
    kc = new KubeConfig();
    kc.loadFromFile(dd.kubeconfig);
  });
  after(async () => {
    await dd?.stop();
  });

  test('a CRD becomes Established and its objects reach an Informer', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: crd });
    let established = false;
    // Establishing is asynchronous (a controller in the server); each read is a round trip.
    for (let i = 0; i < 200 && !established; i++) {
      const got = await ext.readCustomResourceDefinition({ name: 'widgets.example.dev' });
      established = got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    }
    assert.ok(established, 'Established');

    const api = kc.makeApiClient(CustomObjectsApi);
    const ref = { group: 'example.dev', version: 'v1', namespace: 'default', plural: 'widgets' };
    const informer = makeInformer<Widget>(kc, '/apis/example.dev/v1/namespaces/default/widgets', () =>
      api.listNamespacedCustomObject(ref) as Promise<KubernetesListObject<Widget>>);
    const seen: string[] = [];
    let onUpdated: () => void = () => {};
    const updated = new Promise<void>((resolve) => (onUpdated = resolve));
    informer.on('add', (w) => seen.push(`add ${w.metadata?.name ?? ''} ${w.spec?.color ?? ''}`));
    informer.on('update', (w) => {
      seen.push(`update ${w.metadata?.name ?? ''} ${w.spec?.size ?? ''}`);
      onUpdated();
    });
    await informer.start();
    try {
      const created = (await api.createNamespacedCustomObject({ ...ref, body: { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } } })) as Widget;
      assert.equal(created.spec?.color, 'blue', 'schema default');
      await api.patchNamespacedCustomObject({ ...ref, name: 'w1', body: { spec: { size: 2 } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await updated;
      assert.deepEqual(seen, ['add w1 blue', 'update w1 2']);
      assert.equal(informer.get('w1', 'default')?.spec?.size, 2);
    } finally {
      await informer.stop();
    }
  });
});
