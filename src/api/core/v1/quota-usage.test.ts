import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from './pod/types.ts';
import type { ResourceQuota } from './resource-quota.ts';
import { addUsage, countedBy, exceededResources, negativeUsage, objectMatchingResources, objectUsage, podUsage, quotaCoversObject, quotaCoversPod } from './quota-usage.ts';

const pod = (spec: Partial<Pod['spec']>, phase = 'Running'): Pod => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], ...spec }, status: { phase } }) as Pod;
const now = Date.parse('2026-01-01T00:00:00Z');

test('a pod counts its effective requests (sidecars and init containers as the scheduler sums them), cpu and memory limits, and extended requests', () => {
  const p = pod({
    initContainers: [
      { name: 'sidecar', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: '250m', memory: '128Mi' } } },
      { name: 'migrate', image: 'x', resources: { requests: { cpu: '2' } } },
    ],
    containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '500m', memory: '1Gi', 'nvidia.com/gpu': '1' }, limits: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' } } }],
  });
  assert.deepEqual(podUsage(p, now), {
    'count/pods': '1',
    pods: '1',
    cpu: '2250m',
    'requests.cpu': '2250m',
    memory: '1152Mi',
    'requests.memory': '1152Mi',
    'requests.nvidia.com/gpu': '1',
    'limits.cpu': '1',
    'limits.memory': '1Gi',
  });
  assert.deepEqual(podUsage({ ...p, status: { phase: 'Succeeded' } }, now), { 'count/pods': '1' }, 'a finished pod keeps only its object count');
});

test('objects count under count/ and legacy names; claims add their storage; sums and overruns', () => {
  assert.deepEqual(objectUsage('', 'persistentvolumeclaims', { spec: { resources: { requests: { storage: '10Gi' } } } }), { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '10Gi' });
  assert.deepEqual(objectUsage('apps', 'deployments', {}), { 'count/deployments.apps': '1' });
  assert.deepEqual(addUsage({ 'requests.cpu': '500m' }, { 'requests.cpu': '1500m', pods: '1' }), { 'requests.cpu': '2', pods: '1' });
  assert.deepEqual(exceededResources({ 'requests.cpu': '2', pods: '1' }, { 'requests.cpu': '1500m', pods: '3' }), ['requests.cpu']);
});

test('scopes: BestEffort, NotTerminating and PriorityClass select the pods a quota covers', () => {
  const quota = (spec: NonNullable<ResourceQuota['spec']>): ResourceQuota => ({ metadata: { name: 'q' }, spec });
  const besteffort = pod({ containers: [{ name: 'a', image: 'x' }] });
  const high = pod({ priorityClassName: 'high', containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '1' } } }] });
  assert.equal(quotaCoversPod(quota({ scopes: ['BestEffort'] }), besteffort), true);
  assert.equal(quotaCoversPod(quota({ scopes: ['BestEffort'] }), high), false);
  assert.equal(quotaCoversPod(quota({ scopes: ['NotTerminating'] }), high), true);
  assert.equal(quotaCoversPod(quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }), high), true);
  assert.equal(quotaCoversPod(quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }), besteffort), false);
});

test('a claim counts under its storage class too, the larger of its request and allocation, in whole bytes', () => {
  const claim = (storage: string, allocated?: string, annotations?: Record<string, string>): Parameters<typeof objectUsage>[2] => ({
    metadata: { ...(annotations ? { annotations } : {}) },
    spec: { storageClassName: 'fast', resources: { requests: { storage } } },
    ...(allocated ? { status: { allocatedResources: { storage: allocated } } } : {}),
  });
  const byClass = (cls: string, r: string): string => `${cls}.storageclass.storage.k8s.io/${r}`;
  assert.deepEqual(objectUsage('', 'persistentvolumeclaims', claim('1Gi', '3Gi')), {
    'count/persistentvolumeclaims': '1',
    persistentvolumeclaims: '1',
    [byClass('fast', 'persistentvolumeclaims')]: '1',
    'requests.storage': '3Gi',
    [byClass('fast', 'requests.storage')]: '3Gi',
  });
  assert.equal(objectUsage('', 'persistentvolumeclaims', claim('1500m'))['requests.storage'], '2');
  assert.equal(objectUsage('', 'persistentvolumeclaims', claim('1Gi', undefined, { 'volume.beta.kubernetes.io/storage-class': 'old' }))[byClass('old', 'requests.storage')], '1Gi');
  assert.equal(countedBy(byClass('fast', 'requests.storage')), 'count/persistentvolumeclaims');
  assert.deepEqual(objectMatchingResources('', 'persistentvolumeclaims', ['pods', byClass('gold', 'persistentvolumeclaims'), 'requests.storage']), [byClass('gold', 'persistentvolumeclaims'), 'requests.storage']);
});

test('a service measures node ports and load balancers for every type, node ports only where asked when a load balancer suppresses them', () => {
  const svc = (spec: object): Parameters<typeof objectUsage>[2] => ({ spec: { ports: [{ port: 80 }, { port: 443, nodePort: 30443 }], ...spec } });
  const measured = (spec: object): [string | undefined, string | undefined] => {
    const u = objectUsage('', 'services', svc(spec));
    return [u['services.nodeports'], u['services.loadbalancers']];
  };
  assert.deepEqual(measured({ type: 'ClusterIP' }), ['0', '0']);
  assert.deepEqual(measured({ type: 'NodePort' }), ['2', '0']);
  assert.deepEqual(measured({ type: 'LoadBalancer' }), ['2', '1']);
  assert.deepEqual(measured({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }), ['1', '1']);
});

test('negative usage names the resources below zero', () => {
  assert.deepEqual(negativeUsage({ 'requests.storage': '-1Gi', pods: '1', cpu: '0' }), ['requests.storage']);
});

test('claims fall under a quota by VolumeAttributesClass, a label selector over the classes they name; other objects under no scoped quota', () => {
  const quota = (operator: string, values: string[] = []): ResourceQuota => ({ metadata: { name: 'q' }, spec: { scopeSelector: { matchExpressions: [{ scopeName: 'VolumeAttributesClass', operator, values } as never] } } });
  const claim = (spec: object, status: object = {}): Parameters<typeof quotaCoversObject>[3] => ({ spec, status });
  const covers = (q: ResourceQuota, c: Parameters<typeof quotaCoversObject>[3]): boolean => quotaCoversObject('', 'persistentvolumeclaims', q, c);
  assert.equal(covers(quota('In', ['gold']), claim({ volumeAttributesClassName: 'gold' })), true);
  assert.equal(covers(quota('In', ['gold']), claim({ volumeAttributesClassName: 'silver' }, { modifyVolumeStatus: { targetVolumeAttributesClassName: 'gold', status: 'InProgress' } })), true);
  assert.equal(covers(quota('NotIn', ['gold']), claim({})), true);
  assert.equal(covers(quota('Exists'), claim({})), false);
  assert.equal(covers(quota('DoesNotExist'), claim({})), true);
  assert.equal(quotaCoversObject('', 'services', quota('Exists'), {}), false);
  assert.equal(quotaCoversObject('', 'services', { metadata: { name: 'q' }, spec: {} }, {}), true);
});

test('a ResourceClaim counts the devices it asks for per DeviceClass, a prioritized list its worst case, All as 32', () => {
  const claim = { spec: { devices: { requests: [
    { name: 'a', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 2 } },
    { name: 'b', firstAvailable: [{ name: 'big', deviceClassName: 'mig.nvidia.com', allocationMode: 'ExactCount', count: 1 }, { name: 'small', deviceClassName: 'mig.nvidia.com', allocationMode: 'ExactCount', count: 3 }, { name: 'whole', deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 }] },
    { name: 'c', exactly: { deviceClassName: 'nic.example.com', allocationMode: 'All' } },
  ] } } };
  assert.deepEqual(objectUsage('resource.k8s.io', 'resourceclaims', claim), {
    'count/resourceclaims.resource.k8s.io': '1',
    'gpu.nvidia.com.deviceclass.resource.k8s.io/devices': '3',
    'mig.nvidia.com.deviceclass.resource.k8s.io/devices': '3',
    'nic.example.com.deviceclass.resource.k8s.io/devices': '32',
  });
  assert.equal(countedBy('gpu.nvidia.com.deviceclass.resource.k8s.io/devices'), 'count/resourceclaims.resource.k8s.io');
});
