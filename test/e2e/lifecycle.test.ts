// The pod lifecycle as a kubectl user sees it on simulated nodes: the sidecar Job pod's STATUS
// sequence under `get -w`, `kubectl logs` and its flags, describe's events, a termination message
// from the logs, exec's refusal, `kubectl debug`'s ephemeral containers, container restart rules and
// how a `sleep` pod dies when deleted.
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';

/**
 * `kubectl get <args> -w -v=6` running: what it printed, a wait (100 ms steps) that fails showing its output
 * and log, and `opened`: -v=6 logs the watch request once it is answered, so what is made after it shows whole.
 */
function watchGet(dd: Drydock, args: readonly string[]): { out: () => string; until: (done: (out: string) => boolean, what: string, ms?: number) => Promise<void>; opened: () => Promise<void>; kill: () => void } {
  const watch = dd.spawnKubectl(['get', ...args, '-w', '-v=6']);
  let out = '';
  let log = '';
  watch.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  watch.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const until = async (done: (text: string) => boolean, what: string, ms = 15_000): Promise<void> => {
    for (let i = 0; i < ms / 100 && !done(out); i++) await new Promise((res) => globalThis.setTimeout(res, 100));
    assert.ok(done(out), `${what}:\n${out}\n${log}`);
  };
  const opened = (): Promise<void> => until(() => /"Response" verb="GET" url="[^"]*watch=true/.test(log), 'the watch is open');
  return { out: () => out, until, opened, kill: () => watch.kill() };
}

describe('pod lifecycle on simulated nodes', () => {
  const dd = drydockForSuite({ config });

  test('the node registers Ready with its kubelet version', async () => {
    const r = await dd.kubectl(['get', 'node', 'cpu-0', '-o', 'jsonpath={.status.nodeInfo.kubeletVersion} {.status.conditions[?(@.type=="Ready")].reason}']);
    assert.equal(r.stdout, 'v1.35.0 KubeletReady', r.stderr);
  });

  test('get -w shows Init:0/2 -> Init:1/2 -> PodInitializing -> Running -> Completed for the sidecar Job pod', async () => {
    // The pod is created once the watch is open, so its first line is Pending.
    const watch = watchGet(dd, ['pods']);
    await watch.opened();
    const path = dd.writeFile('sidecar-job-pod.yaml', fixture('sidecar-job-pod.yaml'));
    const r = await dd.kubectl(['create', '-f', path]);
    assert.equal(r.stdout.trim(), 'pod/batch-worker created', r.stderr);
    let phase = '';
    for (let i = 0; i < 100 && phase !== 'Succeeded'; i++) {
      const g = await dd.kubectl(['get', 'pod', 'batch-worker', '-o', 'jsonpath={.status.phase}']);
      phase = g.stdout;
      if (phase !== 'Succeeded') await new Promise((res) => globalThis.setTimeout(res, 200));
    }
    assert.equal(phase, 'Succeeded');
    await watch.until((out) => /^batch-worker\s+\S+\s+Completed/m.test(out), 'the watch shows Completed');
    watch.kill();
    const out = watch.out();
    const statuses = out.split('\n').filter((l) => l.startsWith('batch-worker')).map((l) => l.split(/\s+/)[2]);
    assert.deepEqual(statuses.filter((x, i) => x !== statuses[i - 1]), ['Pending', 'Init:0/2', 'Init:1/2', 'PodInitializing', 'Running', 'Completed'], out);
    const g = await dd.kubectl(['get', 'pod', 'batch-worker', '-o', 'json']);
    const pod = JSON.parse(g.stdout) as { status: { initContainerStatuses: { name: string; state: { terminated: { startedAt: string; finishedAt: string } } }[]; containerStatuses: { state: { terminated: { startedAt: string; finishedAt: string } } }[] } };
    const [agent, migration] = pod.status.initContainerStatuses;
    const worker = pod.status.containerStatuses[0];
    const t = (s: string | undefined): number => Date.parse(s ?? '');
    assert.ok(t(agent?.state.terminated.startedAt) <= t(migration?.state.terminated.startedAt));
    assert.ok(t(migration?.state.terminated.finishedAt) <= t(worker?.state.terminated.startedAt));
    assert.ok(t(worker?.state.terminated.finishedAt) <= t(agent?.state.terminated.finishedAt));
  });

  test('kubectl logs: default container, -c, --tail, --timestamps', async () => {
    let r = await dd.kubectl(['logs', 'batch-worker']);
    assert.equal(r.stdout, 'processing batch\ndone\n', r.stderr);
    r = await dd.kubectl(['logs', 'batch-worker', '-c', 'log-agent']);
    assert.equal(r.stdout, '[fluent bit] started\n[output:stdout] flushing\n[engine] caught signal (SIGTERM)\n[engine] flushed 3 records\n', r.stderr);
    r = await dd.kubectl(['logs', 'batch-worker', '-c', 'db-migration', '--tail', '1']);
    assert.equal(r.stdout, 'migration 42 applied\n', r.stderr);
    r = await dd.kubectl(['logs', 'batch-worker', '-c', 'worker', '--timestamps']);
    assert.match(r.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z processing batch\n\S+ done\n$/);
    r = await dd.kubectl(['logs', 'batch-worker', '-c', 'worker', '--previous']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server (BadRequest): previous terminated container "worker" in pod "batch-worker" not found');
    // ValidatePodLogOptions, before the container is looked up (kubectl checks --tail itself; a client need not).
    r = await dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/batch-worker/log?tailLines=-5&limitBytes=0']);
    assert.equal(r.stderr.trim(), 'The PodLogOptions "batch-worker" is invalid: \n* tailLines: Invalid value: -5: must be greater than or equal to 0\n* limitBytes: Invalid value: 0: must be greater than 0');
    r = await dd.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/batch-worker/log?sinceTime=2026-12-06']);
    assert.equal(r.stderr.trim(), 'Error from server (BadRequest): parsing time "2026-12-06" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"');
  });

  test('an image the registry does not have: ErrImagePull / ImagePullBackOff in get, logs and describe', async () => {
    const r = await dd.kubectl(['run', 'typo', '--image=nginx:1.27-typo', '--annotations=sim.drydock.dev/typo=pull: notFound']);
    assert.equal(r.stdout.trim(), 'pod/typo created', r.stderr);
    let status = '';
    for (let i = 0; i < 50 && !/ImagePull/.test(status); i++) {
      status = (await dd.kubectl(['get', 'pod', 'typo', '--no-headers'])).stdout;
      if (!/ImagePull/.test(status)) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.match(status, /^typo\s+0\/1\s+(ErrImagePull|ImagePullBackOff)\s+0\s/);
    const logs = await dd.kubectl(['logs', 'typo']);
    assert.match(logs.stderr.trim(), /^Error from server \(BadRequest\): container "typo" in pod "typo" is waiting to start: (image can't be pulled|trying and failing to pull image)$/);
    const described = (await dd.kubectl(['describe', 'pod', 'typo'])).stdout;
    assert.match(described, /Failed to pull image "nginx:1\.27-typo": rpc error: code = NotFound desc = failed to pull and unpack image "docker\.io\/library\/nginx:1\.27-typo"/);
    assert.match(described, /Error: ErrImagePull/);
    await dd.kubectl(['delete', 'pod', 'typo', '--grace-period=0']);
  });

  test('kubectl set image pod/...: the kubelet restarts the container on the new image (restart count 1, Killing "definition changed")', async () => {
    let r = await dd.kubectl(['run', 'retag', '--image=nginx:1.27', '--restart=Never']);
    assert.equal(r.stdout.trim(), 'pod/retag created', r.stderr);
    const status = async (): Promise<{ image: string; imageID: string; restartCount: number; state: { running?: unknown }; lastState: { terminated?: { exitCode: number } } }> => {
      const g = await dd.kubectl(['get', 'pod', 'retag', '-o', 'jsonpath={.status.containerStatuses[0]}']);
      return g.stdout ? JSON.parse(g.stdout) : { image: '', imageID: '', restartCount: 0, state: {}, lastState: {} };
    };
    for (let i = 0; i < 50 && !(await status()).state.running; i++) await new Promise((res) => globalThis.setTimeout(res, 100));
    r = await dd.kubectl(['set', 'image', 'pod/retag', 'retag=nginx:1.28']);
    assert.equal(r.stdout.trim(), 'pod/retag image updated', r.stderr);
    let s = await status();
    for (let i = 0; i < 50 && s.restartCount === 0; i++) {
      await new Promise((res) => globalThis.setTimeout(res, 100));
      s = await status();
    }
    assert.deepEqual([s.restartCount, s.image, s.state.running !== undefined, s.lastState.terminated?.exitCode], [1, 'docker.io/library/nginx:1.28', true, 0]);
    assert.match(s.imageID, /^docker\.io\/library\/nginx@sha256:/);
    const ev = await dd.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=retag,reason=Killing', '-o', 'jsonpath={.items[*].message}']);
    assert.equal(ev.stdout, 'Container retag definition changed, will be restarted', ev.stderr);
    const phase = await dd.kubectl(['get', 'pod', 'retag', '-o', 'jsonpath={.status.phase}']);
    assert.equal(phase.stdout, 'Running');
    await dd.kubectl(['delete', 'pod', 'retag', '--grace-period=0']);
  });

  test('describe pod lists the kubelet events in order', async () => {
    const r = await dd.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=batch-worker', '-o', 'json']);
    const list = JSON.parse(r.stdout) as { items: { reason: string; involvedObject: { fieldPath?: string }; source: { component: string; host: string }; firstTimestamp: string }[] };
    const seq = list.items.map((e) => `${e.reason} ${e.involvedObject.fieldPath ?? ''}`);
    const order = ['Started spec.initContainers{log-agent}', 'Started spec.initContainers{db-migration}', 'Started spec.containers{worker}', 'Killing spec.initContainers{log-agent}'];
    const idx = order.map((o) => seq.indexOf(o));
    assert.ok(idx.every((i) => i >= 0), seq.join('\n'));
    assert.deepEqual([...idx].sort((a, b) => a - b), idx);
    assert.ok(list.items.every((e) => e.source.component === 'kubelet' && e.source.host === 'cpu-0'));
    const d = await dd.kubectl(['describe', 'pod', 'batch-worker']);
    assert.match(d.stdout, /Stopping container log-agent/);
  });

  test("ready: never in the behaviour annotation fails an exec readiness probe running `true`: 0/1, Unhealthy, Ready=False", async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'never-ready', annotations: { 'sim.drydock.dev/web': 'ready: never' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27', readinessProbe: { exec: { command: ['true'] }, periodSeconds: 1 } }] },
    };
    await dd.ok(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    const unhealthy = async (): Promise<string> => dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=never-ready,reason=Unhealthy', '-o', 'jsonpath={.items[*].message}']);
    let message = '';
    for (let i = 0; i < 100 && !message; i++) {
      message = await unhealthy();
      if (!message) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(message, 'Readiness probe failed: ');
    const row = await dd.ok(['get', 'pod', 'never-ready', '--no-headers']);
    assert.deepEqual(row.trim().split(/\s+/).slice(1, 3), ['0/1', 'Running']);
    const ready = await dd.ok(['get', 'pod', 'never-ready', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].reason} {.status.conditions[?(@.type=="Ready")].message}']);
    assert.equal(ready, 'ContainersNotReady containers with unready status: [web]');
    await dd.kubectl(['delete', 'pod', 'never-ready', '--grace-period=0']);
  });

  test('a postStart hook exiting 7: the container waits in PostStartHookError with the hook runner\'s message, then CrashLoopBackOff', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hooked' },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo warming; exit 7'] } } } }] },
    };
    // Every status the kubelet writes, as `get -w` shows it: a short-lived reason cannot slip between two polls.
    const waiting = '{.status.containerStatuses[0].state.waiting.reason}|{.status.containerStatuses[0].state.waiting.message}{"\\n"}';
    const watch = watchGet(dd, ['pods', '--field-selector', 'metadata.name=hooked', '-o', `jsonpath=${waiting}`]);
    await watch.opened();
    await dd.ok(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    const uid = (await dd.ok(['get', 'pod', 'hooked', '-o', 'jsonpath={.metadata.uid}'])).trim();
    await watch.until((out) => out.includes('\nCrashLoopBackOff|'), 'the watch shows CrashLoopBackOff', 60_000);
    watch.kill();
    const seen: string[] = [];
    const messages = new Map<string, string>();
    for (const line of watch.out().split('\n')) {
      const [reason = '', message = ''] = line.split('|');
      if (reason && seen.at(-1) !== reason) seen.push(reason);
      if (reason && !messages.has(reason)) messages.set(reason, message);
    }
    assert.deepEqual(seen.slice(0, 3), ['ContainerCreating', 'PostStartHookError', 'CrashLoopBackOff'], watch.out());
    assert.equal(messages.get('PostStartHookError'), `Exec lifecycle hook ([sh -c echo warming; exit 7]) for Container "web" in Pod "hooked_default(${uid})" failed - error: command 'sh -c echo warming; exit 7' exited with 7: , message: "warming\\n"`);
    const events = await dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=hooked,reason=FailedPostStartHook', '-o', 'jsonpath={.items[0].message}']);
    assert.equal(events, 'PostStartHook failed');
    await dd.kubectl(['delete', 'pod', 'hooked', '--grace-period=0']);
  });

  test("the kubelet's /metrics/probes counts each probe by result; /metrics its pods, containers and image pulls", async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probed' },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27', readinessProbe: { exec: { command: ['sh', '-c', 'exit 1'] }, periodSeconds: 1 }, livenessProbe: { exec: { command: ['sh', '-c', 'exit 0'] }, periodSeconds: 1 } }] },
    };
    await dd.ok(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    const scrape = async (path: string): Promise<string> => dd.ok(['get', '--raw', `/api/v1/nodes/cpu-0/proxy/${path}`]);
    let probes = '';
    for (let i = 0; i < 100 && !/Readiness",result="failed"} [2-9]/.test(probes); i++) {
      probes = await scrape('metrics/probes');
      await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    const uid = (await dd.ok(['get', 'pod', 'probed', '-o', 'jsonpath={.metadata.uid}'])).trim();
    const series = `container="web",namespace="default",pod="probed"`;
    assert.match(probes, new RegExp(`^prober_probe_total\\{${series},pod_uid="${uid}",probe_type="Liveness",result="successful"\\} [1-9]\\d*$`, 'm'));
    assert.match(probes, new RegExp(`^prober_probe_total\\{${series},pod_uid="${uid}",probe_type="Readiness",result="failed"\\} [2-9]\\d*$`, 'm'));
    // A failed attempt's duration is not observed.
    assert.match(probes, new RegExp(`^prober_probe_duration_seconds_count\\{${series},probe_type="Liveness"\\} [1-9]`, 'm'));
    assert.doesNotMatch(probes, /probe_type="Readiness",result="successful"|prober_probe_duration_seconds_count\{[^}]*Readiness/);
    assert.match(probes, /^# HELP prober_probe_total \[BETA\] Cumulative number of a liveness, readiness or startup probe for a container by result\.$/m);
    const metrics = await scrape('metrics');
    assert.match(metrics, /^kubelet_node_name\{node="cpu-0"\} 1$/m);
    assert.match(metrics, /^kubernetes_build_info\{[^}]*git_version="v1\.35\.0",go_version="go1\.25\.0",major="1",minor="35",platform="linux\/amd64"\} 1$/m);
    assert.match(metrics, /^kubelet_started_containers_total\{container_type="init_container"\} [1-9]/m);
    assert.match(metrics, /^kubelet_image_pull_duration_seconds_count\{image_size_in_bytes="100MB-500MB"\} [1-9]/m);
    assert.match(metrics, /^kubelet_running_containers\{container_state="running"\} [1-9]/m);
  });

  test("the kubelet's /configz: its KubeletConfiguration as kubeadm configures it, with the node's own values", async () => {
    const r = await dd.kubectl(['get', '--raw', '/api/v1/nodes/cpu-0/proxy/configz']);
    assert.equal(r.code, 0, r.stderr);
    const config = (JSON.parse(r.stdout) as { kubeletconfig: Record<string, unknown> }).kubeletconfig;
    assert.deepEqual(
      [config.maxPods, config.cgroupDriver, config.clusterDNS, config.providerID, config.nodeStatusReportFrequency, config.failCgroupV1, config.featureGates, config.kind],
      [110, 'systemd', ['10.96.0.10'], 'drydock://cpu-0', '5m0s', true, { DRADeviceTaints: true, DRAExtendedResource: true, DRAPartitionableDevices: true }, undefined],
    );
    assert.deepEqual(Object.keys(config).slice(0, 4), ['enableServer', 'staticPodPath', 'podLogsDir', 'syncFrequency']);
  });

  test('a failed container with FallbackToLogsOnError: describe shows the end of its logs as its termination message', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'trainer' }, spec: { restartPolicy: 'Never', containers: [{ name: 'train', image: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime', terminationMessagePolicy: 'FallbackToLogsOnError', command: ['sh', '-c', 'echo loading checkpoint; echo "RuntimeError: CUDA out of memory"; exit 1'] }] } };
    await dd.ok(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    let message = '';
    for (let i = 0; i < 100 && message === ''; i++) {
      message = (await dd.kubectl(['get', 'pod', 'trainer', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.message}'])).stdout;
      if (message === '') await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(message, 'loading checkpoint\nRuntimeError: CUDA out of memory\n');
    assert.match(await dd.ok(['describe', 'pod', 'trainer']), /Reason: +Error\n +Message: +loading checkpoint\nRuntimeError: CUDA out of memory\n\n +Exit Code: +1\n/);
  });

  test("kubernetes.io's termination-demo: what the container writes to /dev/termination-log is lastState's message", async () => {
    // "Determine the Reason for Pod Failure", its sleep shortened.
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: termination-demo\nspec:\n  containers:\n  - name: termination-demo-container\n    image: debian\n    command: ["/bin/sh"]\n    args: ["-c", "sleep 1 && echo Sleep expired > /dev/termination-log"]\n';
    await dd.ok(['apply', '-f', '-'], { input: pod });
    const template = '{{range .status.containerStatuses}}{{.lastState.terminated.message}}{{end}}';
    let message = '';
    for (let i = 0; i < 100 && !message.startsWith('Sleep'); i++) {
      message = (await dd.kubectl(['get', 'pod', 'termination-demo', '-o', `go-template=${template}`])).stdout;
      if (!message.startsWith('Sleep')) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    assert.equal(message, 'Sleep expired\n');
  });

  test('logs -f streams until the container exits; exec of an unsimulated command is refused and a port-forwarded connection finds no listener', async () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ticker\n  annotations:\n    sim.drydock.dev/app: "{logs: [hello], logEvery: 100ms, runFor: 1s}"\nspec:\n  nodeName: cpu-0\n  restartPolicy: Never\n  containers:\n  - name: app\n    image: busybox\n';
    let r = await dd.kubectl(['create', '-f', '-'], { input: pod });
    assert.equal(r.code, 0, r.stderr);
    for (let i = 0; i < 50; i++) {
      const g = await dd.kubectl(['get', 'pod', 'ticker', '-o', 'jsonpath={.status.containerStatuses[0].state.running.startedAt}']);
      if (g.stdout) break;
      await new Promise((res) => globalThis.setTimeout(res, 50));
    }
    r = await dd.kubectl(['logs', '-f', 'ticker'], { timeoutMs: 10_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^hello\n(tick \d+\n)+$/);
    r = await dd.kubectl(['run', 'web', '--image', 'nginx', '--overrides', '{"spec":{"nodeName":"cpu-0"}}']);
    assert.equal(r.code, 0, r.stderr);
    for (let i = 0; i < 50; i++) {
      const g = await dd.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}']);
      if (g.stdout === 'Running') break;
      await new Promise((res) => globalThis.setTimeout(res, 50));
    }
    r = await dd.kubectl(['exec', 'web', '--', 'curl', '-s', 'localhost']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /failed to exec in container: "curl" is not simulated/);
    // port-forward listens, and a connection to it finds nothing listening in the pod, as containerd reports it.
    const forward = dd.spawnKubectl(['port-forward', 'pod/web', ':80']);
    let out = '';
    let err = '';
    forward.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    forward.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((res) => forward.once('exit', res));
    for (let i = 0; i < 100 && !/Forwarding from 127\.0\.0\.1:\d+/.test(out); i++) await new Promise((res) => globalThis.setTimeout(res, 50));
    const local = Number(/Forwarding from 127\.0\.0\.1:(\d+) -> 80/.exec(out)?.[1]);
    assert.ok(local > 0, `${out}${err}`);
    await new Promise<void>((res) => connect(local, '127.0.0.1').on('close', () => res()).on('error', () => res()).resume());
    const code = await Promise.race([exited, new Promise<string>((res) => globalThis.setTimeout(() => res('still running'), 10_000))]);
    forward.kill();
    assert.notEqual(code, 0);
    assert.match(err, /an error occurred forwarding \d+ -> 80: error forwarding port 80 to pod [0-9a-f]{64}, uid : failed to execute portforward in network namespace \\?"\/var\/run\/netns\/cni-[0-9a-f-]{36}\\?": failed to connect to localhost:80 inside namespace \\?"[0-9a-f]{64}\\?", IPv4: dial tcp4 127\.0\.0\.1:80: connect: connection refused IPv6 dial tcp6 \[::1\]:80: connect: connection refused/);
    assert.match(err, /error: lost connection to pod/);
  });

  test('kubectl debug adds an ephemeral container the kubelet starts; logs -c shows its output; -it shows it too', async () => {
    let r = await dd.kubectl(['debug', 'web', '--image=busybox', '--target=web', '--container=debugger', '--', 'sh', '-c', 'echo looking at web; sleep 3600']);
    assert.equal(r.code, 0, r.stderr);
    let state = '';
    for (let i = 0; i < 50 && !state.includes('running'); i++) {
      state = (await dd.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.ephemeralContainerStatuses[0].state}'])).stdout;
      if (!state.includes('running')) await new Promise((res) => globalThis.setTimeout(res, 50));
    }
    assert.match(state, /"running":\{"startedAt":"/);
    r = await dd.kubectl(['logs', 'web', '-c', 'debugger']);
    assert.equal(r.stdout, 'looking at web\n', r.stderr);
    const d = await dd.kubectl(['describe', 'pod', 'web']);
    assert.match(d.stdout, /Ephemeral Containers:\n  debugger:\n    Container ID:  drydock:\/\/[0-9a-f]{64}\n/);
    // -it attaches (or, once the container has ended, kubectl shows its logs): its output either way.
    r = await dd.kubectl(['debug', '-it', 'web', '--image=busybox', '--container=once', '--', 'sh', '-c', 'echo one look'], { timeoutMs: 20_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /one look\n/);
    const g = await dd.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase} {.status.ephemeralContainerStatuses[1].name} {.status.ephemeralContainerStatuses[1].state.terminated.reason}']);
    assert.equal(g.stdout, 'Running once Completed');
    // A debug shell takes the attached input; its exit ends the ephemeral container with that code.
    r = await dd.kubectl(['debug', '-i', 'web', '--image=busybox', '--container=shell', '--', 'sh'], { input: 'echo from $HOSTNAME\nexit 4\n', timeoutMs: 20_000 });
    assert.match(r.stdout, /^from web$/m, r.stderr);
    let code = '';
    for (let i = 0; i < 50 && code !== '4'; i++) {
      code = (await dd.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.ephemeralContainerStatuses[2].state.terminated.exitCode}'])).stdout;
      if (code !== '4') await new Promise((res) => globalThis.setTimeout(res, 50));
    }
    assert.equal(code, '4');
  });
  test('container restart rules (1.35 beta): exit 42 restarts the trainer in place, the Never pod stays Running; rules need a restartPolicy', async () => {
    let r = await dd.kubectl(['create', '-f', dd.writeFile('retry-on-42-pod.yaml', fixture('restart-rules/retry-on-42-pod.yaml'))]);
    assert.equal(r.stdout.trim(), 'pod/retry-on-42 created', `stderr: ${r.stderr}`);
    let restarts = 0;
    for (let i = 0; i < 60 && restarts < 1; i++) {
      await new Promise((res) => globalThis.setTimeout(res, 250));
      r = await dd.kubectl(['get', 'pod', 'retry-on-42', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}']);
      restarts = Number(r.stdout);
    }
    r = await dd.kubectl(['get', 'pod', 'retry-on-42', '-o', 'json']);
    const p = JSON.parse(r.stdout) as { status: { phase: string; containerStatuses: { restartCount: number; lastState: { terminated?: { exitCode: number } } }[] } };
    assert.equal(p.status.phase, 'Running');
    assert.ok((p.status.containerStatuses[0]?.restartCount ?? 0) >= 1);
    assert.equal(p.status.containerStatuses[0]?.lastState.terminated?.exitCode, 42);
    r = await dd.kubectl(['create', '-f', dd.writeFile('rules-without-policy-pod.yaml', fixture('restart-rules/rules-without-policy-pod.yaml'))]);
    assert.equal(r.stderr.trim(), 'The Pod "no-policy" is invalid: spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used');
  });

  /** Deletes pod `name` with `args`: the last `phase exitCode reason` a watch saw, and how long the delete took. */
  const last = async (name: string, args: readonly string[]): Promise<{ line: string; ms: number }> => {
    const fields = '{.status.phase} {.status.containerStatuses[0].state.terminated.exitCode} {.status.containerStatuses[0].state.terminated.reason}{"\\n"}';
    const watch = dd.spawnKubectl(['get', 'pod', name, '-w', '-o', `jsonpath=${fields}`]);
    let out = '';
    watch.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    for (let i = 0; i < 100 && !out.startsWith('Running'); i++) await new Promise((res) => globalThis.setTimeout(res, 50));
    const t0 = performance.now();
    const del = await dd.kubectl(['delete', 'pod', name, ...args]);
    const ms = performance.now() - t0;
    assert.equal(del.stdout.trim(), `pod "${name}" deleted`, del.stderr);
    for (let i = 0; i < 40 && !/\S+ \d+ \S+\n$/.test(out); i++) await new Promise((res) => globalThis.setTimeout(res, 50));
    watch.kill();
    return { line: out.trim().split('\n').at(-1) ?? '', ms };
  };

  // `sleep` is its container's PID 1, which the kernel gives no signal it has no handler for: SIGTERM
  // does nothing and the kubelet kills it when the grace period ends. A trapped TERM in `wait` exits at once.
  test('kubectl delete --grace-period=2 of a `sleep 3600` pod waits the 2 s and ends it 137/Error, Failed; a shell trapping TERM exits 0 at once', async () => {
    await dd.ok(['run', 'sl', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await dd.ok(['run', 'tr', '--image=busybox', '--restart=Never', '--', 'sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"]);
    const slept = await last('sl', ['--grace-period=2']);
    assert.equal(slept.line, 'Failed 137 Error');
    assert.ok(slept.ms >= 1500, `delete returned after ${Math.round(slept.ms)} ms`);
    const trapped = await last('tr', []);
    assert.equal(trapped.line, 'Succeeded 0 Completed');
    assert.ok(trapped.ms < 10_000, `delete returned after ${Math.round(trapped.ms)} ms, not the 30 s grace period`);
  });

  test('the logging docs\' counter pod: kubectl logs shows "N: <date>" once a second; delete --grace-period=3 waits the 3 s (sh as PID 1 ignores TERM) and ends it 137', async () => {
    await dd.ok(['apply', '-f', dd.writeFile('counter-pod.yaml', fixture('counter-pod.yaml'))]);
    await dd.ok(['wait', '--for=condition=Ready', 'pod/counter', '--timeout=30s']);
    await new Promise((res) => globalThis.setTimeout(res, 2500));
    const logs = await dd.kubectl(['logs', 'counter']);
    const lines = logs.stdout.trimEnd().split('\n');
    assert.ok(lines.length >= 3, logs.stdout + logs.stderr);
    lines.forEach((line, i) => assert.match(line, new RegExp(`^${i}: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ 0-9]\\d \\d{2}:\\d{2}:\\d{2} UTC \\d{4}$`)));
    const started = await dd.kubectl(['get', 'pod', 'counter', '-o', 'jsonpath={.status.containerStatuses[0].state.running.startedAt}']);
    const first = new Date(Date.parse(started.stdout));
    const dateText = `${first.toUTCString().slice(0, 3)} ${first.toUTCString().slice(8, 11)} ${String(first.getUTCDate()).padStart(2, ' ')} ${first.toISOString().slice(11, 19)} UTC ${first.getUTCFullYear()}`;
    assert.equal(lines[0], `0: ${dateText}`, 'the first line is written as the container starts');
    const stamped = await dd.kubectl(['logs', 'counter', '--timestamps', '--tail=2']);
    const [a, b] = stamped.stdout.trimEnd().split('\n').map((l) => Date.parse(l.split(' ')[0] ?? ''));
    assert.equal((b ?? 0) - (a ?? 0), 1000, stamped.stdout);
    const deleted = await last('counter', ['--grace-period=3']);
    assert.equal(deleted.line, 'Failed 137 Error');
    assert.ok(deleted.ms >= 2500, `delete returned after ${Math.round(deleted.ms)} ms`);
  });
});
