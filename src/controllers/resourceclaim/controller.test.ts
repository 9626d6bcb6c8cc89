// Scenario tests of the ResourceClaim controller with the scheduler and kubelets (spec/dra.md §2, §11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Deployment, Pod, resourceV1 } from '../../api/index.ts';
import { claim, claimPod, claimSpec, events, eventually, getClaim, getPod, listClaims, migClass, startDraScenario, tail, template, waitRunning, waitUnschedulable } from './scenario.test-helpers.ts';

const gpuNode = `- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 2}\n`;

test('a template claim is named <pod>-<podClaim>-xxxxx, annotated, owned by the pod and recorded in its status', async () => {
  await using s = await startDraScenario(gpuNode);
  const c = s.cluster.client;
  await c.create(refs.resourceClaimTemplates, template('gpu-tmpl', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('p1', { resourceClaimTemplateName: 'gpu-tmpl' }), { namespace: 'default' });
  const pod = await waitRunning(s, 'p1');
  const [status] = pod.status?.resourceClaimStatuses ?? [];
  assert.equal(status?.name, 'gpu');
  assert.match(status?.resourceClaimName ?? '', /^p1-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  const got = await getClaim(s, status?.resourceClaimName ?? '');
  assert.equal(got.metadata.generateName, 'p1-gpu-');
  assert.deepEqual(got.metadata.annotations, { 'resource.kubernetes.io/pod-claim-name': 'gpu' });
  assert.deepEqual(got.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(got.spec.devices?.requests?.[0]?.exactly, { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 });
  assert.deepEqual(got.status?.allocation?.devices?.results, [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'h100-0', device: 'gpu-0' }]);
  assert.deepEqual(got.status?.reservedFor, [{ resource: 'pods', name: 'p1', uid: pod.metadata.uid }]);
  assert.ok(pod.status?.resourceClaimStatuses?.length === 1);
  const fm = pod.metadata.managedFields?.find((m) => m.manager === 'ResourceClaimController');
  assert.equal(fm?.subresource, 'status');
  // Deleting the pod frees gpu-0 and removes the generated claim.
  await c.delete(refs.pods, 'default', 'p1', { gracePeriodSeconds: 0 });
  await eventually(s.clock, async () => (await listClaims(s)).length === 0, 'claim deleted');
});

test('a missing template: FailedResourceClaimCreation event, pod Pending with no scheduling attempt', async () => {
  await using s = await startDraScenario(gpuNode);
  await s.cluster.client.create(refs.pods, claimPod('p1', { resourceClaimTemplateName: 'nope' }), { namespace: 'default' });
  const [e] = await eventually(s.clock, async () => {
    const e = await events(s, 'FailedResourceClaimCreation');
    return e.length > 0 && e;
  }, 'event');
  assert.equal(e?.type, 'Warning');
  assert.equal(e?.message, 'PodResourceClaim gpu: resource claim template "nope": resourceclaimtemplate.resource.k8s.io "nope" not found');
  assert.equal(e?.source?.component, 'resource_claim');
  await s.clock.advance(5_000);
  const pod = await getPod(s, 'p1');
  assert.equal(pod.status?.conditions?.find((x) => x.type === 'PodScheduled'), undefined);
  assert.equal((await events(s, 'FailedScheduling')).length, 0);
  // Creating the template lets the pod run.
  await s.cluster.client.create(refs.resourceClaimTemplates, template('nope', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  await waitRunning(s, 'p1');
});

test('a finished pod releases its claim: reservation dropped, deallocated, finalizer removed, generated claim deleted', async () => {
  await using s = await startDraScenario(gpuNode);
  const c = s.cluster.client;
  await c.create(refs.resourceClaimTemplates, template('gpu-tmpl', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  const pod = claimPod('job', { resourceClaimTemplateName: 'gpu-tmpl' }, { restartPolicy: 'Never' });
  pod.spec.containers[0] = { ...pod.spec.containers[0], name: 'c', command: ['sleep', '5'] };
  await c.create(refs.pods, pod, { namespace: 'default' });
  await eventually(s.clock, async () => (await getPod(s, 'job')).status?.phase === 'Succeeded', 'Succeeded');
  await eventually(s.clock, async () => (await listClaims(s)).length === 0, 'claim deleted');
  assert.equal((await getPod(s, 'job')).status?.phase, 'Succeeded');
});

test('a shared standalone claim is reserved by both pods and goes back to pending when both are gone', async () => {
  await using s = await startDraScenario(gpuNode);
  const c = s.cluster.client;
  await c.create(refs.resourceClaims, claim('shared', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  for (const n of ['a', 'b']) await c.create(refs.pods, claimPod(n, { resourceClaimName: 'shared' }), { namespace: 'default' });
  await waitRunning(s, 'a');
  await waitRunning(s, 'b');
  assert.equal((await getClaim(s, 'shared')).status?.reservedFor?.length, 2);
  for (const n of ['a', 'b']) await c.delete(refs.pods, 'default', n, { gracePeriodSeconds: 0 });
  const got = await eventually(s.clock, async () => {
    const x = await getClaim(s, 'shared');
    return !x.status?.allocation && (x.metadata.finalizers ?? []).length === 0 && x;
  }, 'deallocated');
  assert.deepEqual(got.status ?? {}, {});
});

test('PostFilter deallocates an unreserved claim allocated on another node, then the pod schedules', async () => {
  await using s = await startDraScenario(`- name: gpu\n  count: 2\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1}\n`);
  const c = s.cluster.client;
  const created = await c.create<resourceV1.ResourceClaim>(refs.resourceClaims, claim('c', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  // Allocated on gpu-0 with nobody reserving it (as a driver or an earlier cycle may leave it).
  await c.updateStatus(refs.resourceClaims, { ...created, status: { allocation: {
    devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'gpu-0', device: 'gpu-0' }] },
    nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-0'] }] }] },
  } } });
  await c.create(refs.pods, claimPod('p', { resourceClaimName: 'c' }, { nodeSelector: { 'kubernetes.io/hostname': 'gpu-1' } }), { namespace: 'default' });
  const [first] = await eventually(s.clock, async () => {
    const e = await events(s, 'FailedScheduling');
    return e.length > 0 && e;
  }, 'FailedScheduling');
  assert.equal(first?.message, "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 resourceclaim not available on the node. deallocation of ResourceClaim completed, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  const pod = await waitRunning(s, 'p');
  assert.equal(pod.spec.nodeName, 'gpu-1');
  assert.equal((await getClaim(s, 'c')).status?.allocation?.devices?.results?.[0]?.pool, 'gpu-1');
});

test('a shared claim allocated on another node: the pod pinned elsewhere gets the upstream message', async () => {
  await using s = await startDraScenario(`- name: gpu\n  count: 2\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1}\n`);
  const c = s.cluster.client;
  await c.create(refs.resourceClaims, claim('shared', claimSpec('gpu.nvidia.com')), { namespace: 'default' });
  await c.create(refs.pods, claimPod('p1', { resourceClaimName: 'shared' }, { nodeSelector: { 'kubernetes.io/hostname': 'gpu-0' } }), { namespace: 'default' });
  await waitRunning(s, 'p1');
  await c.create(refs.pods, claimPod('p2', { resourceClaimName: 'shared' }, { nodeSelector: { 'kubernetes.io/hostname': 'gpu-1' } }), { namespace: 'default' });
  assert.equal(await waitUnschedulable(s, 'p2'), `0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 resourceclaim not available on the node.${tail(2)}`);
});

test('a Deployment with a ResourceClaimTemplate gets one claim per pod; scaling down deallocates and deletes them', async () => {
  await using s = await startDraScenario(`- name: h100\n  count: 1\n  capacity: {cpu: "96", memory: 1Ti}\n  gpus: {model: H100-80GB, count: 1, mig: dynamic}\n`);
  const c = s.cluster.client;
  await c.create(refs.deviceClasses, migClass('1g.10gb'));
  await c.create(refs.resourceClaimTemplates, template('mig-tmpl', claimSpec('mig-1g-10gb')), { namespace: 'default' });
  const deploy: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'infer', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'infer' } },
      template: { metadata: { labels: { app: 'infer' } }, spec: claimPod('x', { resourceClaimTemplateName: 'mig-tmpl' }).spec },
    },
  };
  await c.create(refs.deployments, deploy, { namespace: 'default' });
  const running = await eventually(s.clock, async () => {
    const pods = (await c.list<Pod>(refs.pods, { namespace: 'default', labelSelector: 'app=infer' })).items.filter((p) => p.status?.phase === 'Running');
    return pods.length === 3 && pods;
  }, '3 running');
  const claims = await listClaims(s);
  assert.equal(claims.length, 3);
  for (const p of running) {
    const name = p.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
    assert.ok(name.startsWith(`${p.metadata.name ?? ''}-gpu-`), name);
    assert.ok(claims.some((x) => x.metadata.name === name && x.status?.allocation));
  }
  await c.patch(refs.deployments, 'default', 'infer', 'merge', { spec: { replicas: 1 } });
  const left = await eventually(s.clock, async () => {
    const l = await listClaims(s);
    return l.length === 1 && l;
  }, 'one claim left');
  assert.equal(left[0]?.status?.reservedFor?.length, 1);
});
