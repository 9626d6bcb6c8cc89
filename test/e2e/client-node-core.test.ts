// @kubernetes/client-node against `drydock up`: list, create, watch and patch, as an
// operator author's code would do them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

describe('@kubernetes/client-node smoke test', () => {
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

  test('lists namespaces', async () => {
    const api = kc.makeApiClient(CoreV1Api);
    const list = await api.listNamespace();
    assert.deepEqual(list.items.map((n) => n.metadata?.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  test('creates a config map and sees it through a watch, then patches it', async () => {
    const api = kc.makeApiClient(CoreV1Api);
    const events: string[] = [];
    const watch = new Watch(kc);
    let seenPatched: () => void = () => {};
    const patched = new Promise<void>((resolve) => (seenPatched = resolve));
    // A field selector, as the namespace also holds the root CA publisher's kube-root-ca.crt.
    const request = await watch.watch('/api/v1/namespaces/default/configmaps', { fieldSelector: 'metadata.name=settings' }, (type, obj: { metadata?: { name?: string }; data?: Record<string, string> }) => {
      events.push(`${type} ${obj.metadata?.name ?? ''} ${obj.data?.mode ?? ''}`);
      if (type === 'MODIFIED' && obj.data?.mode === 'slow') seenPatched();
    }, () => {});
    const created = await api.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
    assert.equal(created.metadata?.name, 'settings');
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    await api.patchNamespacedConfigMap(
      { namespace: 'default', name: 'settings', body: [{ op: 'replace', path: '/data/mode', value: 'slow' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    await patched;
    request.abort();
    assert.deepEqual(events, ['ADDED settings fast', 'MODIFIED settings slow']);
  });

  test('a merge patch and a get return the stored object', async () => {
    const api = kc.makeApiClient(CoreV1Api);
    await api.patchNamespacedConfigMap(
      { namespace: 'default', name: 'settings', body: { metadata: { labels: { team: 'ml' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const cm = await api.readNamespacedConfigMap({ namespace: 'default', name: 'settings' });
    assert.equal(cm.metadata?.labels?.team, 'ml');
    assert.equal(cm.data?.mode, 'slow');
  });

  test('deleteCollection removes the config maps a label selector picks, and only those', async () => {
    const api = kc.makeApiClient(CoreV1Api);
    for (const [name, batch] of [['run-1', 'old'], ['run-2', 'old'], ['run-3', 'new']] as const) {
      await api.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name, labels: { batch } } } });
    }
    // The answer is the list as read (typed here as the V1Status the client expects).
    await api.deleteCollectionNamespacedConfigMap({ namespace: 'default', labelSelector: 'batch=old' });
    const left = await api.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'batch' });
    assert.deepEqual(left.items.map((c) => c.metadata?.name), ['run-3']);
  });

  test('a missing object is a 404 with the upstream message', async () => {
    const api = kc.makeApiClient(CoreV1Api);
    await assert.rejects(api.readNamespacedConfigMap({ namespace: 'default', name: 'nope' }), (error: { code?: number; body?: string }) => {
      assert.equal(error.code, 404);
      assert.match(String(error.body), /configmaps \\"nope\\" not found|configmaps "nope" not found/);
      return true;
    });
  });
});
