// API Priority and Fairness objects as a fresh 1.35 cluster has them: the bootstrap levels and
// schemas, every schema's Dangling condition, a deleted suggested schema coming back, and the
// exempt level's settings kept when an administrator changes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { FlowSchema, PriorityLevelConfiguration } from '../api/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';


test('bootstrap APF configuration: levels, schemas, Dangling conditions, recreation and the exempt settings', async () => {
  const clock = new VirtualClock();
  const c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(9), components: true });
  try {
    const levels = await clock.until(async () => {
      const names = (await c.client.list<PriorityLevelConfiguration>(refs.priorityLevelConfigurations)).items.map((p) => p.metadata.name ?? '').sort();
      return names.length === 8 && names;
    }, 'the bootstrap levels');
    assert.deepEqual(levels, ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    // The bootstrap creates the schemas one write at a time: wait for all eleven, not for whichever
    // have been created and judged so far.
    const schemas = await clock.until(async () => {
      const items = (await c.client.list<FlowSchema>(refs.flowSchemas)).items;
      return items.length >= 11 && items.every((fs) => fs.status?.conditions?.length) && items;
    }, 'Dangling conditions');
    assert.equal(schemas.length, 11);
    const probes = schemas.find((fs) => fs.metadata.name === 'probes');
    assert.deepEqual(probes?.status?.conditions?.map(({ lastTransitionTime: _t, ...rest }) => rest), [
      { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "exempt" and it exists' },
    ]);
    assert.equal(probes?.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true');

    await c.client.create(refs.flowSchemas, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' }, spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 5000, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }] }] } });
    const orphan = await clock.until(async () => (await c.client.get<FlowSchema>(refs.flowSchemas, undefined, 'orphan')).status?.conditions?.[0], 'orphan judged');
    assert.deepEqual([orphan.status, orphan.reason], ['True', 'NotFound']);

    await c.client.delete(refs.flowSchemas, undefined, 'service-accounts');
    await clock.until(async () => {
      try {
        return await c.client.get(refs.flowSchemas, undefined, 'service-accounts');
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') return undefined;
        throw error;
      }
    }, 'service-accounts recreated');

    await c.client.patch(refs.priorityLevelConfigurations, undefined, 'exempt', 'merge', { spec: { exempt: { nominalConcurrencyShares: 10 } } });
    await clock.advance(1_000);
    const exempt = await c.client.get<PriorityLevelConfiguration>(refs.priorityLevelConfigurations, undefined, 'exempt');
    assert.deepEqual(exempt.spec?.exempt, { nominalConcurrencyShares: 10, lendablePercent: 0 });
    await assert.rejects(c.client.patch(refs.priorityLevelConfigurations, undefined, 'catch-all', 'merge', { spec: { limited: { nominalConcurrencyShares: 6 } } }), /spec of 'catch-all' must equal the fixed value/);
  } finally {
    await c.stop();
  }
});
