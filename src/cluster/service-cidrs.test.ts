// Service IP ranges as a 1.35 cluster keeps them: the `kubernetes` ServiceCIDR Ready with its
// finalizer, an IPAddress for every cluster IP (gone with the Service), allocation from another
// ServiceCIDR once added, and a ServiceCIDR whose addresses are still in use held until they go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { IPAddress, Service, ServiceCIDR } from '../api/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { Cluster, clusterConfigFrom } from './index.ts';

async function start(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  return { c: await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(11), components: true }), clock };
}


async function maybe<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return undefined;
    throw error;
  }
}

const service = (name: string, clusterIP?: string): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ports: [{ port: 80 }], ...(clusterIP ? { clusterIP } : {}) } });
const addresses = async (c: Cluster): Promise<string[]> => (await c.client.list<IPAddress>(refs.ipAddresses)).items.map((ip) => `${ip.metadata.name} ${ip.spec?.parentRef?.resource}/${ip.spec?.parentRef?.namespace}/${ip.spec?.parentRef?.name}`).sort();

test('the kubernetes ServiceCIDR is Ready with its finalizer; every cluster IP has an IPAddress until its Service goes', async () => {
  const { c, clock } = await start();
  try {
    const ready = await clock.until(async () => {
      const sc = await c.client.get<ServiceCIDR>(refs.serviceCIDRs, undefined, 'kubernetes');
      // The API server's default-ServiceCIDR controller may mark it Ready first, in its own words; the
      // servicecidrs controller's sync (finalizer, then its Ready) is the state it settles in.
      return sc.metadata.finalizers?.length && sc.status?.conditions?.some((c) => c.message === 'Kubernetes Service CIDR is ready') ? sc : undefined;
    }, 'default ServiceCIDR');
    assert.deepEqual(ready.spec, { cidrs: ['10.96.0.0/12'] });
    assert.deepEqual(ready.metadata.finalizers, ['networking.k8s.io/service-cidr-finalizer']);
    assert.deepEqual(ready.status?.conditions?.map(({ lastTransitionTime: _t, ...rest }) => rest), [{ type: 'Ready', status: 'True', reason: '', message: 'Kubernetes Service CIDR is ready' }]);
    assert.equal(ready.metadata.generation, undefined);

    const web = await c.client.create<Service>(refs.services, service('web'));
    const ip = web.spec?.clusterIP ?? '';
    await clock.until(async () => (await addresses(c)).length === 2, 'IPAddress of web');
    assert.deepEqual((await addresses(c)).sort(), [`${ip} services/default/web`, '10.96.0.1 services/default/kubernetes'].sort());
    const record = await c.client.get<IPAddress>(refs.ipAddresses, undefined, ip);
    assert.deepEqual(record.metadata.labels, { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' });

    await c.client.delete(refs.services, 'default', 'web');
    await clock.until(async () => (await addresses(c)).length === 1, 'IPAddress released');
    // The released address can be taken again, statically.
    assert.equal((await c.client.create<Service>(refs.services, service('again', ip))).spec?.clusterIP, ip);
  } finally {
    await c.stop();
  }
});

test('an address held by another IPAddress is taken; a ServiceCIDR widens the ranges and is held while its addresses are used', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.ipAddresses, { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: '10.96.0.9' }, spec: { parentRef: { group: 'gateway.networking.k8s.io', resource: 'gateways', namespace: 'default', name: 'gw' } } });
    await assert.rejects(c.client.create(refs.services, service('taken', '10.96.0.9')), /failed to allocate IP 10\.96\.0\.9: provided IP is already allocated/);
    await assert.rejects(c.client.create(refs.services, service('far', '192.168.100.5')), /failed to allocate IP 192\.168\.100\.5: the provided network does not match the current range/);

    await c.client.create(refs.serviceCIDRs, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'extra' }, spec: { cidrs: ['192.168.100.0/28'] } });
    await c.client.create(refs.services, service('far', '192.168.100.5'));
    await clock.until(async () => (await addresses(c)).includes('192.168.100.5 services/default/far'), 'IPAddress of far');
    // The controller's finalizer is what holds a range in use; it is added after the create, as upstream.
    await clock.until(async () => (await c.client.get<ServiceCIDR>(refs.serviceCIDRs, undefined, 'extra')).metadata.finalizers?.length, 'finalizer of extra');

    await c.client.delete(refs.serviceCIDRs, undefined, 'extra');
    const held = await clock.until(async () => {
      const sc = await c.client.get<ServiceCIDR>(refs.serviceCIDRs, undefined, 'extra');
      return sc.status?.conditions?.find((x) => x.type === 'Ready' && x.status === 'False');
    }, 'Terminating');
    assert.equal(held.reason, 'Terminating');
    assert.equal(held.message, 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR');
    // A range being deleted takes no new addresses.
    await assert.rejects(c.client.create(refs.services, service('late', '192.168.100.6')), /the provided network does not match the current range/);

    await c.client.delete(refs.services, 'default', 'far');
    await clock.advance(5_000);
    assert.ok(await maybe(c.client.get(refs.serviceCIDRs, undefined, 'extra')), 'kept for the grace period');
    await clock.until(async () => !(await maybe(c.client.get(refs.serviceCIDRs, undefined, 'extra'))), 'extra deleted');
  } finally {
    await c.stop();
  }
});
