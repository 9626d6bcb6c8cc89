// Volumes as a kubectl user meets them: a claim on the default StorageClass waits for its first
// consumer, is provisioned on that pod's node and deleted with its claim; a ReadWriteOncePod claim
// serves one pod even on one node; a missing ConfigMap keeps a pod ContainerCreating, and a missing
// Secret its environment names keeps the container in CreateContainerConfigError; a generic ephemeral
// volume's claim is created for its pod, binds, and is garbage-collected with it.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpuNodesConfig, drydockForSuite, normalize } from './harness.ts';

const fixture = (name: string): string => join(import.meta.dirname, '../../../test/fixtures/volumes', name);

const cluster = cpuNodesConfig(3);

interface ClaimJson {
  metadata: { uid: string; annotations?: Record<string, string> };
  spec: { storageClassName?: string; volumeName?: string };
  status?: { phase?: string };
}
interface VolumeJson {
  spec: { nodeAffinity?: { required?: { nodeSelectorTerms: { matchExpressions: { key: string; operator: string; values: string[] }[] }[] } } };
}

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A table's cells, split on the 2+ space gutters kubectl prints. */
const rows = (text: string): string[][] => normalize(text).trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('volumes with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const json = async <T>(args: string[]): Promise<T> => {
    const r = await dd.kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as T;
  };
  const events = async (name: string, reason: string): Promise<string[]> => {
    const r = await dd.kubectl(['get', 'events', '--field-selector', `involvedObject.name=${name},reason=${reason}`, '-o', 'jsonpath={range .items[*]}{.type} {.message}{"\\n"}{end}']);
    return r.stdout.split('\n').filter(Boolean);
  };

  test('DefaultStorageClass admission: a claim without a class has the default one in its create response; "" keeps none', async () => {
    const claim = (name: string, cls?: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { ...(cls === undefined ? {} : { storageClassName: cls }), accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    let r = await dd.kubectl(['create', '-f', '-', '-o', 'jsonpath={.spec.storageClassName}'], { input: claim('classless') });
    assert.deepEqual([r.code, r.stdout], [0, 'standard'], r.stderr);
    r = await dd.kubectl(['create', '-f', '-', '-o', 'jsonpath={.spec.storageClassName}|'], { input: claim('no-class', '') });
    assert.deepEqual([r.code, r.stdout], [0, '|'], r.stderr);
    assert.equal((await dd.kubectl(['delete', 'pvc', 'classless', 'no-class'])).code, 0);
  });

  test('default StorageClass: Pending until a pod uses the claim, then Bound to a volume on its node; deleted with the claim', async () => {
    let r = await dd.kubectl(['get', 'storageclass']);
    assert.deepEqual(rows(r.stdout), [
      ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'],
      ['standard (default)', 'drydock.dev/local-path', 'Delete', 'WaitForFirstConsumer', 'false', '<age>'],
    ]);
    r = await dd.kubectl(['apply', '-f', fixture('pvc-default.yaml')]);
    assert.equal(r.stdout.trim(), 'persistentvolumeclaim/data created', r.stderr);
    await eventually('WaitForFirstConsumer', async () => (await events('data', 'WaitForFirstConsumer')).length > 0);
    assert.deepEqual(await events('data', 'WaitForFirstConsumer'), ['Normal waiting for first consumer to be created before binding']);
    r = await dd.kubectl(['get', 'pvc', 'data']);
    assert.deepEqual(rows(r.stdout), [
      ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE'],
      ['data', 'Pending', 'standard', '<unset>', '<age>'],
    ]);

    r = await dd.kubectl(['apply', '-f', fixture('pod-with-data.yaml')]);
    assert.equal(r.stdout.trim(), 'pod/app created', r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/app', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'pod/app condition met', r.stderr);
    const node = (await json<{ spec: { nodeName: string } }>(['get', 'pod', 'app'])).spec.nodeName;
    const claim = await json<ClaimJson>(['get', 'pvc', 'data']);
    assert.equal(claim.status?.phase, 'Bound');
    assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/selected-node'], node);
    assert.equal(claim.spec.volumeName, `pvc-${claim.metadata.uid}`);
    const pv = await json<VolumeJson>(['get', 'pv', claim.spec.volumeName]);
    assert.deepEqual(pv.spec.nodeAffinity?.required?.nodeSelectorTerms, [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }]);
    await eventually('ProvisioningSucceeded', async () => (await events('data', 'ProvisioningSucceeded')).length > 0);
    assert.deepEqual(await events('data', 'ProvisioningSucceeded'), [`Normal Successfully provisioned volume pvc-${claim.metadata.uid}`]);

    r = await dd.kubectl(['get', 'pv,pvc']);
    assert.deepEqual(rows(r.stdout), [
      ['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE'],
      ['persistentvolume/pvc-<uid>', '1Gi', 'RWO', 'Delete', 'Bound', 'default/data', 'standard', '<unset>', '<age>'],
      [''],
      ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE'],
      ['persistentvolumeclaim/data', 'Bound', 'pvc-<uid>', '1Gi', 'RWO', 'standard', '<unset>', '<age>'],
    ]);

    const protectedPv = await json<{ metadata: { finalizers?: string[] } }>(['get', 'pv', claim.spec.volumeName]);
    assert.deepEqual(protectedPv.metadata.finalizers, ['kubernetes.io/pv-protection']);
    // Deleting a claim a running pod mounts leaves it Terminating until the pod is gone (pvc-protection).
    r = await dd.kubectl(['delete', 'pvc', 'data', '--wait=false']);
    assert.equal(r.stdout.trim(), 'persistentvolumeclaim "data" deleted', r.stderr);
    const held = await json<ClaimJson & { metadata: { finalizers?: string[]; deletionTimestamp?: string } }>(['get', 'pvc', 'data']);
    assert.deepEqual(held.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    assert.deepEqual(rows((await dd.kubectl(['get', 'pvc', 'data'])).stdout)[1]?.slice(0, 2), ['data', 'Terminating']);
    assert.equal((await json<{ status: { phase: string } }>(['get', 'pod', 'app'])).status.phase, 'Running');
    r = await dd.kubectl(['delete', 'pod', 'app', '--wait=true']);
    assert.equal(r.code, 0, r.stderr);
    await eventually('claim released and deleted', async () => (await dd.kubectl(['get', 'pvc', 'data'])).code !== 0);
    await eventually('PV deleted', async () => (await dd.kubectl(['get', 'pv', claim.spec.volumeName ?? ''])).code !== 0);
    r = await dd.kubectl(['get', 'pv', claim.spec.volumeName ?? '']);
    assert.equal(r.stderr.trim(), `Error from server (NotFound): persistentvolumes "${claim.spec.volumeName ?? ''}" not found`);
  });

  test('a generic ephemeral volume: the controller creates <pod>-<volume> owned by the pod, it binds, and goes with the pod', async () => {
    let r = await dd.kubectl(['apply', '-f', fixture('pod-ephemeral-volume.yaml')]);
    assert.equal(r.stdout.trim(), 'pod/scratch-job created', r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/scratch-job', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'pod/scratch-job condition met', r.stderr);
    const pod = await json<{ metadata: { uid: string }; spec: { nodeName: string } }>(['get', 'pod', 'scratch-job']);
    const claim = await json<ClaimJson & { metadata: { labels?: Record<string, string>; ownerReferences?: unknown[] } }>(['get', 'pvc', 'scratch-job-scratch']);
    assert.equal(claim.status?.phase, 'Bound');
    assert.deepEqual(claim.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'scratch-job', uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(claim.metadata.labels, { type: 'scratch' });
    assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/selected-node'], pod.spec.nodeName);
    r = await dd.kubectl(['get', 'pvc', 'scratch-job-scratch']);
    assert.deepEqual(rows(r.stdout), [
      ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE'],
      ['scratch-job-scratch', 'Bound', 'pvc-<uid>', '2Gi', 'RWO', 'standard', '<unset>', '<age>'],
    ]);
    r = await dd.kubectl(['delete', 'pod', 'scratch-job', '--wait=true']);
    assert.equal(r.stdout.trim(), 'pod "scratch-job" deleted', r.stderr);
    await eventually('claim garbage-collected', async () => (await dd.kubectl(['get', 'pvc', 'scratch-job-scratch'])).code !== 0);
    r = await dd.kubectl(['get', 'pvc', 'scratch-job-scratch']);
    assert.equal(r.stderr.trim(), 'Error from server (NotFound): persistentvolumeclaims "scratch-job-scratch" not found');
    await eventually('PV deleted', async () => (await dd.kubectl(['get', 'pv', claim.spec.volumeName ?? ''])).code !== 0);
  });

  test('ReadWriteOncePod: the second pod stays Pending with the VolumeRestrictions message, even on the same node', async () => {
    let r = await dd.kubectl(['apply', '-f', fixture('rwop.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/writer-1', '--timeout=60s']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['apply', '-f', fixture('rwop-second.yaml')]);
    assert.equal(r.stdout.trim(), 'pod/writer-2 created', r.stderr);
    const message =
      "0/3 nodes are available: 1 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode, 2 node(s) didn't satisfy plugin(s) [VolumeBinding]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.";
    const condition = await eventually('PodScheduled=False', async () => {
      const p = await json<{ status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } }>(['get', 'pod', 'writer-2']);
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    });
    assert.deepEqual({ reason: condition.reason, message: condition.message }, { reason: 'Unschedulable', message });
    assert.deepEqual(await events('writer-2', 'FailedScheduling'), [`Warning ${message}`]);
    r = await dd.kubectl(['get', 'pod', 'writer-2', '--no-headers']);
    assert.deepEqual(rows(r.stdout), [['writer-2', '0/1', 'Pending', '0', '<age>']]);
    r = await dd.kubectl(['delete', 'pod', 'writer-1']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/writer-2', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'pod/writer-2 condition met', r.stderr);
  });

  test('a missing ConfigMap: ContainerCreating with FailedMount until it is created', async () => {
    let r = await dd.kubectl(['apply', '-f', fixture('pod-missing-configmap.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    await eventually('FailedMount', async () => (await events('needs-config', 'FailedMount')).length > 0);
    assert.deepEqual(await events('needs-config', 'FailedMount'), ['Warning MountVolume.SetUp failed for volume "config" : configmap "web-config" not found']);
    r = await dd.kubectl(['get', 'pod', 'needs-config', '--no-headers']);
    assert.deepEqual(rows(r.stdout), [['needs-config', '0/1', 'ContainerCreating', '0', '<age>']]);
    r = await dd.kubectl(['create', 'configmap', 'web-config', '--from-literal=index.html=hi']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/needs-config', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'pod/needs-config condition met', r.stderr);
  });

  test('a missing Secret in envFrom: CreateContainerConfigError until it is created', async () => {
    let r = await dd.kubectl(['apply', '-f', fixture('pod-missing-secret-env.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    await eventually('Failed', async () => (await events('needs-secret', 'Failed')).length > 0);
    assert.deepEqual(await events('needs-secret', 'Failed'), ['Warning Error: secret "web-credentials" not found']);
    r = await dd.kubectl(['get', 'pod', 'needs-secret', '--no-headers']);
    assert.deepEqual(rows(r.stdout), [['needs-secret', '0/1', 'CreateContainerConfigError', '0', '<age>']]);
    r = await dd.kubectl(['create', 'secret', 'generic', 'web-credentials', '--from-literal=TOKEN=t']);
    assert.equal(r.code, 0, r.stderr);
    r = await dd.kubectl(['wait', '--for=condition=Ready', 'pod/needs-secret', '--timeout=60s']);
    assert.equal(r.stdout.trim(), 'pod/needs-secret condition met', r.stderr);
  });
});
