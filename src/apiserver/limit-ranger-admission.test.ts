// LimitRanger on pods and claims: container defaults (with the annotation, init containers too),
// container, pod and claim bounds and the limit/request ratio, refused in upstream's words; a
// namespace without LimitRanges is left alone. In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { LimitRange, Pod } from '../api/index.ts';
import { Cluster, defaultClusterConfig } from '../cluster/index.ts';
import { VirtualClock, isApiError } from '../core/index.ts';

const pod = (name: string, containers: Pod['spec']['containers'], initContainers?: Pod['spec']['initContainers']): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'team-a' },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});

test('LimitRanger: defaults, bounds, ratio and claim storage as upstream admits them', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  const plain = await client.create<Pod>(refs.pods, pod('before', [{ name: 'app', image: 'nginx' }]));
  assert.equal(plain.metadata.annotations, undefined, 'no LimitRange yet: nothing set');

  await client.create(refs.limitRanges, {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults', namespace: 'team-a' },
    spec: {
      limits: [
        { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '250m', memory: '128Mi' }, max: { cpu: '2' }, min: { cpu: '100m' }, maxLimitRequestRatio: { memory: '4' } },
        { type: 'Pod', max: { cpu: '3' } },
        { type: 'PersistentVolumeClaim', max: { storage: '10Gi' }, min: { storage: '1Gi' } },
      ],
    },
  });
  const defaulted = await client.create<Pod>(refs.pods, pod('web', [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '300m' } } }], [{ name: 'migrate', image: 'busybox' }]));
  assert.deepEqual(defaulted.spec.containers[0]?.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '300m', memory: '128Mi' } });
  assert.deepEqual(defaulted.spec.initContainers?.[0]?.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '128Mi' } });
  assert.equal(defaulted.metadata.annotations?.['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: memory request for container app; cpu, memory limit for container app; cpu, memory request for init container migrate; cpu, memory limit for init container migrate');

  const refusal = async (create: Promise<unknown>): Promise<string> => {
    const error = await create.catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.reason === 'Forbidden', String(error));
    return error.message;
  };
  assert.equal(await refusal(client.create(refs.pods, pod('big', [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '2500m' } } }]))),
    'pods "big" is forbidden: maximum cpu usage per Container is 2, but limit is 2500m');
  assert.equal(await refusal(client.create(refs.pods, pod('tiny', [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '50m', memory: '16Mi' } } }]))),
    'pods "tiny" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, memory max limit to request ratio per Container is 4, but provided ratio is 16.000000]');
  assert.equal(await refusal(client.create(refs.pods, pod('wide', [1, 2, 3, 4].map((i) => ({ name: `c${i}`, image: 'nginx', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }))))),
    'pods "wide" is forbidden: maximum cpu usage per Pod is 3, but limit is 4');
  const claim = (name: string, storage: string): Promise<unknown> => client.create(refs.persistentVolumeClaims, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'team-a' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
  assert.equal(await refusal(claim('huge', '20Gi')), 'persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  await claim('fits', '5Gi');
});

test('LimitRange validation in upstream\'s words', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const error = await cluster.client.create(refs.limitRanges, {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'bad', namespace: 'default' },
    spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' }, default: { 'nvidia.com/gpu': '2' }, defaultRequest: { 'nvidia.com/gpu': '1' } }, { type: 'Pod', default: { cpu: '1' } }, { type: 'PersistentVolumeClaim' }, { type: 'Node' }] },
  }).catch((e: unknown) => e);
  assert.ok(isApiError(error));
  assert.deepEqual(error.toStatus().details?.causes?.map((c) => `${c.field}: ${c.message}`), [
    'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    // The defaults filled from max (1) fall below min too, as upstream reports them.
    'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
    'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    'spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu',
    "spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'",
    'spec.limits[2].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    'spec.limits[3].type: Invalid value: "Node": must be a standard limit type or fully qualified',
  ]);
});

test('a Container item without defaults takes them from max and min, and pods get them', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  const stored = await client.create<LimitRange>(refs.limitRanges, {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'bounds', namespace: 'team-a' },
    spec: { limits: [{ type: 'Container', max: { memory: '1Gi', cpu: '1' }, min: { memory: '64Mi' }, defaultRequest: { cpu: '250m' } }, { type: 'Pod', max: { cpu: '4' } }] },
  });
  assert.deepEqual(stored.spec?.limits, [
    { type: 'Container', max: { memory: '1Gi', cpu: '1' }, min: { memory: '64Mi' }, default: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '250m', memory: '1Gi' } },
    { type: 'Pod', max: { cpu: '4' } },
  ]);
  const defaulted = await client.create<Pod>(refs.pods, pod('web', [{ name: 'app', image: 'nginx' }]));
  assert.deepEqual(defaulted.spec.containers[0]?.resources, { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '250m', memory: '1Gi' } });
});
