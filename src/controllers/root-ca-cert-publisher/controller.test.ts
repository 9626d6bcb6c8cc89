// Scenario: the root CA publisher puts `kube-root-ca.crt` (the CA bundle and upstream's description
// annotation) in every namespace, puts it back when deleted and restores its data when edited,
// keeping other edits. VirtualClock, in-process cluster, no other controller.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { ConfigMap } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { VirtualClock } from '../../core/index.ts';
import { RootCaCertPublisher, rootCaConfigMapName } from './controller.ts';

const rootCA = '-----BEGIN CERTIFICATE-----\nMIIBgTCCASegAwIBAgIJAKT4\n-----END CERTIFICATE-----\n';

test('kube-root-ca.crt: published in every namespace, put back when deleted, its data restored when edited', async () => {
  const clock = new VirtualClock();
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  const published = (namespace: string): Promise<ConfigMap> => client.get<ConfigMap>(refs.configMaps, namespace, rootCaConfigMapName);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  const controller = new RootCaCertPublisher({ client, clock, log: () => {}, rootCA });
  controller.start();
  try {
    await clock.advance(100);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team-a']) {
      const cm = await published(ns);
      assert.deepEqual(cm.data, { 'ca.crt': rootCA }, ns);
      assert.equal(cm.metadata.annotations?.['kubernetes.io/description'], 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.');
    }

    await client.delete(refs.configMaps, 'team-a', rootCaConfigMapName);
    await clock.advance(100);
    assert.deepEqual((await published('team-a')).data, { 'ca.crt': rootCA }, 'put back');

    await client.patch(refs.configMaps, 'team-a', rootCaConfigMapName, 'merge', { metadata: { labels: { team: 'a' } }, data: { 'ca.crt': 'edited', extra: 'x' } });
    await clock.advance(100);
    const restored = await published('team-a');
    assert.deepEqual(restored.data, { 'ca.crt': rootCA });
    assert.deepEqual(restored.metadata.labels, { team: 'a' }, 'other edits stay');
  } finally {
    controller.stop();
  }
});
