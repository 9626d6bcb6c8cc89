// Scenario tests for VolumeBinding with the PV controller and the local-path provisioner on the
// VirtualClock: WaitForFirstConsumer provisioning on the chosen node, the upstream rejections.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/index.ts';
import { startScenario } from '../scenario-harness.test.ts';
import type { Scenario } from '../scenario-harness.test.ts';

function claim(name: string, spec: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {}): PersistentVolumeClaim {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } };
}
const usesClaim = (claimName: string, extra: Partial<Pod['spec']> = {}): Partial<Pod['spec']> => ({ volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }], ...extra });

async function threeNodes(s: Scenario): Promise<void> {
  for (const n of ['n1', 'n2', 'n3']) await s.addNode(n, { cpu: '4', memory: '8Gi' }, { labels: { zone: n === 'n1' ? 'a' : 'b' } });
}
const getClaim = (s: Scenario, name: string): Promise<PersistentVolumeClaim> => s.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', name);

test('WaitForFirstConsumer: the claim is provisioned and bound on the node the pod is scheduled to', async () => {
  await using s = await startScenario();
  await threeNodes(s);
  await s.client.create(refs.persistentVolumeClaims, claim('data', { storageClassName: 'standard' }));
  await s.clock.advance(20_000);
  assert.equal((await getClaim(s, 'data')).status?.phase, 'Pending');
  await s.addPod('app', usesClaim('data', { nodeSelector: { zone: 'a' } }));
  await s.until(async () => !!(await s.pod('app')).spec.nodeName);
  assert.equal((await s.pod('app')).spec.nodeName, 'n1');
  const pvc = await getClaim(s, 'data');
  assert.equal(pvc.metadata.annotations?.['volume.kubernetes.io/selected-node'], 'n1');
  assert.equal(pvc.status?.phase, 'Bound');
  const pv = await s.client.get<PersistentVolume>(refs.persistentVolumes, undefined, pvc.spec?.volumeName ?? '');
  assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms, [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }]);
  // A second pod of the same claim follows the volume to its node.
  await s.addPod('again', usesClaim('data'));
  await s.until(async () => !!(await s.pod('again')).spec.nodeName);
  assert.equal((await s.pod('again')).spec.nodeName, 'n1');
});

test('missing claim, unbound Immediate claim: UnschedulableAndUnresolvable with the upstream words', async () => {
  await using s = await startScenario();
  await threeNodes(s);
  await s.addPod('lost', usesClaim('nope'));
  await s.until(async () => (await s.scheduledCondition('lost'))?.status === 'False');
  assert.equal((await s.scheduledCondition('lost'))?.message, '0/3 nodes are available: persistentvolumeclaim "nope" not found. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
  await s.client.create(refs.persistentVolumeClaims, claim('static', { storageClassName: '' }));
  await s.addPod('waits', usesClaim('static'));
  await s.until(async () => (await s.scheduledCondition('waits'))?.status === 'False');
  assert.equal((await s.scheduledCondition('waits'))?.message, '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
  // A volume appears: the controller binds the claim and the pod is scheduled.
  await s.client.create(refs.persistentVolumes, { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' }, storageClassName: '' } } satisfies PersistentVolume);
  await s.until(async () => !!(await s.pod('waits')).spec.nodeName);
});

test("a bound volume's node affinity: node(s) had volume node affinity conflict", async () => {
  await using s = await startScenario();
  await threeNodes(s);
  const pv: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'zonal' },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/d' },
      storageClassName: '',
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } },
    },
  };
  await s.client.create(refs.persistentVolumes, pv);
  await s.client.create(refs.persistentVolumeClaims, claim('data', { storageClassName: '' }));
  await s.until(async () => (await getClaim(s, 'data')).status?.phase === 'Bound');
  await s.addPod('elsewhere', usesClaim('data', { nodeSelector: { zone: 'b' } }));
  await s.until(async () => (await s.scheduledCondition('elsewhere'))?.status === 'False');
  assert.equal(
    (await s.scheduledCondition('elsewhere'))?.message,
    "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had volume node affinity conflict. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  );
  await s.addPod('there', usesClaim('data'));
  await s.until(async () => !!(await s.pod('there')).spec.nodeName);
  assert.equal((await s.pod('there')).spec.nodeName, 'n1');
});

test('a generic ephemeral volume waits for its claim, which must be the pod\'s own: the upstream words for each', async () => {
  await using s = await startScenario();
  // The scheduler's side alone: without the controller the test plays it, and the claim can be missing or foreign.
  await s.cluster.components?.running.find((c) => c.name === 'ephemeral-volume-controller')?.stop();
  await threeNodes(s);
  const template = { spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } };
  await s.addPod('eph', { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }] });
  await s.until(async () => (await s.scheduledCondition('eph'))?.status === 'False');
  assert.equal(
    (await s.scheduledCondition('eph'))?.message,
    '0/3 nodes are available: waiting for ephemeral volume controller to create the persistentvolumeclaim "eph-scratch". no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  );
  // A claim of that name that the pod does not control is not its volume.
  await s.client.create(refs.persistentVolumeClaims, claim('eph-scratch', { storageClassName: 'standard' }));
  await s.until(async () => (await s.scheduledCondition('eph'))?.message?.includes('not owner') === true);
  assert.equal(
    (await s.scheduledCondition('eph'))?.message,
    '0/3 nodes are available: PVC default/eph-scratch was not created for pod default/eph (pod is not owner). no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  );
  // Once the claim is the pod's (as the ephemeral volume controller makes it), the pod is scheduled.
  const pod = await s.pod('eph');
  const owned = { ...claim('eph-scratch', { storageClassName: 'standard' }), metadata: { name: 'eph-scratch', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'eph', uid: pod.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }] } };
  await s.client.delete(refs.persistentVolumeClaims, 'default', 'eph-scratch');
  // The claim carries the pvc-protection finalizer: it is gone once the controller lifts it, not when
  // the delete answers, and a create before then is refused as AlreadyExists (as upstream).
  await s.until(async () => (await s.client.list(refs.persistentVolumeClaims, { namespace: 'default' })).items.every((c) => c.metadata.name !== 'eph-scratch'));
  await s.client.create(refs.persistentVolumeClaims, owned);
  await s.until(async () => !!(await s.pod('eph')).spec.nodeName);
});
