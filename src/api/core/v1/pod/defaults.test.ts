import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from './types.ts';
import { defaultPod, imageTag } from './defaults.ts';
import { pod } from './fixtures.test-helpers.ts';
import { addDefaultServiceAccount, addDefaultTolerations, admitPodPriority } from './admission.ts';
import type { PriorityClassInfo } from './admission.ts';

test('defaultPod fills the upstream scheme defaults', () => {
  const p: Pod = {
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } },
          readinessProbe: { httpGet: { port: 80 } },
          lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
        },
      ],
    },
  };
  defaultPod(p);
  assert.deepEqual(p.spec, {
    containers: [
      {
        name: 'app',
        image: 'nginx',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        readinessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
        lifecycle: { preStop: { httpGet: { port: 80, path: '/stop', scheme: 'HTTP' } } },
        imagePullPolicy: 'Always',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
  });
});

const pullCases: [string, string][] = [
  ['nginx', 'latest'],
  ['nginx:latest', 'latest'],
  ['nginx:1.27', '1.27'],
  ['registry:5000/team/app', 'latest'],
  ['registry:5000/team/app:v2', 'v2'],
  ['nginx@sha256:abc', ''],
  ['', ''],
];
for (const [image, tag] of pullCases) {
  test(`imageTag(${image}) = "${tag}"`, () => assert.equal(imageTag(image), tag));
}

test('defaultPod: hostNetwork copies containerPort to hostPort; a tagged image pulls IfNotPresent', () => {
  const p: Pod = { metadata: {}, spec: { hostNetwork: true, containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 8080 }] }] } };
  defaultPod(p);
  assert.equal(p.spec.containers[0]?.ports?.[0]?.hostPort, 8080);
  assert.equal(p.spec.containers[0]?.imagePullPolicy, 'IfNotPresent');
});

test('defaultPod leaves resizePolicy unset and defaults an empty volume to emptyDir', () => {
  const p: Pod = { metadata: {}, spec: { containers: [{ name: 'a', image: 'x:1' }], volumes: [{ name: 'scratch' }] } };
  defaultPod(p);
  assert.equal(p.spec.containers[0]?.resizePolicy, undefined);
  assert.deepEqual(p.spec.volumes, [{ name: 'scratch', emptyDir: {} }]);
});

test('defaultPod: pod-level limits default pod-level requests from container requests', () => {
  const p: Pod = {
    metadata: {},
    spec: { resources: { limits: { cpu: '2', memory: '1Gi' } }, containers: [{ name: 'a', image: 'x:1', resources: { requests: { cpu: '500m' } } }] },
  };
  defaultPod(p);
  assert.deepEqual(p.spec.resources, { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

test('defaultPod on a defaulted pod writes nothing below the object, as an update of a stored pod needs', () => {
  const p: Pod = {
    metadata: {},
    spec: {
      resources: { limits: { cpu: '2', memory: '1Gi' } },
      containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '500m' } } }],
    },
  };
  defaultPod(p);
  const once = structuredClone(p);
  // What an update keeps of the stored pod is shared, and frozen under test: a write there throws.
  const again: Pod = { ...p, spec: deepFreeze(structuredClone(p.spec)) };
  defaultPod(again);
  assert.deepEqual(again, once);
});

test('addDefaultTolerations adds not-ready and unreachable NoExecute for 300s', () => {
  const p: Pod = { metadata: {}, spec: { containers: [] } };
  addDefaultTolerations(p);
  assert.deepEqual(p.spec.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
});

test('addDefaultTolerations keeps an existing toleration of the taint', () => {
  const p: Pod = { metadata: {}, spec: { containers: [], tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] } };
  addDefaultTolerations(p);
  assert.deepEqual(p.spec.tolerations?.map((t) => [t.key, t.tolerationSeconds]), [
    ['node.kubernetes.io/unreachable', 5],
    ['node.kubernetes.io/not-ready', 300],
  ]);
});

test('addDefaultServiceAccount names "default" and mounts the token volume', () => {
  const p: Pod = { metadata: {}, spec: { containers: [{ name: 'a' }] } };
  addDefaultServiceAccount(p, { tokenVolumeSuffix: 'abcde' });
  assert.equal(p.spec.serviceAccountName, 'default');
  assert.equal(p.spec.serviceAccount, 'default');
  assert.equal(p.spec.volumes?.[0]?.name, 'kube-api-access-abcde');
  assert.deepEqual(p.spec.containers[0]?.volumeMounts, [{ name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
});

test('addDefaultServiceAccount: the projected volume as upstream writes it, after the pod\'s own volumes; every container and init container mounts it, each its own mount', () => {
  const p: Pod = { metadata: {}, spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a', volumeMounts: [{ name: 'data', mountPath: '/data' }] }, { name: 'b' }], volumes: [{ name: 'data', emptyDir: {} }] } };
  addDefaultServiceAccount(p, { tokenVolumeSuffix: 'abcde' });
  assert.equal(JSON.stringify(p.spec.volumes), JSON.stringify([
    { name: 'data', emptyDir: {} },
    {
      name: 'kube-api-access-abcde',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    },
  ]));
  const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  assert.deepEqual(p.spec.initContainers?.[0]?.volumeMounts, [mount]);
  assert.deepEqual(p.spec.containers[0]?.volumeMounts, [{ name: 'data', mountPath: '/data' }, mount]);
  assert.deepEqual(p.spec.containers[1]?.volumeMounts, [mount]);
  assert.notEqual(p.spec.containers[0]?.volumeMounts?.[1], p.spec.containers[1]?.volumeMounts?.[0]);
});

test('addDefaultServiceAccount per container, as mountServiceAccountToken: a container mounting its own token path is left alone, an existing kube-api-access volume is reused, no volume when none needs one', () => {
  const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';
  const own = { name: 'my-token', mountPath: tokenPath };
  const p: Pod = { metadata: {}, spec: { containers: [{ name: 'a', volumeMounts: [own] }, { name: 'b' }], volumes: [{ name: 'my-token', secret: { secretName: 't' } }] } };
  addDefaultServiceAccount(p, { tokenVolumeSuffix: 'abcde' });
  assert.deepEqual(p.spec.containers[0]?.volumeMounts, [own]);
  assert.deepEqual(p.spec.containers[1]?.volumeMounts, [{ name: 'kube-api-access-abcde', readOnly: true, mountPath: tokenPath }]);
  assert.deepEqual(p.spec.volumes?.map((v) => v.name), ['my-token', 'kube-api-access-abcde']);

  const copied: Pod = { metadata: {}, spec: { containers: [{ name: 'a' }], volumes: [{ name: 'kube-api-access-old12', projected: { sources: [] } }] } };
  addDefaultServiceAccount(copied, { tokenVolumeSuffix: 'abcde' });
  assert.deepEqual(copied.spec.containers[0]?.volumeMounts, [{ name: 'kube-api-access-old12', readOnly: true, mountPath: tokenPath }]);
  assert.deepEqual(copied.spec.volumes?.map((v) => v.name), ['kube-api-access-old12']);

  const mine: Pod = { metadata: {}, spec: { containers: [{ name: 'a', volumeMounts: [own] }], volumes: [{ name: 'my-token', secret: { secretName: 't' } }] } };
  addDefaultServiceAccount(mine, { tokenVolumeSuffix: 'abcde' });
  assert.deepEqual(mine.spec.volumes?.map((v) => v.name), ['my-token']);
});

test('admitPodPriority: no class -> priority 0, PreemptLowerPriority; an unknown class, or a priority or policy the class does not give, is refused', () => {
  const p: Pod = { metadata: {}, spec: { containers: [] } };
  assert.equal(admitPodPriority(p, () => undefined), undefined);
  assert.equal(p.spec.priority, 0);
  assert.equal(p.spec.preemptionPolicy, 'PreemptLowerPriority');
  const q: Pod = { metadata: {}, spec: { containers: [], priorityClassName: 'high' } };
  assert.equal(admitPodPriority(q, () => undefined), 'no PriorityClass with name high was found');
  const high = (n: string): PriorityClassInfo | undefined => (n === 'high' ? { name: n, value: 1000, preemptionPolicy: 'Never' } : undefined);
  const r: Pod = { metadata: {}, spec: { containers: [], priorityClassName: 'high' } };
  assert.equal(admitPodPriority(r, high), undefined);
  assert.deepEqual([r.spec.priority, r.spec.preemptionPolicy], [1000, 'Never']);
  const s: Pod = { metadata: {}, spec: { containers: [], priorityClassName: 'high', priority: 5 } };
  assert.equal(admitPodPriority(s, high), 'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
  const t: Pod = { metadata: {}, spec: { containers: [], priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' } };
  assert.equal(admitPodPriority(t, high), 'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name');
});

test('defaultPod: an image volume pulls Always for :latest or no tag, IfNotPresent for a tag, a digest or no reference', () => {
  const p = pod({
    volumes: [
      { name: 'a', image: { reference: 'quay.io/org/model' } },
      { name: 'b', image: { reference: 'quay.io/org/model:latest' } },
      { name: 'c', image: { reference: 'quay.io/org/model:v1' } },
      { name: 'd', image: { reference: 'quay.io/org/model@sha256:abc' } },
      { name: 'e', image: {} },
    ],
  });
  assert.deepEqual(p.spec.volumes?.slice(0, 5).map((v) => v.image?.pullPolicy), ['Always', 'Always', 'IfNotPresent', 'IfNotPresent', 'IfNotPresent']);
});
