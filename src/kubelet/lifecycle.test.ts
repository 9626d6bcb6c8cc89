// Scenario tests of the simulated kubelet on the VirtualClock: an in-process cluster with its
// components, pods created through the API, time advanced, then the status and events asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { refs, podStatusCells } from '../api/index.ts';
import type { Event, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { runExec } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';
import type { ExecContext } from './exec-shell.ts';
import { tarArchive } from './tar-archive.ts';

const fixture = (name: string): Pod => parse(readFileSync(join(import.meta.dirname, '../../test/fixtures', name), 'utf8')) as Pod;

async function cluster(extra: Record<string, unknown> = {}): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }], ...extra });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  return { c, clock };
}

/** Creates pod `name` in default with `body`'s spec. */
async function createPod(c: Cluster, name: string, body: { spec: Pod['spec'] }): Promise<void> {
  await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, ...body });
}

/** The docs' special-config ConfigMap (SPECIAL_LEVEL=very, SPECIAL_TYPE=charm). */
async function createSpecialConfig(c: Cluster): Promise<void> {
  await c.client.create(refs.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'special-config', namespace: 'default' }, data: { SPECIAL_LEVEL: 'very', SPECIAL_TYPE: 'charm' } });
}

async function pod(c: Cluster, name: string): Promise<Pod> {
  return c.client.get<Pod>(refs.pods, 'default', name);
}

/** The STATUS column after every change of the pod, as `kubectl get pod -w` prints it. */
async function watchStatus(c: Cluster, clock: VirtualClock, name: string, forMs: number): Promise<string[]> {
  const seen: string[] = [];
  const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: `metadata.name=${name}` }, (e) => {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    const s = podStatusCells(e.object as Pod).status;
    if (seen.at(-1) !== s) seen.push(s);
  });
  await clock.advance(forMs);
  w.stop();
  return seen;
}

/** A ValidatingAdmissionPolicy and its binding refusing `operation` on `resource` where `expression` is false. */
async function refuse(c: Cluster, name: string, operation: string, resource: string, expression = 'false'): Promise<void> {
  const rule = { apiGroups: [''], apiVersions: ['v1'], operations: [operation], resources: [resource] };
  await c.client.create(refs.validatingAdmissionPolicies, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression }] } });
  await c.client.create(refs.validatingAdmissionPolicyBindings, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });
}

/** What `kubectl exec` into container `container` of pod `name` on cpu-0 would run against. */
function execContextOf(c: Cluster, name: string, container: string): ExecContext | undefined {
  const target = c.podLogs.kubelet('cpu-0')?.worker('default', name)?.execTarget(container);
  return target && 'context' in target ? target.context : undefined;
}

/** The lines the current instance of container `container` of pod `name` on cpu-0 has logged. */
function logLines(c: Cluster, name: string, container: string): string[] | undefined {
  return c.podLogs.kubelet('cpu-0')?.worker('default', name)?.logsOf(container)?.current?.lines().map((l) => l.text);
}

/** What `argv` prints when kubectl exec runs it in `context`, both streams. */
function execOutput(context: ExecContext, argv: readonly string[]): string {
  return execText(runExec(argv, context));
}

async function events(c: Cluster, name: string): Promise<Event[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name);
}

test('sidecar Job pod: log-agent starts before db-migration, which ends before worker starts; log-agent stops last; Succeeded', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, fixture('sidecar-job-pod.yaml'), { namespace: 'default' });
    const t0 = clock.now();
    const seen = await watchStatus(c, clock, 'batch-worker', 20_000);
    assert.deepEqual(seen, ['Pending', 'Init:0/2', 'Init:1/2', 'PodInitializing', 'Running', 'Completed']);
    const p = await pod(c, 'batch-worker');
    assert.equal(p.status?.phase, 'Succeeded');
    const agent = p.status?.initContainerStatuses?.[0];
    const migration = p.status?.initContainerStatuses?.[1];
    const worker = p.status?.containerStatuses?.[0];
    const ms = (t: string | undefined): number => Date.parse(t ?? '') - t0;
    assert.ok(ms(agent?.state?.terminated?.startedAt) <= ms(migration?.state?.terminated?.startedAt));
    assert.ok(ms(migration?.state?.terminated?.finishedAt) <= ms(worker?.state?.terminated?.startedAt));
    assert.ok(ms(worker?.state?.terminated?.finishedAt) < ms(agent?.state?.terminated?.finishedAt));
    assert.deepEqual([migration?.state?.terminated?.reason, worker?.state?.terminated?.reason, agent?.state?.terminated?.exitCode], ['Completed', 'Completed', 0]);
    assert.deepEqual(p.status?.conditions?.map((x) => `${x.type}=${x.status}${x.reason ? `/${x.reason}` : ''}`), [
      'PodReadyToStartContainers=False',
      'Initialized=True/PodCompleted',
      'Ready=False/PodCompleted',
      'ContainersReady=False/PodCompleted',
      'PodScheduled=True',
    ]);
    const ev = (await events(c, 'batch-worker')).map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''} ${e.message}`);
    assert.ok(ev.includes('Killing spec.initContainers{log-agent} Stopping container log-agent'), ev.join('\n'));
  } finally {
    await c.stop();
  }
});

test('the main containers start in one pass: the pod goes from 0/3 ContainerCreating to 3/3 Running, with no status between', async () => {
  const { c, clock } = await cluster();
  try {
    const ready: string[] = [];
    const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: 'metadata.name=three' }, (e) => {
      if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') ready.push(`${podStatusCells(e.object as Pod).ready} ${podStatusCells(e.object as Pod).status}`);
    });
    const containers = ['a', 'b', 'c'].map((name) => ({ name, image: 'nginx' }));
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'three' }, spec: { containers } }, { namespace: 'default' });
    await clock.advance(5_000);
    w.stop();
    assert.deepEqual([...new Set(ready)], ['0/3 Pending', '0/3 ContainerCreating', '3/3 Running']);
    // Each container still has its own Created and Started events.
    assert.equal((await events(c, 'three')).filter((e) => e.reason === 'Started').length, 3);
  } finally {
    await c.stop();
  }
});

test("a readiness gate's condition makes the pod Ready; conditions others own come first, PodScheduled last with its observedGeneration", async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gated' }, spec: { readinessGates: [{ conditionType: 'example.com/warm' }], containers: [{ name: 'main', image: 'nginx' }] } } as Pod, { namespace: 'default' });
    await clock.advance(2_000);
    const live = await pod(c, 'gated');
    const gate = { type: 'example.com/warm', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:01Z' } as unknown as NonNullable<NonNullable<Pod['status']>['conditions']>[number];
    await c.client.updateStatus(refs.pods, { ...live, status: { ...live.status, conditions: [...(live.status?.conditions ?? []), gate] } });
    await clock.advance(2_000);
    const conditions = (await pod(c, 'gated')).status?.conditions ?? [];
    assert.deepEqual(conditions.map((x) => `${x.type}=${x.status}/${(x as { observedGeneration?: number }).observedGeneration ?? '-'}`), [
      'example.com/warm=True/-',
      'PodReadyToStartContainers=True/1',
      'Initialized=True/1',
      'Ready=True/1',
      'ContainersReady=True/1',
      'PodScheduled=True/1',
    ]);
  } finally {
    await c.stop();
  }
});

test('a spec change the kubelet only observes (activeDeadlineSeconds) still moves status.observedGeneration and the conditions\' to the new generation', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'observed' }, spec: { containers: [{ name: 'main', image: 'nginx' }] } } as Pod, { namespace: 'default' });
    await clock.advance(2_000);
    await c.client.patch(refs.pods, 'default', 'observed', 'merge', { spec: { activeDeadlineSeconds: 3600 } });
    await clock.advance(1_000);
    const live = await pod(c, 'observed');
    assert.equal(live.metadata.generation, 2);
    assert.equal(live.status?.observedGeneration, 2);
    assert.deepEqual((live.status?.conditions ?? []).map((x) => `${x.type}/${(x as { observedGeneration?: number }).observedGeneration ?? '-'}`), [
      'PodReadyToStartContainers/2',
      'Initialized/2',
      'Ready/2',
      'ContainersReady/2',
      'PodScheduled/2',
    ]);
  } finally {
    await c.stop();
  }
});

test('a status write that admission refuses is tried again at the next periodic sync, once it is allowed', async () => {
  const { c, clock } = await cluster();
  try {
    await refuse(c, 'freeze-status', 'UPDATE', 'pods/status');
    await clock.advance(1_000);
    await c.client.create(refs.pods, podObj('frozen', { containers: [{ name: 'main', image: 'nginx' }] }), { namespace: 'default' });
    await clock.advance(5_000);
    assert.equal((await pod(c, 'frozen')).status?.containerStatuses, undefined, 'no status written while refused');
    await c.client.delete(refs.validatingAdmissionPolicyBindings, undefined, 'freeze-status');
    await clock.advance(11_000);
    const p = await pod(c, 'frozen');
    assert.equal(p.status?.phase, 'Running');
    assert.equal(p.status?.containerStatuses?.[0]?.ready, true);
  } finally {
    await c.stop();
  }
});

test("the kubelet's final delete of a terminated pod is tried again when admission refused it", async () => {
  const { c, clock } = await cluster();
  try {
    await refuse(c, 'no-node-deletes', 'DELETE', 'pods', "!request.userInfo.username.startsWith('system:node:')");
    await c.client.create(refs.pods, podObj('kept', { containers: [{ name: 'main', image: 'nginx' }] }), { namespace: 'default' });
    await clock.advance(3_000);
    await c.client.delete(refs.pods, 'default', 'kept');
    await clock.advance(5_000);
    const terminating = await pod(c, 'kept');
    assert.ok(terminating.metadata.deletionTimestamp, 'still there, terminating: the final delete was refused');
    await c.client.delete(refs.validatingAdmissionPolicyBindings, undefined, 'no-node-deletes');
    await clock.advance(11_000);
    await assert.rejects(pod(c, 'kept'), /not found/);
  } finally {
    await c.stop();
  }
});

test("a pod the kubelet rejects reads Failed once its refused status write is allowed", async () => {
  const { c, clock } = await cluster();
  try {
    await refuse(c, 'freeze-status', 'UPDATE', 'pods/status');
    await clock.advance(1_000);
    await c.client.create(refs.pods, podObj('too-big', { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '8' } } }] }), { namespace: 'default' });
    await clock.advance(3_000);
    assert.equal((await pod(c, 'too-big')).status?.phase, 'Pending');
    await c.client.delete(refs.validatingAdmissionPolicyBindings, undefined, 'freeze-status');
    await clock.advance(11_000);
    const p = await pod(c, 'too-big');
    assert.deepEqual([p.status?.phase, p.status?.reason], ['Failed', 'OutOfcpu']);
  } finally {
    await c.stop();
  }
});

function podObj(name: string, spec: Partial<Pod['spec']>, annotations: Record<string, string> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, annotations }, spec: { nodeName: 'cpu-0', containers: [], ...spec } } as Pod;
}

test('CrashLoopBackOff: restarts after 0s, 10s, 20s, 40s with BackOff events and the upstream waiting message', async () => {
  const { c, clock } = await cluster();
  try {
    const created = await c.client.create<Pod>(refs.pods, podObj('crash', { containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'sleep 1; exit 1'] }] }), { namespace: 'default' });
    const starts: number[] = [];
    let last = -1;
    for (let t = 0; t < 90_000; t += 250) {
      const p = await pod(c, 'crash');
      const s = p.status?.containerStatuses?.[0];
      if (s?.state?.running && (s.restartCount ?? 0) !== last) {
        last = s.restartCount;
        starts.push(Date.parse(s.state.running.startedAt ?? ''));
      }
      await clock.advance(250);
    }
    const gaps = starts.slice(1).map((t, i) => Math.round((t - (starts[i] ?? 0)) / 1000));
    // Each run lasts 1 s, then the back-off window: 0, 10, 20, 40.
    assert.deepEqual(gaps.slice(0, 4), [1, 11, 21, 41]);
    const p = await pod(c, 'crash');
    const waiting = p.status?.containerStatuses?.[0]?.state?.waiting;
    if (waiting) assert.match(waiting.message ?? '', new RegExp(`^back-off [0-9ms]+ restarting failed container=app pod=crash_default\\(${created.metadata.uid}\\)$`));
    const backoffs = (await events(c, 'crash')).filter((e) => e.reason === 'BackOff');
    assert.equal(backoffs[0]?.message, `Back-off restarting failed container app in pod crash_default(${created.metadata.uid})`);
    assert.equal(backoffs[0]?.type, 'Warning');
  } finally {
    await c.stop();
  }
});

test('a failing liveness probe restarts the container with the upstream Killing and Unhealthy events', async () => {
  const { c, clock } = await cluster();
  try {
    const probe = { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5, failureThreshold: 3 };
    await c.client.create(refs.pods, podObj('sick', { containers: [{ name: 'web', image: 'nginx', livenessProbe: probe }] }, { 'sim.drydock.dev/web': 'ready: never' }), { namespace: 'default' });
    await clock.advance(16_000);
    const p = await pod(c, 'sick');
    assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 1);
    const ev = await events(c, 'sick');
    const unhealthy = ev.find((e) => e.reason === 'Unhealthy');
    assert.equal(unhealthy?.message, 'Liveness probe failed: HTTP probe failed with statuscode: 503');
    assert.ok((unhealthy?.count ?? 0) >= 3);
    assert.ok(ev.some((e) => e.reason === 'Killing' && e.message === 'Container web failed liveness probe, will be restarted'));
  } finally {
    await c.stop();
  }
});

test('the kubernetes.io liveness-exec example: the script removes /tmp/healthy at 30 s, cat fails 3 times, the kubelet restarts the container', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, fixture('exec-liveness.yaml'), { namespace: 'default' });
    await clock.advance(29_000);
    assert.deepEqual((await events(c, 'liveness-exec')).filter((e) => e.reason === 'Unhealthy'), [], 'cat finds the file the script touched');
    // The probe at 30 s and the rm at 30 s come at the same instant: either may go first, as upstream.
    await clock.advance(17_000);
    const ev = await events(c, 'liveness-exec');
    const unhealthy = ev.find((e) => e.reason === 'Unhealthy');
    assert.equal(unhealthy?.message, "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n");
    assert.equal(unhealthy?.count, 3);
    assert.deepEqual(ev.filter((e) => e.reason === 'Killing').map((e) => e.message), ['Container liveness failed liveness probe, will be restarted']);
    // sh is PID 1 with no trap: it ignores SIGTERM and dies at the end of the 30 s grace period; the new container touches the file again.
    await clock.advance(50_000);
    const status = (await pod(c, 'liveness-exec')).status?.containerStatuses?.[0];
    assert.equal(status?.restartCount, 1);
    assert.equal(status?.lastState?.terminated?.exitCode, 137);
    assert.equal((await events(c, 'liveness-exec')).find((e) => e.reason === 'Unhealthy')?.count, 3, 'the restarted container passes again');
  } finally {
    await c.stop();
  }
});

test("the annotation's ready outranks the file an exec probe reads: the liveness example under ready: 0s is never restarted", async () => {
  const { c, clock } = await cluster();
  try {
    const example = fixture('exec-liveness.yaml');
    await c.client.create(refs.pods, { ...example, metadata: { ...example.metadata, annotations: { 'sim.drydock.dev/liveness': 'ready: 0s' } } }, { namespace: 'default' });
    await clock.advance(60_000);
    assert.equal((await pod(c, 'liveness-exec')).status?.containerStatuses?.[0]?.restartCount, 0);
    assert.deepEqual((await events(c, 'liveness-exec')).filter((e) => e.reason === 'Unhealthy'), []);
  } finally {
    await c.stop();
  }
});

test("the annotation's ready outranks an exec probe's command: `true` fails under ready: never, `false` passes from ready: 3s", async () => {
  const { c, clock } = await cluster();
  try {
    const probe = (command: string[]) => ({ exec: { command }, periodSeconds: 1, failureThreshold: 1 });
    const web = (extra: Record<string, unknown>) => ({ containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 8080 }], ...extra }] });
    const never = { 'sim.drydock.dev/web': 'ready: never' };
    await c.client.create(refs.pods, podObj('exec-never', web({ readinessProbe: probe(['true']) }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('http-never', web({ readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 } }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('tcp-never', web({ readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 } }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('grpc-never', web({ readinessProbe: { grpc: { port: 8080 }, periodSeconds: 1 } }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('live-never', web({ livenessProbe: probe(['true']) }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('startup-never', web({ startupProbe: { ...probe(['true']), failureThreshold: 3 } }), never), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('exec-later', web({ readinessProbe: probe(['false']) }), { 'sim.drydock.dev/web': 'ready: 3s' }), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('exec-plain', web({ readinessProbe: probe(['false']) })), { namespace: 'default' });
    await clock.advance(2_500);
    const status = async (name: string) => (await pod(c, name)).status?.containerStatuses?.[0];
    const unhealthy = async (name: string) => (await events(c, name)).find((e) => e.reason === 'Unhealthy')?.message;
    for (const name of ['exec-never', 'http-never', 'tcp-never', 'grpc-never', 'exec-later', 'exec-plain']) assert.equal((await status(name))?.ready, false, name);
    assert.equal(await unhealthy('exec-never'), 'Readiness probe failed: ');
    assert.equal(await unhealthy('http-never'), 'Readiness probe failed: HTTP probe failed with statuscode: 503');
    assert.equal(await unhealthy('exec-later'), 'Readiness probe failed: ');
    assert.equal((await status('live-never'))?.restartCount, 1);
    assert.equal(await unhealthy('live-never'), 'Liveness probe failed: ');
    assert.equal((await status('startup-never'))?.started, false);
    await clock.advance(3_000);
    assert.equal((await status('exec-later'))?.ready, true);
    assert.equal((await status('exec-plain'))?.ready, false);
    assert.equal((await status('exec-never'))?.ready, false);
    assert.equal((await status('startup-never'))?.restartCount, 1);
    assert.ok((await events(c, 'startup-never')).some((e) => e.reason === 'Killing' && e.message === 'Container web failed startup probe, will be restarted'));
  } finally {
    await c.stop();
  }
});

test('a failed postStart hook: the container waits in PostStartHookError with the hook runner\'s message, then CrashLoopBackOff; a Never pod shows the exit', async () => {
  const { c, clock } = await cluster();
  try {
    const hook = (postStart: Record<string, unknown>) => [{ name: 'web', image: 'nginx', ports: [{ containerPort: 8080 }], lifecycle: { postStart } }];
    const exec = { exec: { command: ['sh', '-c', 'echo boom; exit 7'] } };
    const created = await c.client.create<Pod>(refs.pods, podObj('hook-exec', { containers: hook(exec) }), { namespace: 'default' });
    const http = await c.client.create<Pod>(refs.pods, podObj('hook-http', { containers: hook({ httpGet: { path: '/warm', port: 8080 } }) }, { 'sim.drydock.dev/web': 'ready: never' }), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('hook-never', { restartPolicy: 'Never', containers: hook(exec) }), { namespace: 'default' });
    const first = await watchStatus(c, clock, 'hook-exec', 3_000);
    assert.equal(first.at(-1), 'PostStartHookError', first.join(' '));
    const status = async (name: string) => (await pod(c, name)).status?.containerStatuses?.[0];
    const s = await status('hook-exec');
    assert.equal(s?.restartCount, 1);
    assert.deepEqual(s?.state?.waiting, {
      reason: 'PostStartHookError',
      message: `Exec lifecycle hook ([sh -c echo boom; exit 7]) for Container "web" in Pod "hook-exec_default(${created.metadata.uid})" failed - error: command 'sh -c echo boom; exit 7' exited with 7: , message: "boom\\n"`,
    });
    assert.equal(s?.lastState?.terminated?.reason, 'Completed');
    const ip = (await pod(c, 'hook-http')).status?.podIP;
    assert.equal((await status('hook-http'))?.state?.waiting?.message, `HTTP lifecycle hook (/warm) for Container "web" in Pod "hook-http_default(${http.metadata.uid})" failed - error: Get "http://${ip}:8080/warm": dial tcp ${ip}:8080: connect: connection refused`);
    const never = await pod(c, 'hook-never');
    assert.deepEqual([never.status?.phase, never.status?.containerStatuses?.[0]?.state?.terminated?.reason], ['Succeeded', 'Completed']);
    // Each sync shows the reason the one before cached: the refused restart's back-off, then the next failed start's.
    const later = await watchStatus(c, clock, 'hook-exec', 30_000);
    assert.deepEqual(later.slice(0, 4), ['PostStartHookError', 'CrashLoopBackOff', 'PostStartHookError', 'CrashLoopBackOff'], later.join(' '));
    assert.ok(!first.includes('Completed') && !later.includes('Completed'), [...first, ...later].join(' '));
  } finally {
    await c.stop();
  }
});

test('a terminating pod is no longer probed for liveness or startup: no Unhealthy event, no restart; readiness goes on', async () => {
  const { c, clock } = await cluster();
  try {
    const probe = (path: string, failureThreshold: number) => ({ httpGet: { path, port: 80 }, periodSeconds: 1, failureThreshold });
    const annotations = { 'sim.drydock.dev/web': 'ready: never\nonSigterm: ignore' };
    const containers = [{ name: 'web', image: 'nginx', livenessProbe: probe('/live', 100), readinessProbe: probe('/ready', 1) }];
    await c.client.create(refs.pods, podObj('stopping', { terminationGracePeriodSeconds: 10, containers }, annotations), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('starting', { terminationGracePeriodSeconds: 10, containers: [{ name: 'web', image: 'nginx', startupProbe: probe('/start', 100) }] }, annotations), { namespace: 'default' });
    await clock.advance(3_000);
    const count = async (name: string, message: string) => (await events(c, name)).find((e) => e.reason === 'Unhealthy' && e.message === message)?.count ?? 0;
    const live = 'Liveness probe failed: HTTP probe failed with statuscode: 503';
    const ready = 'Readiness probe failed: HTTP probe failed with statuscode: 503';
    const start = 'Startup probe failed: HTTP probe failed with statuscode: 503';
    const before = [await count('stopping', live), await count('stopping', ready), await count('starting', start)];
    assert.ok(before.every((n) => n >= 3), before.join(' '));
    assert.equal((await pod(c, 'starting')).status?.containerStatuses?.[0]?.started, false);
    await c.client.delete(refs.pods, 'default', 'stopping');
    await c.client.delete(refs.pods, 'default', 'starting');
    await clock.advance(5_000);
    assert.equal(await count('stopping', live), before[0]);
    assert.ok((await count('stopping', ready)) >= (before[1] ?? 0) + 4);
    assert.equal(await count('starting', start), before[2]);
    const starting = (await pod(c, 'starting')).status?.containerStatuses?.[0];
    assert.deepEqual([starting?.state?.running !== undefined, starting?.started, starting?.restartCount], [true, true, 0]);
  } finally {
    await c.stop();
  }
});

test('an exec liveness probe that outlasts timeoutSeconds fails with the runtime timeout; a longer timeout lets it pass', async () => {
  const { c, clock } = await cluster();
  try {
    const probe = (timeoutSeconds: number) => ({ exec: { command: ['sleep', '3'] }, periodSeconds: 5, failureThreshold: 2, timeoutSeconds });
    await c.client.create(refs.pods, podObj('slow-probe', { containers: [{ name: 'web', image: 'nginx', livenessProbe: probe(1) }] }), { namespace: 'default' });
    await c.client.create(refs.pods, podObj('patient-probe', { containers: [{ name: 'web', image: 'nginx', livenessProbe: probe(5) }] }), { namespace: 'default' });
    await clock.advance(12_000);
    assert.equal((await pod(c, 'slow-probe')).status?.containerStatuses?.[0]?.restartCount, 1);
    const unhealthy = (await events(c, 'slow-probe')).find((e) => e.reason === 'Unhealthy');
    assert.equal(unhealthy?.message, 'Liveness probe failed: command "sleep 3" timed out');
    assert.equal((await pod(c, 'patient-probe')).status?.containerStatuses?.[0]?.restartCount, 0);
    assert.equal((await events(c, 'patient-probe')).find((e) => e.reason === 'Unhealthy'), undefined);
  } finally {
    await c.stop();
  }
});

test('httpGet, tcpSocket and grpc probes of a container slower than timeoutSeconds fail with the upstream probers\' timeout errors', async () => {
  const { c, clock } = await cluster();
  try {
    const slow = (name: string, readinessProbe: Record<string, unknown>, responseTime = '2s') =>
      podObj(name, { containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { periodSeconds: 5, ...readinessProbe } }] }, { 'sim.drydock.dev/web': `responseTime: ${responseTime}` });
    await c.client.create(refs.pods, slow('http-slow', { httpGet: { path: '/healthz', port: 'http' } }), { namespace: 'default' });
    await c.client.create(refs.pods, slow('tcp-slow', { tcpSocket: { port: 8080 } }), { namespace: 'default' });
    await c.client.create(refs.pods, slow('grpc-slow', { grpc: { port: 9090 }, timeoutSeconds: 1 }), { namespace: 'default' });
    await c.client.create(refs.pods, slow('http-patient', { httpGet: { path: '/healthz', port: 8080 }, timeoutSeconds: 3 }), { namespace: 'default' });
    await clock.advance(12_000);
    const ip = (await pod(c, 'http-slow')).status?.podIP;
    const unhealthy = async (name: string) => (await events(c, name)).find((e) => e.reason === 'Unhealthy')?.message;
    assert.equal(await unhealthy('http-slow'), `Readiness probe failed: Get "http://${ip}:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
    assert.equal(await unhealthy('tcp-slow'), `Readiness probe failed: dial tcp ${(await pod(c, 'tcp-slow')).status?.podIP}:8080: i/o timeout`);
    assert.equal(await unhealthy('grpc-slow'), 'Readiness probe failed: timeout: health rpc did not complete within 1s');
    for (const name of ['http-slow', 'tcp-slow', 'grpc-slow']) assert.equal((await pod(c, name)).status?.containerStatuses?.[0]?.ready, false, name);
    assert.equal(await unhealthy('http-patient'), undefined);
    assert.equal((await pod(c, 'http-patient')).status?.containerStatuses?.[0]?.ready, true);
  } finally {
    await c.stop();
  }
});

test('a sidecar ignoring SIGTERM keeps the pod Terminating until the grace period, then exits 137; the pod is deleted', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(
      refs.pods,
      podObj('stubborn', { terminationGracePeriodSeconds: 10, initContainers: [{ name: 'proxy', image: 'envoyproxy/envoy', restartPolicy: 'Always' }], containers: [{ name: 'app', image: 'nginx' }] }, { 'sim.drydock.dev/proxy': 'onSigterm: ignore' }),
      { namespace: 'default' },
    );
    await clock.advance(2000);
    await c.client.delete(refs.pods, 'default', 'stubborn');
    await clock.advance(5000);
    let p = await pod(c, 'stubborn');
    assert.equal(podStatusCells(p).status, 'Terminating');
    assert.ok(p.status?.initContainerStatuses?.[0]?.state?.running, 'sidecar still running at t+5s');
    let last: Pod | undefined;
    const w = c.client.watch<Pod>(refs.pods, { namespace: 'default' }, (e) => {
      if (e.type === 'MODIFIED' || e.type === 'DELETED') last = e.object as Pod;
    });
    await clock.advance(10_000);
    w.stop();
    assert.equal(last?.status?.initContainerStatuses?.[0]?.state?.terminated?.exitCode, 137);
    await assert.rejects(pod(c, 'stubborn'), /not found/);
  } finally {
    await c.stop();
  }
});

test('a second delete with a shorter grace period cuts the running termination short, as upstream', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, podObj('slow-stop', { terminationGracePeriodSeconds: 60, containers: [{ name: 'app', image: 'nginx' }] }, { 'sim.drydock.dev/app': 'onSigterm: ignore' }), { namespace: 'default' });
    await clock.advance(2000);
    await c.client.delete(refs.pods, 'default', 'slow-stop');
    await clock.advance(5000);
    assert.equal(podStatusCells(await pod(c, 'slow-stop')).status, 'Terminating', 'the first delete gives it 60 s');
    const shortened = (await c.client.delete(refs.pods, 'default', 'slow-stop', { gracePeriodSeconds: 3 })) as Pod;
    assert.equal(shortened.metadata.deletionGracePeriodSeconds, 3);
    let last: Pod | undefined;
    const w = c.client.watch<Pod>(refs.pods, { namespace: 'default' }, (e) => {
      if (e.type === 'MODIFIED' || e.type === 'DELETED') last = e.object as Pod;
    });
    await clock.advance(2000);
    assert.ok((await pod(c, 'slow-stop')).status?.containerStatuses?.[0]?.state?.running, 'still running 2 s into the 3 s');
    await clock.advance(2000);
    w.stop();
    assert.equal(last?.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 137, 'killed once the shorter grace ran out');
    await assert.rejects(pod(c, 'slow-stop'), /not found/);
  } finally {
    await c.stop();
  }
});

test('a container whose modelled memory exceeds its limit is OOMKilled (exit 137) and restarted', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(
      refs.pods,
      podObj('hungry', { containers: [{ name: 'app', image: 'python:3.12', command: ['python', 'app.py'], resources: { limits: { memory: '512Mi' } } }] }, { 'sim.drydock.dev/app': 'memory: 200Mi->900Mi/70s' }),
      { namespace: 'default' },
    );
    await clock.advance(40_000);
    const p = await pod(c, 'hungry');
    const s = p.status?.containerStatuses?.[0];
    assert.equal(s?.restartCount, 1);
    assert.deepEqual([s?.lastState?.terminated?.reason, s?.lastState?.terminated?.exitCode], ['OOMKilled', 137]);
  } finally {
    await c.stop();
  }
});

test('a kubelet newer than the API server refuses to start and Cluster.start fails with that error', async () => {
  const config = clusterConfigFrom({ kubernetesVersion: 'v1.35.0', nodePools: [{ name: 'next', count: 1, kubeletVersion: 'v1.36.0' }] });
  await assert.rejects(Cluster.start({ config, clock: new VirtualClock(), components: true }), {
    name: 'KubeletVersionSkewError',
    message: 'kubelet v1.36.0 on node "next-0" is newer than the API server v1.35.0: a kubelet must not be newer than kube-apiserver and may be up to 3 minor versions older',
  });
  const old = clusterConfigFrom({ kubernetesVersion: 'v1.35.0', nodePools: [{ name: 'old', count: 1, kubeletVersion: 'v1.32.3' }] });
  const c = await Cluster.start({ config: old, clock: new VirtualClock(), components: true });
  try {
    const node = await c.client.get<{ metadata: { name: string }; status: { nodeInfo: { kubeletVersion: string } } } & Pod>(refs.nodes, undefined, 'old-0');
    assert.equal(node.status.nodeInfo.kubeletVersion, 'v1.32.3');
  } finally {
    await c.stop();
  }
});

test('kubectl debug: an ephemeral container starts while the init container still runs, is never restarted, is not ready, and stops with the pod', async () => {
  const { c, clock } = await cluster();
  try {
    const spec = { initContainers: [{ name: 'wait-db', image: 'busybox', command: ['sh', '-c', 'sleep 3600'] }], containers: [{ name: 'app', image: 'nginx' }] };
    await c.client.create(refs.pods, podObj('stuck', spec), { namespace: 'default' });
    await clock.advance(5_000);
    const debug = (name: string, script: string) => ({ spec: { ephemeralContainers: [{ name, image: 'busybox', command: ['sh', '-c', script], targetContainerName: 'wait-db', stdin: true, tty: true }] } });
    await c.client.patch(refs.pods, 'default', 'stuck', 'strategic', debug('debugger', 'echo looking around; sleep 3600'), { subresource: 'ephemeralcontainers' });
    await c.client.patch(refs.pods, 'default', 'stuck', 'strategic', debug('once', 'echo done'), { subresource: 'ephemeralcontainers' });
    await clock.advance(60_000);
    const p = await pod(c, 'stuck');
    assert.equal(podStatusCells(p).status, 'Init:0/1');
    const statusOf = (name: string) => p.status?.ephemeralContainerStatuses?.find((s) => s.name === name);
    const [debugger_, once] = [statusOf('debugger'), statusOf('once')];
    // By name, as the kubelet sorts them (SortedContainerStatuses), whatever the spec's order.
    assert.deepEqual(p.status?.ephemeralContainerStatuses?.map((s) => s.name), ['debugger', 'once']);
    assert.ok(debugger_?.state?.running?.startedAt, JSON.stringify(debugger_));
    assert.equal(debugger_?.ready, false);
    assert.equal(debugger_?.started, undefined);
    assert.equal(debugger_?.resources, undefined);
    assert.match(debugger_?.containerID ?? '', /^drydock:\/\//);
    assert.deepEqual([once?.state?.terminated?.reason, once?.state?.terminated?.exitCode, once?.restartCount], ['Completed', 0, 0]);
    const logs = logLines(c, 'stuck', 'debugger');
    assert.deepEqual(logs, ['looking around']);
    const ev = (await events(c, 'stuck')).map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''}`);
    for (const reason of ['Pulled', 'Created', 'Started']) assert.ok(ev.includes(`${reason} spec.ephemeralContainers{debugger}`), ev.join('\n'));
    await c.client.delete(refs.pods, 'default', 'stuck');
    await clock.advance(5_000);
    const after = (await events(c, 'stuck')).map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''} ${e.message}`);
    assert.ok(after.includes('Killing spec.ephemeralContainers{debugger} Stopping container debugger'), after.join('\n'));
    // The debugger joined wait-db's PID namespace, so SIGTERM kills it; wait-db's `sleep` is that namespace's
    // PID 1, which ignores it until SIGKILL at the end of the 30 s grace period.
    const terminating = await pod(c, 'stuck');
    assert.equal(terminating.status?.ephemeralContainerStatuses?.find((s) => s.name === 'debugger')?.state?.terminated?.exitCode, 143);
    assert.ok(terminating.status?.initContainerStatuses?.[0]?.state?.running);
    await clock.advance(26_000);
    await assert.rejects(pod(c, 'stuck'), /not found/);
  } finally {
    await c.stop();
  }
});

test('activeDeadlineSeconds: the kubelet fails the pod with DeadlineExceeded once it has run that long; lowering it on a running pod takes effect', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, podObj('bounded', { activeDeadlineSeconds: 30, containers: [{ name: 'work', image: 'busybox', command: ['sleep', '3600'] }] }), { namespace: 'default' });
    await clock.advance(29_000);
    assert.equal((await pod(c, 'bounded')).status?.phase, 'Running');
    await clock.advance(5_000);
    const p = await pod(c, 'bounded');
    assert.deepEqual([p.status?.phase, p.status?.reason, p.status?.message], ['Failed', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
    assert.ok((await events(c, 'bounded')).some((e) => e.reason === 'DeadlineExceeded' && e.type === 'Normal'));
    // The kubelet stops its containers with the pod's grace period: `sleep`, PID 1, ignores SIGTERM and is killed at 30 s.
    assert.ok(p.status?.containerStatuses?.[0]?.state?.running, JSON.stringify(p.status?.containerStatuses));
    await clock.advance(30_000);
    assert.equal((await pod(c, 'bounded')).status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 137);

    await c.client.create(refs.pods, podObj('lowered', { activeDeadlineSeconds: 600, containers: [{ name: 'work', image: 'busybox', command: ['sleep', '3600'] }] }), { namespace: 'default' });
    await clock.advance(20_000);
    await c.client.patch(refs.pods, 'default', 'lowered', 'strategic', { spec: { activeDeadlineSeconds: 10 } });
    await clock.advance(3_000);
    assert.equal((await pod(c, 'lowered')).status?.reason, 'DeadlineExceeded');
  } finally {
    await c.stop();
  }
});

test('container statuses report their volume mounts: the token volume read-only and not recursively so, an emptyDir as mounted', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'mounts' },
      spec: { volumes: [{ name: 'scratch', emptyDir: {} }], containers: [{ name: 'app', image: 'nginx', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }] },
    }, { namespace: 'default' });
    await clock.advance(5_000);
    const p = await pod(c, 'mounts');
    const token = p.spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'))?.name ?? '';
    assert.equal(p.status?.phase, 'Running');
    assert.deepEqual(p.status?.containerStatuses?.[0]?.volumeMounts, [
      { name: 'scratch', mountPath: '/scratch' },
      { name: token, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true, recursiveReadOnly: 'Disabled' },
    ]);
  } finally {
    await c.stop();
  }
});

test('a recursiveReadOnly mount reads Enabled in the status when the node runtime handler supports it, as every simulated one does', async () => {
  const { c, clock } = await cluster();
  try {
    const mount = (name: string, mode?: 'Disabled' | 'IfPossible' | 'Enabled') => ({ name: 'scratch', mountPath: `/${name}`, readOnly: true, ...(mode ? { recursiveReadOnly: mode } : {}) });
    await c.client.create(refs.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'rro' },
      spec: {
        volumes: [{ name: 'scratch', emptyDir: {} }],
        automountServiceAccountToken: false,
        containers: [{ name: 'app', image: 'nginx', volumeMounts: [mount('plain'), mount('off', 'Disabled'), mount('maybe', 'IfPossible'), mount('on', 'Enabled')] }],
      },
    }, { namespace: 'default' });
    await clock.advance(5_000);
    const p = await pod(c, 'rro');
    const node = await c.client.get<Node>(refs.nodes, undefined, p.spec.nodeName ?? '');
    assert.ok(node.status?.runtimeHandlers?.every((h) => h.features?.recursiveReadOnlyMounts === true));
    assert.deepEqual(p.status?.containerStatuses?.[0]?.volumeMounts?.map((m) => [m.mountPath, m.recursiveReadOnly]), [
      ['/plain', 'Disabled'],
      ['/off', 'Disabled'],
      ['/maybe', 'Enabled'],
      ['/on', 'Enabled'],
    ]);
  } finally {
    await c.stop();
  }
});

test('a container whose secret is missing waits in CreateContainerConfigError, the others run, and it starts once the secret exists', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  const spec: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'env', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'db' } }] }, { name: 'proxy', image: 'envoy' }] },
  };
  await c.client.create(refs.pods, spec);
  const statuses = await watchStatus(c, clock, 'env', 2_000);
  assert.equal(statuses.at(-1), 'CreateContainerConfigError');
  const waiting = await pod(c, 'env');
  const app = waiting.status?.containerStatuses?.find((s) => s.name === 'app');
  assert.deepEqual(app?.state, { waiting: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' } });
  assert.equal(app?.restartCount, 0);
  // Never created, it reports the image as the spec names it; a created one, as the runtime does.
  assert.equal(app?.image, 'nginx');
  const proxy = waiting.status?.containerStatuses?.find((s) => s.name === 'proxy');
  assert.ok(proxy?.state?.running, 'the other container runs');
  assert.equal(proxy?.image, 'docker.io/library/envoy:latest');
  const failed = await c.client.list<Event>(refs.events, { namespace: 'default', fieldSelector: 'involvedObject.name=env,reason=Failed' });
  assert.deepEqual(failed.items.map((e) => [e.type, e.message, e.involvedObject.fieldPath]), [['Warning', 'Error: secret "db" not found', 'spec.containers{app}']]);
  await c.client.create(refs.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, data: { PASSWORD: Buffer.from('x').toString('base64') } });
  await clock.advance(15_100);
  const running = (await pod(c, 'env')).status?.containerStatuses?.find((s) => s.name === 'app');
  assert.ok(running?.state?.running, JSON.stringify(running?.state));
  assert.equal(running?.restartCount, 0);
  assert.equal(running?.image, 'docker.io/library/nginx:latest');
});

test("an image reference that does not parse: InvalidImageName with the image manager's message, tried again 10-15 s later", async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'typo', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'Nginx:1.27' }] } } as Pod);
  const statuses = await watchStatus(c, clock, 'typo', 2_000);
  assert.equal(statuses.at(-1), 'InvalidImageName');
  const message = 'Failed to apply default image tag "Nginx:1.27": couldn\'t parse image name "Nginx:1.27": invalid reference format: repository name (library/Nginx) must be lowercase';
  const status = (await pod(c, 'typo')).status?.containerStatuses?.[0];
  assert.deepEqual(status?.state, { waiting: { reason: 'InvalidImageName', message } });
  const seen = async (): Promise<string[]> => (await events(c, 'typo')).filter((e) => e.type === 'Warning').map((e) => `${e.reason} ${e.message} x${e.count ?? 1}`);
  assert.deepEqual(await seen(), [`InspectFailed ${message} x1`, 'Failed Error: InvalidImageName x1']);
  await clock.advance(15_000);
  assert.deepEqual(await seen(), [`InspectFailed ${message} x2`, 'Failed Error: InvalidImageName x2']);
});

test('FallbackToLogsOnError: a failed container\'s termination message is the end of its logs (80 lines, 2,048 bytes); File and success leave none', async () => {
  const { c, clock } = await cluster();
  try {
    const lines = Array.from({ length: 100 }, (_, i) => `echo step-${i}`).join('; ');
    const container = (name: string, script: string, policy: 'File' | 'FallbackToLogsOnError') => ({ name, image: 'busybox', terminationMessagePolicy: policy, command: ['sh', '-c', script] });
    await createPod(c, 'train', {
      spec: {
        restartPolicy: 'Never',
        containers: [
          container('oom', 'echo loading model; echo "CUDA error: out of memory"; exit 3', 'FallbackToLogsOnError'),
          container('long', `${lines}; exit 1`, 'FallbackToLogsOnError'),
          container('file', 'echo bye; exit 2', 'File'),
          container('ok', 'echo done', 'FallbackToLogsOnError'),
        ],
      },
    });
    await clock.advance(5_000);
    const terminated = (await pod(c, 'train')).status?.containerStatuses?.map((s) => [s.name, s.state?.terminated?.exitCode, s.state?.terminated?.message]);
    const last80 = Array.from({ length: 80 }, (_, i) => `step-${i + 20}\n`).join('');
    assert.deepEqual(terminated, [
      ['file', 2, undefined],
      ['long', 1, last80.slice(-2048)],
      ['ok', 0, undefined],
      ['oom', 3, 'loading model\nCUDA error: out of memory\n'],
    ]);
  } finally {
    await c.stop();
  }
});

test('what a container writes to its terminationMessagePath is its termination message: the last 4 KiB, before the logs, new for each instance', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  const container = (name: string, script: string, more: Record<string, string> = {}) => ({ name, image: 'busybox', command: ['sh', '-c', script], ...more });
  await createPod(c, 'report', {
    spec: {
      restartPolicy: 'Never',
      containers: [
        // kubernetes.io's "Determine the Reason for Pod Failure" example.
        container('demo', 'sleep 1 && echo Sleep expired > /dev/termination-log'),
        container('custom', 'echo "epoch 3: loss 0.12" > /tmp/result; exit 1', { terminationMessagePath: '/tmp/result', terminationMessagePolicy: 'FallbackToLogsOnError' }),
        container('fallback', 'echo from the logs; exit 1', { terminationMessagePolicy: 'FallbackToLogsOnError' }),
        container('long', `i=0; while [ $i -lt 600 ]; do echo 0123456789 >> /dev/termination-log; i=$((i+1)); done`),
      ],
    },
  });
  await clock.advance(5_000);
  const terminated = Object.fromEntries((await pod(c, 'report')).status?.containerStatuses?.map((s) => [s.name, [s.state?.terminated?.exitCode, s.state?.terminated?.message]]) ?? []);
  assert.deepEqual(terminated.demo, [0, 'Sleep expired\n']);
  assert.deepEqual(terminated.custom, [1, 'epoch 3: loss 0.12\n']);
  assert.deepEqual(terminated.fallback, [1, 'from the logs\n']);
  // 6,600 bytes written: the kubelet reads the last 4,096 (tail.ReadAtMost), cut to the pod's 12 KiB / 4 containers.
  assert.equal(terminated.long?.[1], '0123456789\n'.repeat(600).slice(-4096).slice(0, 3072));
});

test('a restarted container starts with an empty termination log: the last instance\'s message stays with lastState', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await createPod(c, 'again', {
    spec: { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'cat /dev/termination-log; echo try >> /dev/termination-log; sleep 1; exit 1'] }] },
  });
  await clock.advance(3_000);
  const status = (await pod(c, 'again')).status?.containerStatuses?.[0];
  assert.equal(status?.lastState?.terminated?.message, 'try\n');
  assert.ok((status?.restartCount ?? 0) >= 1);
});

test("$(VAR) in command and args is the container's variable when it runs: the docs' ConfigMap echo prints its values", async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await createSpecialConfig(c);
  const key = (name: string, from: string) => ({ name, valueFrom: { configMapKeyRef: { name: 'special-config', key: from } } });
  await createPod(c, 'dapi-test-pod', {
    spec: { restartPolicy: 'Never', containers: [{ name: 'test-container', image: 'registry.k8s.io/busybox:1.27.2', command: ['/bin/echo', '$(SPECIAL_LEVEL_KEY) $(SPECIAL_TYPE_KEY)'], env: [key('SPECIAL_LEVEL_KEY', 'SPECIAL_LEVEL'), key('SPECIAL_TYPE_KEY', 'SPECIAL_TYPE')] }] },
  });
  await clock.advance(3_000);
  assert.equal((await pod(c, 'dapi-test-pod')).status?.phase, 'Succeeded');
  assert.deepEqual(logLines(c, 'dapi-test-pod', 'test-container'), ['very charm']);
});

test("the docs' lifecycle-demo: the postStart handler's file is there for kubectl exec; the ConfigMap page's ls lists the volume", async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await createSpecialConfig(c);
  await createPod(c, 'lifecycle-demo', {
    spec: { containers: [{ name: 'lifecycle-demo-container', image: 'nginx', lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', 'echo Hello from the postStart handler > /usr/share/message'] } } } }] },
  });
  await createPod(c, 'dapi-test-pod', {
    spec: { restartPolicy: 'Never', containers: [{ name: 'test-container', image: 'registry.k8s.io/busybox:1.27.2', command: ['/bin/sh', '-c', 'ls /etc/config/'], volumeMounts: [{ name: 'config-volume', mountPath: '/etc/config' }] }], volumes: [{ name: 'config-volume', configMap: { name: 'special-config' } }] },
  });
  await clock.advance(3_000);
  const context = execContextOf(c, 'lifecycle-demo', 'lifecycle-demo-container');
  assert.ok(context);
  assert.equal(execOutput(context, ['cat', '/usr/share/message']), 'Hello from the postStart handler\n');
  assert.equal((await pod(c, 'dapi-test-pod')).status?.phase, 'Succeeded');
  assert.deepEqual(logLines(c, 'dapi-test-pod', 'test-container'), ['SPECIAL_LEVEL', 'SPECIAL_TYPE']);
});

test("the docs' security-context-demo: id in kubectl exec and in the container's script shows the user status.user reports", async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await createPod(c, 'security-context-demo', {
    spec: {
      securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000] },
      volumes: [{ name: 'sec-ctx-vol', emptyDir: {} }],
      containers: [
        { name: 'sec-ctx-demo', image: 'busybox:1.28', command: ['sh', '-c', 'sleep 1h'], volumeMounts: [{ name: 'sec-ctx-vol', mountPath: '/data/demo' }], securityContext: { allowPrivilegeEscalation: false } },
        { name: 'root', image: 'busybox:1.28', command: ['sh', '-c', 'id; id -u; sleep 1h'], securityContext: { runAsUser: 0, runAsGroup: 0 } },
      ],
    },
  });
  await clock.advance(3_000);
  const context = execContextOf(c, 'security-context-demo', 'sec-ctx-demo');
  assert.ok(context);
  assert.equal(execOutput(context, ['id']), 'uid=1000 gid=3000 groups=2000,3000,4000\n');
  assert.equal(execOutput(context, ['sh', '-c', 'id -u; id -G']), '1000\n2000 3000 4000\n');
  assert.deepEqual((await pod(c, 'security-context-demo')).status?.containerStatuses?.find((s) => s.name === 'sec-ctx-demo')?.user, { linux: { uid: 1000, gid: 3000, supplementalGroups: [2000, 3000, 4000] } });
  assert.deepEqual(logLines(c, 'security-context-demo', 'root'), ['uid=0(root) gid=0(root) groups=0(root),2000,4000', '0']);
});

test('a RuntimeClass whose handler the node lacks: no sandbox, host network or not; FailedCreatePodSandBox again at each try', async () => {
  const { c, clock } = await cluster();
  try {
    await c.client.create(refs.runtimeClasses, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'nvidia' }, handler: 'nvidia' });
    await clock.advance(100);
    for (const [name, hostNetwork] of [['cuda', false], ['cuda-host', true]] as const) {
      await c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { runtimeClassName: 'nvidia', hostNetwork, containers: [{ name: 'c', image: 'nvidia/cuda:12.4.1-base-ubuntu22.04' }] } });
    }
    await clock.advance(25_000);
    for (const name of ['cuda', 'cuda-host']) {
      assert.equal(podStatusCells(await pod(c, name)).status, 'ContainerCreating', name);
      const failed = (await events(c, name)).filter((e) => e.reason === 'FailedCreatePodSandBox');
      assert.deepEqual(failed.map((e) => e.message), ['Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured'], name);
      assert.ok((failed[0]?.count ?? 0) >= 2, `${name}: tried again (count ${failed[0]?.count})`);
    }
  } finally {
    await c.stop();
  }
});

test('HOSTNAME and /etc/hostname are the sandbox\'s hostname: spec.hostname, the FQDN with setHostnameAsFQDN', async () => {
  const { c, clock } = await cluster();
  try {
    const make = (name: string, spec: Partial<Pod['spec']>) => c.client.create(refs.pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { ...spec, containers: [{ name: 'c', image: 'nginx:1.27' }] } });
    await make('plain', {});
    await make('named', { hostname: 'worker-0', subdomain: 'trainers' });
    await make('fqdn', { hostname: 'worker-1', subdomain: 'trainers', setHostnameAsFQDN: true });
    await clock.advance(5_000);
    const seen = ['plain', 'named', 'fqdn'].map((name) => {
      const context = execContextOf(c, name, 'c');
      const file = context?.files?.mounts.find((m) => m.path === '/etc/hostname')?.node;
      return [context?.env.HOSTNAME, file?.kind === 'file' ? file.data.toString() : undefined];
    });
    assert.deepEqual(seen, [
      ['plain', 'plain\n'],
      ['worker-0', 'worker-0\n'],
      ['worker-1.trainers.default.svc.cluster.local', 'worker-1.trainers.default.svc.cluster.local\n'],
    ]);
  } finally {
    await c.stop();
  }
});

test('what kubectl cp puts in an emptyDir counts as its usage: past its sizeLimit the pod is evicted with the kubelet\'s message', async () => {
  const { c, clock } = await cluster();
  try {
    await createPod(c, 'cache', {
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }], volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '100Ki' } }] },
    });
    await clock.advance(5_000);
    const context = execContextOf(c, 'cache', 'c');
    assert.ok(context, 'the container runs');
    // A 150 KiB file, as kubectl cp sends it: a ustar archive on standard input.
    const archive = tarArchive([{ name: 'weights.bin', type: 'file', mode: 0o644, mtimeSeconds: 0, data: Buffer.alloc(150 * 1024, 7) }]);
    assert.equal(runExec(['tar', '-xmf', '-', '-C', '/scratch'], context, archive).exitCode, 0);
    await clock.advance(15_000);
    const evicted = await pod(c, 'cache');
    assert.deepEqual([evicted.status?.phase, evicted.status?.reason, evicted.status?.message], ['Failed', 'Evicted', 'Usage of EmptyDir volume "scratch" exceeds the limit "100Ki". ']);
  } finally {
    await c.stop();
  }
});

test("a deleted ConfigMap's volume keeps the files written last (its remount fails); an optional one's is emptied", async () => {
  const { c, clock } = await cluster();
  try {
    const map = (name: string, value: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { 'app.yaml': value } });
    await c.client.create(refs.configMaps, map('app', 'model: llama\n'));
    await c.client.create(refs.configMaps, map('extra', 'debug: true\n'));
    await createPod(c, 'server', {
      spec: {
        containers: [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'config', mountPath: '/etc/app' }, { name: 'extra', mountPath: '/etc/extra' }] }],
        volumes: [{ name: 'config', configMap: { name: 'app' } }, { name: 'extra', configMap: { name: 'extra', optional: true } }],
      },
    });
    await clock.advance(5_000);
    const read = (argv: string[]): string => {
      const context = execContextOf(c, 'server', 'c');
      assert.ok(context, 'the container runs');
      const r = runExec(argv, context);
      return `${r.exitCode}:${r.steps.map((step) => ('stream' in step ? String(step.text) : '')).join('')}`;
    };
    assert.equal(read(['cat', '/etc/app/app.yaml']), '0:model: llama\n');
    const dataDirectory = (): string => read(['ls', '-a', '/etc/app']).split('\n')[2] ?? '';
    const before = dataDirectory();
    // A changed ConfigMap reaches the files at the pod's next sync, a minute from its start.
    await c.client.update(refs.configMaps, { ...map('app', 'model: mistral\n') });
    await clock.advance(1_000);
    assert.equal(read(['cat', '/etc/app/app.yaml']), '0:model: llama\n');
    await clock.advance(55_000);
    assert.deepEqual([read(['cat', '/etc/app/app.yaml']), dataDirectory() !== before], ['0:model: mistral\n', true], 'the atomic writer wrote a new directory');
    await c.client.delete(refs.configMaps, 'default', 'app');
    await c.client.delete(refs.configMaps, 'default', 'extra');
    await clock.advance(1_000);
    assert.deepEqual([read(['cat', '/etc/app/app.yaml']), read(['ls', '/etc/extra'])], ['0:model: mistral\n', '0:']);
    // The pod's next sync (two minutes from its start) fails to remount it, and the volume manager retries with its backoff.
    const failedMounts = async (): Promise<[string | undefined, number | undefined][]> =>
      (await events(c, 'server')).filter((e) => e.reason === 'FailedMount').map((e) => [e.message, e.count]);
    await clock.advance(57_000);
    assert.deepEqual(await failedMounts(), [], 'none before the sync');
    await clock.advance(1_500);
    assert.deepEqual((await failedMounts()).map(([message]) => message), ['MountVolume.SetUp failed for volume "config" : configmap "app" not found']);
    await clock.advance(20_000);
    const [[, count = 0] = []] = await failedMounts();
    assert.ok(count >= 5, `retried: ${count}`);
    await c.client.create(refs.configMaps, map('app', 'model: qwen\n'));
    await clock.advance(130_000);
    const [[, after = 0] = []] = await failedMounts();
    await clock.advance(130_000);
    assert.deepEqual([(await failedMounts())[0]?.[1], read(['cat', '/etc/app/app.yaml'])], [after, '0:model: qwen\n']);
  } finally {
    await c.stop();
  }
});
