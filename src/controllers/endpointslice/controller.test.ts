// Scenario tests for the EndpointSlice and Endpoints controllers on an in-process cluster with
// kubelets: a Service's slices and Endpoints follow its pods' IPs, readiness, named target ports
// and termination, and go away with the Service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { EndpointSlice, Endpoints, Pod, Service } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

async function startCluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 2, capacity: { cpu: '8', memory: '16Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true, log: () => {} });
  return { c, clock };
}

const pod = (name: string, annotations: Record<string, string> = {}): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'api' }, annotations }, spec: { containers: [{ name: 'server', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] } }) as Pod;
const service: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', labels: { team: 'ml' } }, spec: { selector: { app: 'api' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] } };

const slices = async (c: Cluster): Promise<EndpointSlice[]> => (await c.client.list<EndpointSlice>(refs.endpointSlices, { namespace: 'default', labelSelector: 'kubernetes.io/service-name=api' })).items;
const endpoints = (c: Cluster): Promise<Endpoints> => c.client.get<Endpoints>(refs.endpoints, 'default', 'api');

test('slices and Endpoints list the selected pods on the named target port, with readiness and termination', async () => {
  const { c, clock } = await startCluster();
  try {
    await c.client.create(refs.services, service, { namespace: 'default' });
    await c.client.create(refs.pods, pod('api-0'), { namespace: 'default' });
    // api-1 never passes its readiness probe.
    const unready = pod('api-1', { 'sim.drydock.dev/server': 'ready: never' });
    unready.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 };
    await c.client.create(refs.pods, unready, { namespace: 'default' });
    await clock.advance(5_000);
    const ips = Object.fromEntries((await c.client.list<Pod>(refs.pods, { namespace: 'default' })).items.map((p) => [p.metadata.name, p.status?.podIP]));
    const [slice, ...more] = await slices(c);
    assert.equal(more.length, 0);
    assert.deepEqual(slice?.ports, [{ name: 'web', protocol: 'TCP', port: 8080 }]);
    assert.deepEqual(slice?.endpoints?.map((e) => [e.targetRef?.name, e.addresses[0] === ips[e.targetRef?.name ?? ''], e.conditions]), [
      ['api-0', true, { ready: true, serving: true, terminating: false }],
      ['api-1', true, { ready: false, serving: false, terminating: false }],
    ]);
    assert.deepEqual([slice?.metadata.labels, slice?.metadata.ownerReferences?.[0]?.kind], [{ team: 'ml', 'kubernetes.io/service-name': 'api', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' }, 'Service']);
    const ep = await endpoints(c);
    assert.deepEqual(ep.subsets?.map((s) => [s.addresses?.map((a) => a.targetRef?.name), s.notReadyAddresses?.map((a) => a.targetRef?.name), s.ports]), [[['api-0'], ['api-1'], [{ name: 'web', port: 8080, protocol: 'TCP' }]]]);
    // A terminating pod stays in the slice (serving, not ready) but leaves the Endpoints.
    const graceful = pod('api-2', { 'sim.drydock.dev/server': 'stopDelay: 20s' });
    await c.client.create(refs.pods, graceful, { namespace: 'default' });
    await clock.advance(3_000);
    await c.client.delete(refs.pods, 'default', 'api-2');
    await clock.advance(2_000);
    const terminating = (await slices(c))[0]?.endpoints?.find((e) => e.targetRef?.name === 'api-2');
    assert.deepEqual(terminating?.conditions, { ready: false, serving: true, terminating: true });
    assert.ok(!(await endpoints(c)).subsets?.some((s) => [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])].some((a) => a.targetRef?.name === 'api-2')));
    await c.client.delete(refs.services, 'default', 'api');
    await clock.advance(3_000);
    assert.deepEqual(await slices(c), []);
    await assert.rejects(endpoints(c), /not found/);
  } finally {
    await c.stop();
  }
});
