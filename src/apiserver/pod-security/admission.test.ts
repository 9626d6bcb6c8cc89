// The PodSecurity admission plugin in the request pipeline: a labelled namespace refuses a pod in
// upstream's words, lets through updates that cannot change what the policy sees, refuses bad labels
// on a namespace as upstream does, and leaves unlabelled namespaces alone. In-process cluster, no components.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Pod } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { VirtualClock, isApiError } from '../../core/index.ts';
import type { KubeObject } from '../../core/index.ts';
import { isSignificantPodUpdate } from './admission.ts';

const pod = (name: string, namespace: string, spec: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const namespace = (name: string, labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

async function refusal(write: Promise<unknown>): Promise<{ reason: string; message: string }> {
  const error = await write.then(() => undefined, (e: unknown) => e);
  assert.ok(isApiError(error), `expected a refusal, got ${String(error)}`);
  return { reason: error.reason, message: error.message };
}

test('a namespace enforcing restricted refuses a plain pod and admits a compliant one', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.namespaces, namespace('locked', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
  assert.deepEqual(await refusal(client.create(refs.pods, pod('x', 'locked'))), {
    reason: 'Forbidden',
    message:
      'pods "x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  });
  const compliant = pod('ok', 'locked', {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  });
  await client.create(refs.pods, compliant);
  // A pinned version shows in the message; an unlabelled namespace takes anything.
  await client.create(refs.namespaces, namespace('pinned', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.30' }));
  assert.equal((await refusal(client.create(refs.pods, pod('h', 'pinned', { hostNetwork: true })))).message, 'pods "h" is forbidden: violates PodSecurity "baseline:v1.30": host namespaces (hostNetwork=true)');
  await client.create(refs.pods, pod('h', 'default', { hostNetwork: true }));
});

test('pod updates are evaluated only when they can change what the policy sees', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  await client.create(refs.namespaces, namespace('team', {}));
  const created = structuredClone(await client.create<Pod>(refs.pods, pod('legacy', 'team')));
  const ns = structuredClone(await client.get(refs.namespaces, undefined, 'team'));
  await client.update(refs.namespaces, { ...ns, metadata: { ...ns.metadata, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
  const relabelled = structuredClone(await client.update<Pod>(refs.pods, { ...created, metadata: { ...created.metadata, labels: { tier: 'web' } } }));
  assert.equal(relabelled.metadata.labels?.['tier'], 'web');
  const newImage = structuredClone({ ...relabelled, spec: { ...relabelled.spec, containers: [{ ...relabelled.spec.containers[0], name: 'c', image: 'nginx:2' }] } });
  assert.match((await refusal(client.update(refs.pods, newImage))).message, /^pods "legacy" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
  const before = relabelled;
  const withDebugger = { ...before, spec: { ...before.spec, ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } };
  assert.equal(isSignificantPodUpdate(withDebugger, before), true);
  assert.equal(isSignificantPodUpdate({ ...before, spec: { ...before.spec, activeDeadlineSeconds: 5 } }, before), false);
});

test('bad pod-security labels are refused on create and on a change, but do not block other edits', async () => {
  await using cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock: new VirtualClock(), components: false });
  const client = cluster.client;
  assert.deepEqual(await refusal(client.create(refs.namespaces, namespace('bad', { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': '1.30' }))), {
    reason: 'Invalid',
    message: 'Namespace "bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]',
  });
  // A namespace already carrying a bad label (written before the plugin existed) may still be edited,
  // and its pods are held to restricted, what an enforce level that does not parse means.
  await client.create(refs.namespaces, namespace('old', {}));
  const stored = await client.get(refs.namespaces, undefined, 'old');
  const key = '/registry/core/namespaces/old';
  const kv = await cluster.store.get(key);
  assert.ok(kv);
  await cluster.store.update(key, JSON.stringify({ ...stored, metadata: { ...stored.metadata, labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } }), kv.modRevision);
  const broken = structuredClone(await client.get(refs.namespaces, undefined, 'old'));
  await client.update(refs.namespaces, { ...broken, metadata: { ...broken.metadata, labels: { ...broken.metadata.labels, team: 'a' } } });
  assert.match((await refusal(client.create(refs.pods, pod('p', 'old')))).message, /^pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
  const edited = structuredClone(await client.get(refs.namespaces, undefined, 'old'));
  const changed = { ...edited, metadata: { ...edited.metadata, labels: { ...edited.metadata.labels, 'pod-security.kubernetes.io/audit': 'none' } } };
  assert.equal((await refusal(client.update(refs.namespaces, changed))).message, 'Namespace "old" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "none": must be one of privileged, baseline, restricted]');
});
