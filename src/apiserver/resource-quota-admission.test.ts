// ResourceQuota admission as upstream's CheckRequest judges a pod: quotas are weighed by their
// status (what the controller last counted), every quota's constraints before any quota's limits,
// and zero amounts never exceed. In-process cluster without the quota controller: each test writes
// the status the controller would have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { PersistentVolumeClaim, Pod, ResourceQuota, StorageClass } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import { rejection } from './api-error.test-support.ts';

type Amounts = Record<string, string>;

const pod = (name: string, requests?: Amounts, limits?: Amounts): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'team-a' },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(requests ? { resources: { requests, ...(limits ? { limits } : {}) } } : {}) }] },
});

async function start(): Promise<Cluster> {
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  await cluster.client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  return cluster;
}

async function quota(cluster: Cluster, name: string, hard: Amounts, status?: { hard: Amounts; used: Amounts }): Promise<void> {
  const created = await cluster.client.create<ResourceQuota>(refs.resourceQuotas, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'team-a' }, spec: { hard } });
  if (status) await cluster.client.updateStatus<ResourceQuota>(refs.resourceQuotas, { ...created, status });
}

const message = async (promise: Promise<unknown>): Promise<string> => (await rejection(promise)).message;

test('a quota the controller has not counted yet does not hold a pod back', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { pods: '0' });
  await cluster.client.create(refs.pods, pod('early', { cpu: '100m' }));
});

test('status unknown names every resource the pod is measured by, counted or not', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { cpu: '2', pods: '5' }, { hard: { cpu: '2', pods: '5' }, used: { pods: '0' } });
  assert.equal(await message(cluster.client.create(refs.pods, pod('web', { cpu: '100m', memory: '1Mi' }))), 'pods "web" is forbidden: status unknown for quota: q, resources: cpu,pods');
});

test('every quota\'s constraints are checked before any quota\'s limits', async () => {
  await using cluster = await start();
  await quota(cluster, 'a-pods', { pods: '0' }, { hard: { pods: '0' }, used: { pods: '0' } });
  await quota(cluster, 'b-cpu', { cpu: '1' }, { hard: { cpu: '1' }, used: { cpu: '0' } });
  assert.equal(await message(cluster.client.create(refs.pods, pod('web'))), 'pods "web" is forbidden: failed quota: b-cpu: must specify cpu for: c');
  assert.equal(await message(cluster.client.create(refs.pods, pod('web', { cpu: '100m' }))), 'pods "web" is forbidden: exceeded quota: a-pods, requested: pods=1, used: pods=0, limited: pods=0');
});

test('a zero request is not weighed against a quota already over its limit', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { cpu: '1', 'requests.nvidia.com/gpu': '1' }, { hard: { cpu: '1', 'requests.nvidia.com/gpu': '1' }, used: { cpu: '2', 'requests.nvidia.com/gpu': '0' } });
  await cluster.client.create(refs.pods, pod('idle', { cpu: '0' }));
  assert.equal(await message(cluster.client.create(refs.pods, pod('busy', { cpu: '1m', 'nvidia.com/gpu': '2' }, { 'nvidia.com/gpu': '2' }))), 'pods "busy" is forbidden: exceeded quota: q, requested: cpu=1m,requests.nvidia.com/gpu=2, used: cpu=2,requests.nvidia.com/gpu=0, limited: cpu=1,requests.nvidia.com/gpu=1');
});

test('an in-place resize is charged what it grows by, and refused past the quota', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { cpu: '1', memory: '1Gi' }, { hard: { cpu: '1', memory: '1Gi' }, used: { cpu: '0', memory: '0' } });
  const resources = (cpu: string): Amounts => ({ cpu, memory: '100Mi' });
  await cluster.client.create<Pod>(refs.pods, { ...pod('web'), spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: resources('500m'), limits: resources('500m') } }] } });
  const resize = (cpu: string): Promise<Pod> =>
    cluster.client.patch<Pod>(refs.pods, 'team-a', 'web', 'strategic', { spec: { containers: [{ name: 'c', resources: { requests: { cpu }, limits: { cpu } } }] } }, { subresource: 'resize' });
  assert.equal(await message(resize('2')), 'pods "web" is forbidden: exceeded quota: q, requested: cpu=1500m, used: cpu=500m, limited: cpu=1');
  await resize('800m');
  const used = (await cluster.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'q')).status?.used;
  assert.deepEqual(used, { cpu: '800m', memory: '100Mi' });
});

const fastClass = 'fast.storageclass.storage.k8s.io/requests.storage';

async function boundClaim(cluster: Cluster, storage: string): Promise<void> {
  await cluster.client.create(refs.storageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/fast', allowVolumeExpansion: true });
  const created = await cluster.client.create<PersistentVolumeClaim>(refs.persistentVolumeClaims, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'team-a' },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage } } },
  });
  await cluster.client.updateStatus<PersistentVolumeClaim>(refs.persistentVolumeClaims, { ...created, status: { phase: 'Bound' } });
}

const expand = (cluster: Cluster, storage: string): Promise<PersistentVolumeClaim> =>
  cluster.client.patch<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'team-a', 'data', 'merge', { spec: { resources: { requests: { storage } } } });

test('a claim is charged its storage under its class too, and an expansion what it grows by, refused past the class quota', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { 'requests.storage': '5Gi', [fastClass]: '3Gi' }, { hard: { 'requests.storage': '5Gi', [fastClass]: '3Gi' }, used: { 'requests.storage': '0', [fastClass]: '0' } });
  await boundClaim(cluster, '1Gi');
  const used = async (): Promise<Amounts | undefined> => (await cluster.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'q')).status?.used;
  assert.deepEqual(await used(), { 'requests.storage': '1Gi', [fastClass]: '1Gi' });
  assert.equal(await message(expand(cluster, '4Gi')), `persistentvolumeclaims "data" is forbidden: exceeded quota: q, requested: ${fastClass}=3Gi, used: ${fastClass}=1Gi, limited: ${fastClass}=3Gi`);
  await expand(cluster, '2Gi');
  assert.deepEqual(await used(), { 'requests.storage': '2Gi', [fastClass]: '2Gi' });
});

test('a claim grows only when bound and its StorageClass allows expansion', async () => {
  await using cluster = await start();
  await boundClaim(cluster, '1Gi');
  const fast = await cluster.client.get<StorageClass>(refs.storageClasses, '', 'fast');
  await cluster.client.update<StorageClass>(refs.storageClasses, { ...fast, allowVolumeExpansion: false });
  assert.equal(await message(expand(cluster, '2Gi')), 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  await expand(cluster, '1Gi');
});

test('a service changing type is charged the node ports and load balancer it now takes', async () => {
  await using cluster = await start();
  await quota(cluster, 'q', { 'services.nodeports': '1', 'services.loadbalancers': '0' }, { hard: { 'services.nodeports': '1', 'services.loadbalancers': '0' }, used: { 'services.nodeports': '0', 'services.loadbalancers': '0' } });
  await cluster.client.create(refs.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'team-a' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  const retype = (type: string): Promise<unknown> => cluster.client.patch(refs.services, 'team-a', 'web', 'merge', { spec: { type } });
  await retype('NodePort');
  assert.deepEqual((await cluster.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'q')).status?.used, { 'services.nodeports': '1', 'services.loadbalancers': '0' });
  assert.equal(await message(retype('LoadBalancer')), 'services "web" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
});

test('a quota scoped to a VolumeAttributesClass holds back only the claims naming it', async () => {
  await using cluster = await start();
  const gold = { scopeSelector: { matchExpressions: [{ scopeName: 'VolumeAttributesClass' as const, operator: 'In' as const, values: ['gold'] }] } };
  const created = await cluster.client.create<ResourceQuota>(refs.resourceQuotas, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'gold', namespace: 'team-a' }, spec: { hard: { 'requests.storage': '1Gi' }, ...gold } });
  await cluster.client.updateStatus<ResourceQuota>(refs.resourceQuotas, { ...created, status: { hard: { 'requests.storage': '1Gi' }, used: { 'requests.storage': '0' } } });
  const claim = (name: string, vac?: string): PersistentVolumeClaim => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'team-a' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } }, ...(vac ? { volumeAttributesClassName: vac } : {}) },
  });
  await cluster.client.create(refs.persistentVolumeClaims, claim('plain'));
  await cluster.client.create(refs.persistentVolumeClaims, claim('silver', 'silver'));
  assert.equal(await message(cluster.client.create(refs.persistentVolumeClaims, claim('fast', 'gold'))), 'persistentvolumeclaims "fast" is forbidden: exceeded quota: gold, requested: requests.storage=2Gi, used: requests.storage=0, limited: requests.storage=1Gi');
});

test('a ResourceClaim is refused past a quota on the devices of its DeviceClass', async () => {
  await using cluster = await start();
  const gpus = 'gpu.nvidia.com.deviceclass.resource.k8s.io/devices';
  await quota(cluster, 'q', { [gpus]: '4' }, { hard: { [gpus]: '4' }, used: { [gpus]: '3' } });
  const claim = (count: number): KubeObject => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'train', namespace: 'team-a' },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count } }] } },
  });
  assert.equal(await message(cluster.client.create(refs.resourceClaims, claim(2))), `resourceclaims.resource.k8s.io "train" is forbidden: exceeded quota: q, requested: ${gpus}=2, used: ${gpus}=3, limited: ${gpus}=4`);
  await cluster.client.create(refs.resourceClaims, claim(1));
  assert.deepEqual((await cluster.client.get<ResourceQuota>(refs.resourceQuotas, 'team-a', 'q')).status?.used, { [gpus]: '4' });
});
