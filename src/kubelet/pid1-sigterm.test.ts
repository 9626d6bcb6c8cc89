// Scenario tests on the VirtualClock: a simple command form is its container's PID 1, which the kernel
// gives no default-disposition signal, so the kubelet's SIGTERM does nothing and the container is
// SIGKILLed (137, Error) at the end of the grace period, and a Job counts that pod as failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs, podStatusCells } from '../api/index.ts';
import type { Event, Job, Pod, ResourceRef } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

async function cluster(): Promise<{ c: Cluster; clock: VirtualClock; [Symbol.asyncDispose](): Promise<void> }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock, [Symbol.asyncDispose]: () => c.stop() };
}

function sleeper(name: string, command: string[], extra: Partial<Pod['spec']> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { restartPolicy: 'Never', containers: [{ name, image: 'busybox', command }], ...extra } } as Pod;
}

interface Followed {
  seen: string[];
  last: Pod | undefined;
  goneAt: number | undefined;
  stop(): void;
}

/** Watches pod `name` as `kubectl get pod -w` would: its STATUS cells, its last state and when it is gone. */
function follow(c: Cluster, clock: VirtualClock, name: string): Followed {
  const f: Followed = { seen: [], last: undefined, goneAt: undefined, stop: () => w.stop() };
  const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: `metadata.name=${name}` }, (e) => {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    if (e.type === 'DELETED') f.goneAt = clock.now();
    else f.last = e.object as Pod;
    const status = podStatusCells(e.object as Pod).status;
    if (f.seen.at(-1) !== status) f.seen.push(status);
  });
  return f;
}

/** Deletes pod `name` (with the pod's grace period, or `gracePeriodSeconds`) and follows it for `forMs`; goneAt is relative to the delete. */
async function deleteAndFollow(c: Cluster, clock: VirtualClock, name: string, forMs: number, gracePeriodSeconds?: number): Promise<Followed> {
  const f = follow(c, clock, name);
  const t0 = clock.now();
  await c.client.delete(refs.pods, 'default', name, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds });
  await clock.advance(forMs);
  f.stop();
  return { ...f, goneAt: f.goneAt === undefined ? undefined : f.goneAt - t0 };
}

async function kubeletEvents(c: Cluster, name: string): Promise<string[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name && e.source?.component === 'kubelet').map((e) => `${e.reason}: ${e.message}`);
}

test('deleting a `sleep 3600` pod: Terminating for the whole 30 s grace period, then SIGKILL: Failed, exit 137, reason Error; only a Killing event', async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.pods, sleeper('sl', ['sleep', '3600']), { namespace: 'default' });
  await clock.advance(2000);
  const before = await kubeletEvents(c, 'sl');
  const f = follow(c, clock, 'sl');
  await c.client.delete(refs.pods, 'default', 'sl');
  await clock.advance(29_000);
  const p = await c.client.get<Pod>(refs.pods, 'default', 'sl');
  assert.equal(podStatusCells(p).status, 'Terminating');
  assert.ok(p.status?.containerStatuses?.[0]?.state?.running, 'still running 29 s into the grace period');
  await clock.advance(2000);
  f.stop();
  const terminated = f.last?.status?.containerStatuses?.[0]?.state?.terminated;
  assert.deepEqual([f.last?.status?.phase, terminated?.exitCode, terminated?.reason], ['Failed', 137, 'Error']);
  assert.equal(Date.parse(terminated?.finishedAt ?? ''), Date.parse(f.last?.metadata.deletionTimestamp ?? ''), 'killed at the deadline');
  assert.ok(f.goneAt !== undefined, 'the kubelet deletes the pod once it is killed');
  assert.deepEqual(f.seen, ['Running', 'Terminating', 'Error'], 'Error: the last status the kubelet writes before it deletes the pod');
  assert.deepEqual((await kubeletEvents(c, 'sl')).slice(before.length), ['Killing: Stopping container sl']);
});

test('the delete\'s grace period bounds the wait; a shell script without a trap on TERM ignores it as sleep does', async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.pods, sleeper('script', ['sh', '-c', 'echo hi; sleep 3600']), { namespace: 'default' });
  await clock.advance(2000);
  const r = await deleteAndFollow(c, clock, 'script', 10_000, 5);
  const terminated = r.last?.status?.containerStatuses?.[0]?.state?.terminated;
  assert.deepEqual([r.last?.status?.phase, terminated?.exitCode, terminated?.reason], ['Failed', 137, 'Error']);
  assert.ok(r.goneAt !== undefined && r.goneAt >= 5000 && r.goneAt < 6000, `gone after ${r.goneAt} ms`);
});

test("`trap 'exit 0' TERM` with the sleep in the background and `wait`: the shell exits 0 at once; with the sleep in the foreground the trap waits for it", async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.pods, sleeper('trapped', ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"]), { namespace: 'default' });
  await c.client.create(refs.pods, sleeper('foreground', ['sh', '-c', "trap 'exit 0' TERM; sleep 3600"], { terminationGracePeriodSeconds: 10 }), { namespace: 'default' });
  await clock.advance(2000);
  const trapped = await deleteAndFollow(c, clock, 'trapped', 1000);
  const t = trapped.last?.status?.containerStatuses?.[0]?.state?.terminated;
  assert.deepEqual([trapped.last?.status?.phase, t?.exitCode, t?.reason], ['Succeeded', 0, 'Completed']);
  assert.ok(trapped.goneAt !== undefined && trapped.goneAt < 1000);
  const fg = await deleteAndFollow(c, clock, 'foreground', 11_000);
  assert.equal(fg.last?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 137, 'sh runs the trap only after sleep 3600 ends');
});

const counter = 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done';

function logLines(c: Cluster, name: string): string[] {
  return c.podLogs.kubelet('cpu-0')?.worker('default', name)?.logsOf(name)?.current?.lines().map((l) => `${new Date(l.at).toISOString().slice(14, 19)} ${l.text}`) ?? [];
}

test('the logging docs\' counter loop writes a dated line a second on the clock; deleted, sh as PID 1 ignores TERM for the whole grace period', async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.pods, sleeper('counter', ['/bin/sh', '-c', counter], { terminationGracePeriodSeconds: 5 }), { namespace: 'default' });
  await clock.advance(1000);
  const started = Date.parse((await c.client.get<Pod>(refs.pods, 'default', 'counter')).status?.containerStatuses?.[0]?.state?.running?.startedAt ?? '');
  await clock.advance(started + 2500 - clock.now());
  const at = (ms: number) => new Date(started + ms);
  const dateText = (d: Date) => `${d.toUTCString().slice(0, 3)} ${d.toUTCString().slice(8, 11)} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)} UTC ${d.getUTCFullYear()}`;
  assert.deepEqual(logLines(c, 'counter'), [0, 1000, 2000].map((ms, i) => `${at(ms).toISOString().slice(14, 19)} ${i}: ${dateText(at(ms))}`));
  const r = await deleteAndFollow(c, clock, 'counter', 8000);
  const terminated = r.last?.status?.containerStatuses?.[0]?.state?.terminated;
  assert.deepEqual([r.last?.status?.phase, terminated?.exitCode, terminated?.reason], ['Failed', 137, 'Error']);
  assert.ok(r.goneAt !== undefined && r.goneAt >= 5000 && r.goneAt < 6000, `gone after ${r.goneAt} ms`);
});

test("a loop with `trap 'echo stopping; exit 0' TERM` runs the trap when its sleep ends and the container exits 0", async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.pods, sleeper('looper', ['sh', '-c', "trap 'echo stopping; exit 0' TERM; while true; do echo tick; sleep 4; done"]), { namespace: 'default' });
  await clock.advance(1000);
  const r = await deleteAndFollow(c, clock, 'looper', 6000);
  const terminated = r.last?.status?.containerStatuses?.[0]?.state?.terminated;
  assert.deepEqual([r.last?.status?.phase, terminated?.exitCode], ['Succeeded', 0]);
  assert.ok(r.goneAt !== undefined && r.goneAt > 2000 && r.goneAt < 4500, `gone after ${r.goneAt} ms: at the end of the sleep`);
});

async function jobOf(c: Cluster, name: string): Promise<Job> {
  return c.client.get<Job>(refs.jobs, 'default', name);
}

async function jobPods(c: Cluster, name: string): Promise<Pod[]> {
  return (await c.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${name}` })).items;
}

function sleepJob(name: string, spec: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { backoffLimit: 3, template: { spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 5, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '3600'] }] } }, ...spec },
  };
}

test("a Job whose sleep pod is deleted counts a failed pod, not a success, and makes a replacement", async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.jobs, sleepJob('train'), { namespace: 'default' });
  await clock.advance(2000);
  const [first] = await jobPods(c, 'train');
  assert.ok(first?.metadata.name);
  await c.client.delete(refs.pods, 'default', first.metadata.name);
  await clock.advance(10_000);
  const job = await jobOf(c, 'train');
  assert.deepEqual([job.status?.failed, job.status?.succeeded ?? 0, job.status?.active], [1, 0, 1]);
  const pods = await jobPods(c, 'train');
  assert.deepEqual(pods.map((p) => [p.metadata.name === first.metadata.name, p.status?.phase]), [[false, 'Running']]);
});

test('podFailurePolicy: onExitCodes 137 matches the killed sleep pod; an eviction\'s DisruptionTarget is ignored and not counted', async () => {
  await using s = await cluster();
  const { c, clock } = s;
  await c.client.create(refs.jobs, sleepJob('strict', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } }] } }), { namespace: 'default' });
  await c.client.create(refs.jobs, sleepJob('tolerant', { podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } }), { namespace: 'default' });
  await clock.advance(2000);
  const [strictPod] = await jobPods(c, 'strict');
  const [tolerantPod] = await jobPods(c, 'tolerant');
  assert.ok(strictPod?.metadata.name && tolerantPod?.metadata.name);
  await c.client.delete(refs.pods, 'default', strictPod.metadata.name);
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: tolerantPod.metadata.name, namespace: 'default' } };
  await c.client.create({ ...refs.pods } as ResourceRef, eviction, { namespace: 'default', name: tolerantPod.metadata.name, subresource: 'eviction' });
  await clock.advance(3000);
  assert.equal((await jobOf(c, 'strict')).status?.failed ?? 0, 0, 'with a podFailurePolicy a terminating pod is not counted until it has failed');
  await clock.advance(7000);
  const strict = await jobOf(c, 'strict');
  const failed = strict.status?.conditions?.find((x) => x.type === 'Failed');
  assert.equal(failed?.reason, 'PodFailurePolicy');
  assert.match(failed?.message ?? '', /exit code 137/);
  await clock.advance(10_000); // the replacement waits out the Job's pod failure back-off (10 s), which ignored failures count too
  const tolerant = await jobOf(c, 'tolerant');
  assert.deepEqual([tolerant.status?.failed ?? 0, tolerant.status?.succeeded ?? 0, tolerant.status?.active], [0, 0, 1]);
});
