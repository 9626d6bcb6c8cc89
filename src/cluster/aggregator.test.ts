// The aggregator's APIServices as `kubectl get apiservices` shows them: one Local, Available entry per
// served group-version (built-in, metrics.k8s.io, each CRD's), and the remote availability checks of
// an APIService that names a Service, in upstream's reasons and words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { APIService, Service } from '../api/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { automanagedLabel } from './aggregator.ts';
import { widgetCrd } from './widget-crd.test-helpers.ts';
import { Cluster, clusterConfigFrom } from './index.ts';


async function start(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  return { c: await Cluster.start({ config, clock, random: new SeededRandom(5), components: true }), clock };
}


const available = (a: APIService | undefined): string => {
  const c = a?.status?.conditions?.find((x) => x.type === 'Available');
  return c ? `${c.status} ${c.reason ?? ''}: ${c.message ?? ''}` : 'none';
};

async function apiService(c: Cluster, name: string): Promise<APIService | undefined> {
  try {
    return await c.client.get<APIService>(refs.apiServices, undefined, name);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return undefined;
    throw error;
  }
}

test('every served built-in group-version, and metrics.k8s.io, has a Local APIService that is Available', async () => {
  const { c } = await start();
  try {
    const list = await c.client.list<APIService>(refs.apiServices);
    const names = list.items.map((a) => a.metadata.name);
    for (const name of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.autoscaling', 'v1.resource.k8s.io', 'v1.admissionregistration.k8s.io', 'v1beta1.metrics.k8s.io']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    const core = list.items.find((a) => a.metadata.name === 'v1.');
    assert.deepEqual(core?.spec, { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    assert.equal(core?.metadata.labels?.[automanagedLabel], 'onstart');
    for (const a of list.items) assert.equal(available(a), 'True Local: Local APIServices are always available', a.metadata.name);
  } finally {
    await c.stop();
  }
});

test('a CRD group-version gets an APIService while a CRD serves it, and loses it after', async () => {
  const { c, clock } = await start();
  try {
    await c.client.create(refs.customResourceDefinitions, widgetCrd(['v1alpha1']));
    const registered = await clock.until(() => apiService(c, 'v1.example.com'), 'the CRD APIService');
    assert.deepEqual(registered.spec, { group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    assert.equal(registered.metadata.labels?.[automanagedLabel], 'true');
    assert.equal(available(registered), 'True Local: Local APIServices are always available');
    assert.equal(await apiService(c, 'v1alpha1.example.com'), undefined, 'a version not served has none');
    await c.client.delete(refs.customResourceDefinitions, undefined, 'widgets.example.com');
    await clock.until(async () => (await apiService(c, 'v1.example.com')) === undefined, 'the CRD APIService removed');
  } finally {
    await c.stop();
  }
});

test('an APIService behind a Service: ServiceNotFound, ServicePortError, MissingEndpoints, then a failed discovery check', async () => {
  const { c, clock } = await start();
  try {
    const name = 'v1alpha1.wardle.example.com';
    await c.client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wardle' } });
    await c.client.create(refs.apiServices, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name },
      spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, insecureSkipTLSVerify: true, service: { namespace: 'wardle', name: 'api' } },
    });
    const reads = (want: string): Promise<APIService> => clock.until(async () => {
      const a = await apiService(c, name);
      return available(a).startsWith(want) ? a : undefined;
    }, want);
    const first = await reads('False ServiceNotFound');
    assert.equal(available(first), 'False ServiceNotFound: service/api in "wardle" is not present');
    assert.equal(first.spec.service?.port, 443, 'the port defaults to 443');
    const service: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: 'wardle' }, spec: { selector: { app: 'api' }, ports: [{ name: 'https', port: 8443, targetPort: 443 }] } } as Service;
    await c.client.create(refs.services, service);
    assert.equal(available(await reads('False ServicePortError')), 'False ServicePortError: service/api in "wardle" is not listening on port 443');
    const live = await c.client.get<Service>(refs.services, 'wardle', 'api');
    await c.client.update(refs.services, { ...live, spec: { ...live.spec, ports: [{ name: 'https', port: 443, targetPort: 443, protocol: 'TCP' }] } });
    assert.equal(available(await reads('False MissingEndpoints')), 'False MissingEndpoints: endpointslices for service/api in "wardle" have no addresses with port name "https"');
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'api-0', namespace: 'wardle', labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'wardle:v1' }] } });
    const failed = await reads('False FailedDiscoveryCheck');
    const ip = live.spec?.clusterIP ?? '';
    const url = `https://${ip}:443/apis/wardle.example.com/v1alpha1`;
    assert.equal(available(failed), `False FailedDiscoveryCheck: failing or missing response from ${url}: Get "${url}": dial tcp ${ip}:443: connect: connection refused`);
  } finally {
    await c.stop();
  }
});
