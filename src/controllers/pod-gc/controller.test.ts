// Scenario: pods bound to a deleted node are force-deleted after the 40 s quarantine; pods on live
// nodes are left alone. VirtualClock, in-process cluster, no kubelet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Pod } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { VirtualClock, isApiError } from '../../core/index.ts';
import { PodGCController } from './controller.ts';

test('pods of a deleted node are force-deleted after quarantine; others stay', async () => {
  const clock = new VirtualClock();
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, components: false });
  const client = cluster.client;
  for (const name of ['gone', 'alive']) await client.create(refs.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
  for (const [pod, node] of [['orphan', 'gone'], ['kept', 'alive']] as const) {
    await client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, namespace: 'default' }, spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }] } }, { namespace: 'default' });
  }
  const gc = new PodGCController({ client, clock, log: () => {} });
  gc.start();
  try {
    await clock.advance(1000);
    await client.delete(refs.nodes, undefined, 'gone');
    const exists = async (name: string): Promise<boolean> => {
      try {
        await client.get<Pod>(refs.pods, 'default', name);
        return true;
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') return false;
        throw error;
      }
    };
    // Seen missing at the 20 s pass, quarantined until 60 s, collected at the 60 s pass.
    await clock.advance(55_000);
    assert.equal(await exists('orphan'), true, 'still in quarantine');
    await clock.advance(10_000);
    assert.equal(await exists('orphan'), false, 'force-deleted');
    assert.equal(await exists('kept'), true);
  } finally {
    gc.stop();
  }
});
