// The kubernetes Service and its endpoints as `kubectl get svc,ep,endpointslices` shows them on a
// fresh cluster: the API server's advertised address on 6443, kept every 10 s, without rewrites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { EndpointSlice, Endpoints, Service } from '../api/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';

test('default/kubernetes: Endpoints (skip-mirror) and EndpointSlice at 10.0.0.2:6443; the Service comes back if deleted', async () => {
  const clock = new VirtualClock();
  const c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(3), components: true });
  try {
    await clock.advance(0);
    const ep = await c.client.get<Endpoints>(refs.endpoints, 'default', 'kubernetes');
    assert.deepEqual(ep.metadata.labels, { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    const slice = await c.client.get<EndpointSlice>(refs.endpointSlices, 'default', 'kubernetes');
    assert.deepEqual([slice.metadata.labels, slice.addressType, slice.endpoints, slice.ports], [
      { 'kubernetes.io/service-name': 'kubernetes' },
      'IPv4',
      [{ addresses: ['10.0.0.2'], conditions: { ready: true } }],
      [{ name: 'https', port: 6443, protocol: 'TCP' }],
    ]);
    await clock.advance(30_000);
    const again = await c.client.get<EndpointSlice>(refs.endpointSlices, 'default', 'kubernetes');
    assert.equal(again.metadata.resourceVersion, slice.metadata.resourceVersion, 'an unchanged slice is not rewritten');

    await c.client.delete(refs.services, 'default', 'kubernetes');
    await clock.advance(10_000);
    await clock.advance(0);
    const svc = await c.client.get<Service>(refs.services, 'default', 'kubernetes');
    assert.deepEqual([svc.spec?.clusterIP, svc.spec?.ports?.[0]?.targetPort], ['10.96.0.1', 6443]);
  } finally {
    await c.stop();
  }
});
