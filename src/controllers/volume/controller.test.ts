// Scenario tests for the PV controller and the local-path provisioner on a VirtualClock, in a
// cluster with no nodes: the test plays the scheduler by writing the selected-node annotation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../../api/index.ts';
import type { Event, PersistentVolume, PersistentVolumeClaim } from '../../api/index.ts';
import { eventually, startScenario } from '../job/scenario.test-helpers.ts';
import type { Scenario } from '../job/scenario.test-helpers.ts';

function claim(name: string, spec: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {}): PersistentVolumeClaim {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } };
}

function volume(name: string, storage: string, spec: Partial<NonNullable<PersistentVolume['spec']>> = {}, labels?: Record<string, string>): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` }, storageClassName: '', ...spec },
  };
}

const getClaim = (s: Scenario, name: string): Promise<PersistentVolumeClaim> => s.cluster.client.get<PersistentVolumeClaim>(refs.persistentVolumeClaims, 'default', name);
const getVolume = (s: Scenario, name: string): Promise<PersistentVolume> => s.cluster.client.get<PersistentVolume>(refs.persistentVolumes, undefined, name);

async function claimEvents(s: Scenario, name: string): Promise<string[]> {
  const items = (await s.cluster.client.list<Event>(refs.events, { namespace: 'default' })).items;
  return items
    .filter((e) => e.involvedObject.kind === 'PersistentVolumeClaim' && e.involvedObject.name === name)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((e) => `${e.type} ${e.reason} ${e.message}`);
}

async function waitForPhase(s: Scenario, name: string, phase: string): Promise<PersistentVolumeClaim> {
  return eventually(s.clock, async () => {
    const c = await getClaim(s, name);
    return c.status?.phase === phase && c;
  }, `claim ${name} ${phase}`);
}

test('Immediate binding: the smallest Available volume of the class that fits, both objects Bound', async () => {
  await using s = await startScenario();
  const c = s.cluster.client;
  await c.create(refs.persistentVolumes, volume('big', '10Gi'));
  await c.create(refs.persistentVolumes, volume('small', '2Gi'));
  await c.create(refs.persistentVolumes, volume('tiny', '500Mi'));
  await c.create(refs.persistentVolumes, volume('rwx-only', '1Gi', { accessModes: ['ReadWriteMany'] }));
  // Only Available volumes are candidates (FindMatchingVolume skips the rest): the claim comes once
  // the controller has made every new volume so, or it could be matched before `small` is.
  for (const name of ['big', 'small', 'tiny', 'rwx-only']) await eventually(s.clock, async () => (await getVolume(s, name)).status?.phase === 'Available', `volume ${name} Available`);
  await c.create(refs.persistentVolumeClaims, claim('data', { storageClassName: '' }));
  const bound = await waitForPhase(s, 'data', 'Bound');
  assert.equal(bound.spec?.volumeName, 'small');
  assert.equal(bound.metadata.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
  assert.equal(bound.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.deepEqual(bound.status?.capacity, { storage: '2Gi' });
  assert.deepEqual(bound.status?.accessModes, ['ReadWriteOnce']);
  const pv = await getVolume(s, 'small');
  assert.equal(pv.status?.phase, 'Bound');
  assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.deepEqual({ ...pv.spec?.claimRef, resourceVersion: undefined }, { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: bound.metadata.uid, apiVersion: 'v1', resourceVersion: undefined });
  assert.equal((await getVolume(s, 'big')).status?.phase, 'Available');
});

test('a selector and a volumeMode narrow the match; no match and no class: FailedBinding', async () => {
  await using s = await startScenario();
  const c = s.cluster.client;
  await c.create(refs.persistentVolumes, volume('fast', '1Gi', {}, { tier: 'fast' }));
  await c.create(refs.persistentVolumes, volume('block', '1Gi', { volumeMode: 'Block' }, { tier: 'slow' }));
  await c.create(refs.persistentVolumeClaims, claim('pick', { storageClassName: '', selector: { matchLabels: { tier: 'slow' } }, volumeMode: 'Block' }));
  assert.equal((await waitForPhase(s, 'pick', 'Bound')).spec?.volumeName, 'block');
  await c.create(refs.persistentVolumeClaims, claim('none', { storageClassName: '', selector: { matchLabels: { tier: 'gold' } } }));
  await eventually(s.clock, async () => (await claimEvents(s, 'none')).length > 0, 'FailedBinding');
  assert.deepEqual(await claimEvents(s, 'none'), ['Normal FailedBinding no persistent volumes available for this claim and no storage class is set']);
  assert.equal((await getClaim(s, 'none')).status?.phase, 'Pending');
});

test('Retain: deleting the claim leaves the volume Released with its claimRef', async () => {
  await using s = await startScenario();
  const c = s.cluster.client;
  await c.create(refs.persistentVolumes, volume('keep', '1Gi', { persistentVolumeReclaimPolicy: 'Retain' }));
  await c.create(refs.persistentVolumeClaims, claim('data', { storageClassName: '' }));
  await waitForPhase(s, 'data', 'Bound');
  await c.delete(refs.persistentVolumeClaims, 'default', 'data');
  const released = await eventually(s.clock, async () => {
    const pv = await getVolume(s, 'keep');
    return pv.status?.phase === 'Released' && pv;
  }, 'Released');
  assert.equal(released.spec?.claimRef?.name, 'data');
});

test('default class (WaitForFirstConsumer): Pending with WaitForFirstConsumer, provisioned on the selected node, deleted with its claim', async () => {
  await using s = await startScenario();
  const c = s.cluster.client;
  await c.create(refs.persistentVolumeClaims, claim('data'));
  // The class is assigned retroactively by the controller.
  const pending = await eventually(s.clock, async () => {
    const pvc = await getClaim(s, 'data');
    return pvc.spec?.storageClassName === 'standard' && pvc;
  }, 'default class');
  await eventually(s.clock, async () => (await claimEvents(s, 'data')).length > 0, 'WaitForFirstConsumer');
  assert.deepEqual(await claimEvents(s, 'data'), ['Normal WaitForFirstConsumer waiting for first consumer to be created before binding']);
  await s.clock.advance(30_000);
  assert.equal((await getClaim(s, 'data')).status?.phase, 'Pending');

  await c.patch(refs.persistentVolumeClaims, 'default', 'data', 'merge', { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'cpu-1' } } });
  const bound = await waitForPhase(s, 'data', 'Bound');
  const pvName = `pvc-${pending.metadata.uid ?? ''}`;
  assert.equal(bound.spec?.volumeName, pvName);
  assert.equal(bound.metadata.annotations?.['volume.kubernetes.io/storage-provisioner'], 'drydock.dev/local-path');
  assert.equal(bound.metadata.annotations?.['volume.beta.kubernetes.io/storage-provisioner'], 'drydock.dev/local-path');
  assert.deepEqual(bound.status?.capacity, { storage: '1Gi' });
  const pv = await getVolume(s, pvName);
  assert.equal(pv.status?.phase, 'Bound');
  assert.equal(pv.spec?.persistentVolumeReclaimPolicy, 'Delete');
  assert.equal(pv.spec?.storageClassName, 'standard');
  assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/provisioned-by'], 'drydock.dev/local-path');
  assert.deepEqual(pv.spec?.nodeAffinity, { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['cpu-1'] }] }] } });
  assert.equal(pv.spec?.hostPath?.path, `/var/lib/drydock/local-path/${pvName}_default_data`);
  const events = await eventually(s.clock, async () => {
    const all = await claimEvents(s, 'data');
    return all.some((e) => e.includes('ProvisioningSucceeded')) && all;
  }, 'ProvisioningSucceeded');
  assert.ok(events.includes(`Normal ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'drydock.dev/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`), events.join('\n'));
  assert.ok(events.includes('Normal Provisioning External provisioner is provisioning volume for claim "default/data"'), events.join("\n"));
  assert.ok(events.includes(`Normal ProvisioningSucceeded Successfully provisioned volume ${pvName}`), events.join("\n"));

  await c.delete(refs.persistentVolumeClaims, 'default', 'data');
  await eventually(s.clock, async () => {
    try {
      await getVolume(s, pvName);
      return false;
    } catch {
      return true;
    }
  }, 'PV deleted');
});
