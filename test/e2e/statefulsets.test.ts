// StatefulSets as a kubectl user meets them: a vLLM server applied from a real manifest comes up
// vllm-0, vllm-1, vllm-2 in order with a claim each; `rollout status|history|undo`, `set image` and
// `scale` work; deleting the StatefulSet keeps the claims (whenDeleted: Retain, the default).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 3
`;

const manifest = readFileSync(join(import.meta.dirname, '../../../test/fixtures/vllm-statefulset.yaml'), 'utf8');

describe('StatefulSets with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = (args: string[]): Promise<string> => dd.ok(args);
  const jsonpath = async (what: string[], path: string): Promise<string> => (await ok(['get', ...what, '-o', `jsonpath=${path}`])).trim();

  test('apply: pods come up in ordinal order with stable hostnames and one claim each', async () => {
    assert.deepEqual((await dd.kubectl(['apply', '-f', '-'], { input: manifest })).stdout.trim().split('\n'), ['service/vllm created', 'statefulset.apps/vllm created']);
    const status = (await ok(['rollout', 'status', 'sts/vllm', '--timeout=60s'])).trim().split('\n');
    assert.ok(status.includes('Waiting for 2 pods to be ready...'), status.join('\n'));
    assert.equal(status.at(-1), 'partitioned roll out complete: 3 new pods have been updated...');
    const created = (await jsonpath(['pods', '-l', 'app=vllm'], '{range .items[*]}{.metadata.name} {.metadata.creationTimestamp} {.spec.hostname}.{.spec.subdomain}{"\\n"}{end}')).split('\n').map((l) => l.split(' '));
    assert.deepEqual(created.map((r) => [r[0], r[2]]), [['vllm-0', 'vllm-0.vllm'], ['vllm-1', 'vllm-1.vllm'], ['vllm-2', 'vllm-2.vllm']]);
    const times = created.map((r) => Date.parse(r[1] ?? ''));
    assert.ok(times[0]! < times[2]!, 'vllm-2 after vllm-0');
    assert.equal(await jsonpath(['pvc'], '{range .items[*]}{.metadata.name}={.status.phase} {end}'), 'cache-vllm-0=Bound cache-vllm-1=Bound cache-vllm-2=Bound');
    assert.match(await ok(['get', 'sts', 'vllm']), /^NAME\s+READY\s+AGE\nvllm\s+3\/3\s+/);
  });

  test('set image rolls vllm-2, vllm-1, vllm-0; history has two revisions; undo and scale down', async () => {
    await ok(['annotate', 'sts/vllm', 'kubernetes.io/change-cause=v0.7.0']);
    await ok(['set', 'image', 'sts/vllm', 'server=vllm/vllm-openai:v0.7.0']);
    await ok(['rollout', 'status', 'sts/vllm', '--timeout=60s']);
    const byAge = (await jsonpath(['pods', '-l', 'app=vllm', '--sort-by=.metadata.creationTimestamp'], '{.items[*].metadata.name}')).split(' ');
    assert.deepEqual(byAge, ['vllm-2', 'vllm-1', 'vllm-0']);
    assert.equal(await jsonpath(['sts', 'vllm'], '{.status.currentRevision}'), await jsonpath(['sts', 'vllm'], '{.status.updateRevision}'));
    // The status carries the collision count its revisions were hashed with, 0 without a collision.
    assert.equal(await jsonpath(['sts', 'vllm'], '{.status.collisionCount}'), '0');
    assert.deepEqual((await ok(['rollout', 'history', 'sts/vllm'])).trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/)), [['REVISION', 'CHANGE-CAUSE'], ['1', '<none>'], ['2', 'v0.7.0']], 'a revision keeps the set\'s annotations');
    assert.equal((await ok(['rollout', 'undo', 'sts/vllm'])).trim(), 'statefulset.apps/vllm rolled back');
    await ok(['rollout', 'status', 'sts/vllm', '--timeout=60s']);
    assert.equal(await jsonpath(['pods', '-l', 'app=vllm'], '{.items[*].spec.containers[0].image}'), 'vllm/vllm-openai:v0.6.0 vllm/vllm-openai:v0.6.0 vllm/vllm-openai:v0.6.0');
    await ok(['scale', 'sts/vllm', '--replicas=1']);
    for (let i = 0; i < 100 && (await jsonpath(['pods', '-l', 'app=vllm'], '{.items[*].metadata.name}')) !== 'vllm-0'; i++) await new Promise((r) => globalThis.setTimeout(r, 100));
    assert.equal(await jsonpath(['pods', '-l', 'app=vllm'], '{.items[*].metadata.name}'), 'vllm-0');
  });

  test('a spec field outside the mutable ones is refused; deleting the StatefulSet keeps the claims', async () => {
    const r = await dd.kubectl(['patch', 'sts', 'vllm', '-p', '{"spec":{"serviceName":"other"}}']);
    assert.equal(r.stderr.trim(), `The StatefulSet "vllm" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`);
    await ok(['delete', 'sts', 'vllm', '--wait']);
    for (let i = 0; i < 100 && (await jsonpath(['pods', '-l', 'app=vllm'], '{.items[*].metadata.name}')) !== ''; i++) await new Promise((r) => globalThis.setTimeout(r, 100));
    assert.equal(await jsonpath(['pods', '-l', 'app=vllm'], '{.items[*].metadata.name}'), '');
    assert.equal(await jsonpath(['pvc'], '{.items[*].metadata.name}'), 'cache-vllm-0 cache-vllm-1 cache-vllm-2');
  });
});
