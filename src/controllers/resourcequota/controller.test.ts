// ResourceQuota end to end in process: the controller fills status.hard and status.used, admission
// refuses what would exceed it in upstream's words (and what does not name its cpu), charges what it
// admits, and finished or deleted pods give their share back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs } from '../../api/index.ts';
import type { Pod, ResourceQuota } from '../../api/index.ts';
import { Cluster, clusterConfigFrom } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../../core/index.ts';

const fixture = <T>(name: string): T => parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/quota', name), 'utf8')) as T;

test('a GPU quota: counted by the controller, enforced and charged by admission, replenished when a pod goes', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'gpu', count: 1, capacity: { cpu: '16', memory: '64Gi' }, gpus: { model: 'H100-80GB', count: 4, expose: 'device-plugin' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(2), components: true, log: () => {} });
  try {
    await c.client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    // A pod from before the quota: admission has seen the namespace without one, and must notice the new one.
    const early: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'early', namespace: 'team-a' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '500m' } } }] } };
    await c.client.create(refs.pods, early, { namespace: 'team-a' });
    await c.client.create(refs.resourceQuotas, fixture<ResourceQuota>('gpu-quota.yaml'), { namespace: 'team-a' });
    await clock.advance(1_000);
    const status = async (): Promise<ResourceQuota['status']> => (await c.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'gpu-quota')).status;
    assert.deepEqual(await status(), { hard: { 'requests.nvidia.com/gpu': '2', 'requests.cpu': '4', pods: '5' }, used: { 'requests.nvidia.com/gpu': '0', 'requests.cpu': '500m', pods: '1' } });
    const trainer = fixture<Pod>('trainer.yaml');
    await c.client.create(refs.pods, trainer, { namespace: 'team-a' });
    assert.deepEqual((await status())?.used, { 'requests.nvidia.com/gpu': '2', 'requests.cpu': '1500m', pods: '2' }, 'charged at admission');
    await assert.rejects(c.client.create(refs.pods, { ...trainer, metadata: { ...trainer.metadata, name: 'trainer-1' } }, { namespace: 'team-a' }), {
      message: 'pods "trainer-1" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=2',
    });
    const noCpu: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } };
    await assert.rejects(c.client.create(refs.pods, noCpu, { namespace: 'team-a' }), { message: 'pods "web" is forbidden: failed quota: gpu-quota: must specify requests.cpu for: nginx' });
    // A finished pod's compute no longer counts.
    await clock.advance(2_000);
    const running = await c.client.get<Pod>(refs.pods, 'team-a', 'trainer-0');
    await c.client.updateStatus<Pod>(refs.pods, { ...running, status: { ...running.status, phase: 'Succeeded' } });
    await clock.advance(1_000);
    assert.deepEqual((await status())?.used, { 'requests.nvidia.com/gpu': '0', 'requests.cpu': '500m', pods: '1' });
    await c.client.create(refs.pods, { ...trainer, metadata: { ...trainer.metadata, name: 'trainer-1' } }, { namespace: 'team-a' });
  } finally {
    await c.stop();
  }
});

test('a service turned back from LoadBalancer gives its load balancer back without waiting for the resync', async () => {
  const clock = new VirtualClock();
  const c = await Cluster.start({ config: clusterConfigFrom({ nodePools: [] }), clock, random: new SeededRandom(3), components: true, log: () => {} });
  try {
    await c.client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    await c.client.create(refs.resourceQuotas, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'lb', namespace: 'team-a' }, spec: { hard: { 'services.loadbalancers': '1' } } });
    await c.client.create(refs.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'team-a' }, spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ port: 80 }] } });
    await clock.advance(1_000);
    const used = async (): Promise<Record<string, string> | undefined> => (await c.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'lb')).status?.used;
    assert.deepEqual(await used(), { 'services.loadbalancers': '1' });
    await c.client.patch(refs.services, 'team-a', 'web', 'merge', { spec: { type: 'ClusterIP' } });
    await clock.advance(1_000);
    assert.deepEqual(await used(), { 'services.loadbalancers': '0' });
  } finally {
    await c.stop();
  }
});
