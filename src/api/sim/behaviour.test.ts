import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import type { Container, Pod } from '../core/v1/pod/types.ts';
import { expandBehaviourEnv, resolveBehaviour, runCommandForm, ShellRun, sigtermExit, validateSimBehaviourAnnotations } from './behaviour.ts';
import type { ContainerKind } from './behaviour.ts';
import { memoryAt, memoryExceedsAt } from './values.ts';

function pod(containers: Container[], annotations: Record<string, string> = {}, initContainers: Container[] = []): Pod {
  return { metadata: { name: 'web', namespace: 'default', annotations }, spec: { containers, initContainers } };
}

const resolved = (c: Container, kind: ContainerKind = 'regular', annotations: Record<string, string> = {}) => resolveBehaviour(pod([c], annotations), c, kind);

test('validateSimBehaviourAnnotations names the annotation, its value and the field', () => {
  const cases: [string, string | undefined][] = [
    ['startupDelay: 2s\nready: never\nrunFor: 30s\nexitCode: 3\nonSigterm: ignore\nstopDelay: 1s\nresponseTime: 2s\nmemory: 200Mi->900Mi/60s\ncpu: 500m\nlogs: [a, b]\nlogEvery: 1s', undefined],
    ['{"runFor": "1m30s", "exitCode": 0}', undefined],
    ['startupDelay: soon', 'startupDelay: not a duration'],
    ['ready: later', 'ready: not a duration or "never"'],
    ['exitCode: 300', 'exitCode: must be an integer from 0 to 255'],
    ['onSigterm: shrug', 'onSigterm: must be "exit" or "ignore"'],
    ['memory: lots', 'memory: not a quantity or a ramp like "200Mi->900Mi/60s"'],
    ['cpu: fast', 'cpu: not a quantity'],
    ['responseTime: slow', 'responseTime: not a duration'],
    ['logs: {a: 1}', 'logs: must be a list of strings'],
    ['logEvery: 0s', 'logEvery: must be greater than 0s'],
    ['pull: 2m', undefined],
    ['pull: notFound', undefined],
    ['pull: unauthorized', undefined],
    ['pull: broken', 'pull: not a duration, "notFound" or "unauthorized"'],
    ['disk: 0->20Gi/60s', undefined],
    ['disk: lots', 'disk: not a quantity or a ramp like "0->20Gi/60s"'],
    ['diskPath: cache', 'diskPath: must be an absolute path'],
    ['runfor: 3s', 'runfor: unknown field; known fields: startupDelay, ready, runFor, exitCode, onSigterm, stopDelay, responseTime, memory, cpu, logs, logEvery, stopLogs, pull, disk, diskPath'],
    ['- a', 'must be a map of behaviour fields (startupDelay, ready, runFor, exitCode, onSigterm, stopDelay, responseTime, memory, cpu, logs, logEvery, stopLogs, pull, disk, diskPath)'],
  ];
  for (const [text, detail] of cases) {
    const errs = validateSimBehaviourAnnotations(pod([{ name: 'worker', image: 'x' }], { 'sim.drydock.dev/worker': text }));
    if (detail === undefined) assert.deepEqual(errs, [], text);
    else {
      assert.equal(errs.length, 1, text);
      assert.equal(formatFieldError(errs[0]!, { withField: true }), `metadata.annotations[sim.drydock.dev/worker]: Invalid value: ${JSON.stringify(text)}: ${detail}`);
    }
  }
});

test('a behaviour annotation nested past what the YAML reader survives is refused, not read', () => {
  const text = `logs: ${'['.repeat(100_000)}`;
  const errs = validateSimBehaviourAnnotations(pod([{ name: 'worker', image: 'x' }], { 'sim.drydock.dev/worker': text }));
  assert.equal(errs.length, 1);
  assert.equal(errs[0]?.detail, 'not valid YAML or JSON: exceeded max depth of 256 at line 1');
});

test('validateSimBehaviourAnnotations rejects an annotation naming no container and ignores other prefixes', () => {
  const errs = validateSimBehaviourAnnotations(pod([{ name: 'worker', image: 'x' }], { 'sim.drydock.dev/workr': 'runFor: 1s', 'example.com/x': 'y' }));
  assert.deepEqual(errs.map((e) => formatFieldError(e, { withField: true })), [
    'metadata.annotations[sim.drydock.dev/workr]: Invalid value: "runFor: 1s": no container named "workr" in this pod',
  ]);
});

test('simple command forms set run time, exit code and echoed lines', () => {
  const cases: [string[], string[] | undefined, { runForMs?: number; exitCode: number; logs?: string[] }][] = [
    [['sleep', '30'], undefined, { runForMs: 30_000, exitCode: 0 }],
    [['sleep'], ['2m'], { runForMs: 120_000, exitCode: 0 }],
    [['/bin/sleep', 'infinity'], undefined, { exitCode: 0 }],
    [['exit', '3'], undefined, { runForMs: 0, exitCode: 3 }],
    [['true'], undefined, { runForMs: 0, exitCode: 0 }],
    [['false'], undefined, { runForMs: 0, exitCode: 1 }],
    [['sh', '-c', 'sleep 5; exit 1'], undefined, { runForMs: 5000, exitCode: 1 }],
    [['/bin/sh', '-c'], ['echo "migrating"; sleep 2 && echo done'], { runForMs: 2000, exitCode: 0, logs: ['0:migrating', '2000:done'] }],
    [['sh', '-ec', 'false && sleep 9'], undefined, { runForMs: 0, exitCode: 1 }],
  ];
  for (const [command, args, want] of cases) {
    const c: Container = { name: 'c', image: 'busybox', command, ...(args ? { args } : {}) };
    const b = resolved(c);
    assert.equal(b.source, 'command', command.join(' '));
    assert.equal(b.runForMs, want.runForMs, command.join(' '));
    assert.equal(b.exitCode, want.exitCode, command.join(' '));
    if (want.logs) assert.deepEqual(b.logs.map((l) => `${l.atMs}:${l.text}`), want.logs);
  }
});

test('NVIDIA\'s example script: nvidia-smi -L lists the GPUs, a trapped TERM exits, a background sleep is waited for', () => {
  const c: Container = { name: 'ctr0', image: 'ubuntu:22.04', command: ['bash', '-c'], args: ["nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait"] };
  const b = resolved(c);
  assert.equal(b.source, 'command');
  assert.equal(b.runForMs, 9_999_000);
  assert.deepEqual(sigtermExit(b, 5000), { afterMs: 0, exitCode: 0, stopLogs: [] }, 'the trap interrupts wait');
  const gpus = ['GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)', '  MIG 1g.10gb     Device  0: (UUID: MIG-2)'];
  assert.deepEqual(expandBehaviourEnv(b, {}, gpus).logs, gpus.map((text) => ({ atMs: 0, text })));
  assert.deepEqual(expandBehaviourEnv(b, {}, []).logs, [{ atMs: 0, text: 'No devices were found' }], 'a container given no GPU');
  assert.deepEqual(expandBehaviourEnv(b, {}, undefined).logs, [], 'GPUs the kubelet cannot name (a device plugin\'s) print nothing rather than a wrong list');
});

test('background jobs run beside the script: its own time goes on, wait takes the longest, the shell exits without them', () => {
  const run = (script: string) => resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', script] });
  const waited = run('sleep 5 & echo started; sleep 1; wait; echo done');
  assert.equal(waited.runForMs, 5000);
  assert.deepEqual(waited.logs.map((l) => `${l.atMs}:${l.text}`), ['0:started', '5000:done']);
  assert.equal(run('sleep 100 &').runForMs, 0, 'nothing waits for the job');
  assert.equal(run('sleep infinity & wait').runForMs, undefined, 'waits forever');
  assert.equal(sigtermExit(run("trap '' TERM; sleep 9"), 1000), undefined);
  assert.ok(run("trap 'echo bye' TERM; sleep 9").script, 'a trap action other than exit is run on the clock');
  assert.equal(run('nvidia-smi; sleep 1').source, 'default', 'only the -L listing is simulated');
});

test('as PID 1, sleep and a shell without a trap on TERM ignore SIGTERM; a trap runs in wait at once, after a foreground command when it ends', () => {
  const onTerm = (argv: string[], atMs: number) => sigtermExit(resolved({ name: 'c', image: 'busybox', command: argv }), atMs);
  const sh = (script: string, atMs: number) => onTerm(['sh', '-c', script], atMs);
  for (const argv of [['sleep', '3600'], ['sleep', 'infinity'], ['sh', '-c', 'echo hi; sleep 3600'], ['sh', '-c', 'sleep 9 & wait'], ['sh', '-c', "trap - TERM; sleep 9"]]) {
    assert.equal(onTerm(argv, 1000), undefined, argv.join(' '));
  }
  assert.deepEqual(sh("trap 'exit 0' TERM; sleep 3600 & wait", 1000), { afterMs: 0, exitCode: 0, stopLogs: [] });
  assert.deepEqual(sh("trap 'exit' TERM; sleep 3600 & wait", 1000), { afterMs: 0, exitCode: 143, stopLogs: [] }, "exit takes wait's status, 128+15");
  assert.deepEqual(sh("trap 'exit 3' TERM; sleep 10; sleep 3600", 4000), { afterMs: 6000, exitCode: 3, stopLogs: [] }, 'the trap waits for the foreground sleep');
  assert.deepEqual(sh("trap 'exit' TERM; sleep 10; sleep 3600", 4000), { afterMs: 6000, exitCode: 0, stopLogs: [] }, "exit takes sleep's status");
  assert.equal(sh("trap 'exit 0' TERM; sleep infinity", 4000), undefined, 'a foreground command that never ends');
  assert.equal(sh("sleep 5; trap 'exit 0' TERM; sleep 9 & wait", 2000), undefined, 'before the trap is set the signal is dropped, not kept');
  assert.deepEqual(sh("sleep 5; trap 'exit 0' TERM; sleep 9 & wait", 6000), { afterMs: 0, exitCode: 0, stopLogs: [] });
  assert.equal(sh("trap 'exit 0' TERM; sleep 9 & wait; trap '' TERM; sleep 60", 20_000), undefined, 'a later trap replaces it');
  const annotated = resolveBehaviour(pod([{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }], { 'sim.drydock.dev/c': 'onSigterm: exit\nstopDelay: 2s' }), { name: 'c', image: 'busybox', command: ['sleep', '3600'] }, 'regular');
  assert.deepEqual(sigtermExit(annotated, 1000), { afterMs: 2000, exitCode: 0, stopLogs: [] }, "the annotation's onSigterm gives it a handler");
  const stopping = (text: string) => sigtermExit(resolveBehaviour(pod([{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }], { 'sim.drydock.dev/c': text }), { name: 'c', image: 'busybox', command: ['sleep', '3600'] }, 'regular'), 1000);
  assert.deepEqual(stopping('stopDelay: 5s'), { afterMs: 5000, exitCode: 0, stopLogs: [] }, 'so do stopDelay and stopLogs');
  assert.deepEqual(stopping('stopLogs: [bye]'), { afterMs: 0, exitCode: 0, stopLogs: ['bye'] });
  assert.equal(stopping('stopDelay: 5s\nonSigterm: ignore'), undefined);
  assert.deepEqual(sigtermExit(resolved({ name: 'c', image: 'nginx' }), 1000), { afterMs: 0, exitCode: 0, stopLogs: [] }, "a catalog server's own handler");
});

test('sharing a PID namespace (shareProcessNamespace, hostPID, a targeted ephemeral container), the same commands are not PID 1 and die of SIGTERM: 143', () => {
  const c: Container = { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hi; sleep 3600'] };
  const shared = (spec: Partial<Pod['spec']>) => sigtermExit(resolveBehaviour({ ...pod([c]), spec: { containers: [c], ...spec } }, c, 'regular'), 1000);
  assert.deepEqual(shared({ shareProcessNamespace: true }), { afterMs: 0, exitCode: 143, stopLogs: [] });
  assert.deepEqual(shared({ hostPID: true }), { afterMs: 0, exitCode: 143, stopLogs: [] });
  const debuggerC = { name: 'debugger', image: 'busybox', command: ['sleep', '3600'], targetContainerName: 'c' };
  assert.deepEqual(sigtermExit(resolveBehaviour(pod([c]), debuggerC, 'ephemeral'), 1000), { afterMs: 0, exitCode: 143, stopLogs: [] });
  assert.equal(sigtermExit(resolveBehaviour(pod([c]), { ...debuggerC, targetContainerName: undefined } as Container, 'ephemeral'), 1000), undefined, 'without a target it has a namespace of its own');
  const ignoring = { ...c, command: ['sh', '-c', "trap '' TERM; sleep 3600"] };
  assert.equal(sigtermExit(resolveBehaviour({ ...pod([ignoring]), spec: { containers: [ignoring], shareProcessNamespace: true } }, ignoring, 'regular'), 1000), undefined, "trap '' TERM ignores it anywhere");
});

test('echo expands $VAR and ${VAR} from the container\'s environment, quoted or not; a literal $ stays', () => {
  const echoed = (script: string, env: Record<string, string>) => {
    const b = expandBehaviourEnv(resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', script] }), env, undefined);
    assert.equal(b.source, 'command', script);
    const lines = b.logs.map((l) => l.text);
    if (b.script) new ShellRun(b.script.program, { env, gpuList: undefined, pid1: true, startedAt: 0, args: ['sh'], errexit: false }, { line: (_at, text) => lines.push(text) }).runUntil(60_000);
    return lines;
  };
  const env = { JOB_COMPLETION_INDEX: '3', HOSTNAME: 'train-3-abcde' };
  assert.deepEqual(echoed('echo $JOB_COMPLETION_INDEX; sleep 1', env), ['3']);
  assert.deepEqual(echoed('echo "index ${JOB_COMPLETION_INDEX} on $HOSTNAME"', env), ['index 3 on train-3-abcde']);
  assert.deepEqual(echoed("echo '$HOSTNAME' \\$HOSTNAME \"\\$1\" cost $", env), ['$HOSTNAME $HOSTNAME $1 cost $']);
  assert.deepEqual(echoed('echo [$UNSET]', env), ['[]']);
  assert.deepEqual(echoed('false; echo $? "$1" ${2:-two}', env), ['1  two']);
  for (const script of ['echo $(date)', 'echo "`date`"', 'echo $HOME']) {
    const b = resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', script] });
    assert.ok(b.source === 'command' && b.script, `${script}: reads the container or the clock, so it runs on the clock`);
  }
});

test('commands outside the subset fall through to the catalog or the default', () => {
  for (const script of ['echo hi | python app.py', 'cat', 'cat -n /etc/hosts', 'nslookup -type=srv db', 'case x in *) python app.py;; esac', 'echo *', 'f() { python app.py; }; f', '(python app.py)', 'read x < /tmp/x', 'echo hi 3> /tmp/x', 'tail -f /a /b', 'python app.py', 'sleep 1 &; wait $!', '[ -f /x -a -d /y ]', 'set -x; sleep 1']) {
    assert.equal(resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', script] }).source, 'default', script);
  }
  const loop = resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo hi; sleep 1; done'] });
  assert.deepEqual([loop.source, loop.runForMs, loop.script !== undefined], ['command', undefined, true], 'an endless loop runs on the clock');
  const reads = resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', 'cat /etc/hosts; nslookup db'] });
  assert.deepEqual([reads.source, reads.script !== undefined], ['command', true], 'cat FILE and nslookup HOST are the kubelet\'s to answer: the script runs on the clock');
  const lists = resolved({ name: 'c', image: 'busybox', command: ['/bin/sh', '-c', 'ls /etc/config/'] });
  assert.deepEqual([lists.source, lists.script !== undefined], ['command', true], "the ConfigMap page's ls is the kubelet's to answer");
  const waits = resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', 'until [ -f /shared/ready ]; do sleep 1; done; if [[ -s /shared/ready ]]; then echo go; fi'] });
  assert.deepEqual([waits.source, waits.script !== undefined], ['command', true], 'a test of files is the kubelet\'s to answer: the script runs on the clock');
  const annotated = resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo hi; sleep 1; done'] }, 'regular', { 'sim.drydock.dev/c': 'runFor: 5s' });
  assert.deepEqual([annotated.script, annotated.runForMs], [undefined, 5000], 'an annotation saying how it runs takes over from the script');
  const pi = resolved({ name: 'pi', image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] });
  assert.deepEqual([pi.source, pi.runForMs, pi.exitCode, pi.logs[0]?.text.slice(0, 6)], ['command', 0, 0, '3.1415'], "the docs' pi Job prints π and completes");
  const stress = resolved({ name: 'memory-demo-2-ctr', image: 'polinux/stress', command: ['stress'], args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'] });
  assert.deepEqual([stress.source, stress.memory?.toBytes], ['command', 251 * 1024 * 1024], "the docs' stress pod holds what its vm worker allocates");
  const spinner = resolved({ name: 'cpu-demo-ctr', image: 'vish/stress', args: ['-cpus', '2'] });
  assert.deepEqual([spinner.source, spinner.cpuMilli], ['command', 2000]);
  const nginx = resolved({ name: 'c', image: 'nginx', command: ['nginx', '-g', 'daemon off;'] });
  assert.equal(nginx.source, 'image');
});

test('a script writing its files (touch, rm, > FILE) or following one (tail) runs on the clock; a bare cat reading stdin is no command form', () => {
  const liveness = resolved({ name: 'c', image: 'busybox', args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'] });
  assert.deepEqual([liveness.source, liveness.script !== undefined], ['command', true]);
  const shipper = resolved({ name: 'c', image: 'alpine', command: ['sh', '-c', 'echo hi >> /opt/logs.txt; tail -F /opt/logs.txt'] });
  assert.deepEqual([shipper.source, shipper.script !== undefined], ['command', true], 'redirections to files and tail read the live files');
  assert.equal(resolved({ name: 'c', image: 'busybox', command: ['cat'], stdin: true }).source, 'default');
  assert.equal(resolved({ name: 'c', image: 'busybox', command: ['cat', '/etc/config/app.yaml'] }).source, 'command');
});

test('an exec handler\'s cat is answered by the kubelet\'s hook; with none, or one that does not know the file, it is no command form', () => {
  const missing = (argv: readonly string[]) => (argv[0] === 'cat' ? { writes: [{ stream: 'stderr' as const, text: `cat: can't open '${argv[1] ?? ''}': No such file or directory\n` }], status: 1 } : undefined);
  assert.deepEqual(runCommandForm(['cat', '/tmp/healthy'], {}, 0, missing), { output: "cat: can't open '/tmp/healthy': No such file or directory\n", stderr: "cat: can't open '/tmp/healthy': No such file or directory\n", exitCode: 1, durationMs: 0 });
  assert.deepEqual(runCommandForm(['sh', '-c', 'cat /tmp/healthy && echo ok'], {}, 0, () => ({ writes: [], status: 0 }))?.output, 'ok\n');
  assert.equal(runCommandForm(['cat', '/tmp/healthy'], {}, 0), undefined);
  assert.equal(runCommandForm(['cat', '/tmp/healthy'], {}, 0, () => undefined), undefined);
});

test('the image catalog: servers run forever, shippers flush on SIGTERM, shells exit at once', () => {
  const nginx = resolved({ name: 'c', image: 'docker.io/library/nginx:1.27' });
  assert.deepEqual([nginx.source, nginx.runForMs, nginx.onSigterm], ['image', undefined, 'exit']);
  const fb = resolved({ name: 'c', image: 'cr.fluentbit.io/fluent/fluent-bit:3.2@sha256:abc' }, 'sidecar');
  assert.equal(fb.stopDelayMs, 1000);
  assert.deepEqual(fb.stopLogs, ['[engine] caught signal (SIGTERM)', '[engine] service has stopped (0 pending tasks)']);
  const bb = resolved({ name: 'c', image: 'busybox:1.36' });
  assert.deepEqual([bb.runForMs, bb.exitCode], [0, 0]);
});

test('a shell reading stdin waits on it when the spec keeps one open, and exits 0 at once otherwise', () => {
  const noInput = resolved({ name: 'c', image: 'busybox', command: ['sh'] });
  assert.deepEqual([noInput.source, noInput.runForMs, noInput.exitCode], ['command', 0, 0]);
  const waiting = resolved({ name: 'c', image: 'busybox', command: ['/bin/bash', '-i'], stdin: true });
  assert.deepEqual([waiting.source, waiting.runForMs], ['command', undefined]);
  const image = resolved({ name: 'c', image: 'busybox', stdin: true, tty: true });
  assert.deepEqual([image.source, image.runForMs], ['image', undefined]);
  assert.equal(resolved({ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 2'], stdin: true }).exitCode, 2);
});

test('the default: regular init containers exit 0 after a short delay, others run until stopped', () => {
  const init = resolved({ name: 'c', image: 'example.com/migrate:v1' }, 'init');
  assert.deepEqual([init.source, init.runForMs, init.exitCode], ['default', 1000, 0]);
  const sidecar = resolved({ name: 'c', image: 'example.com/agent:v1' }, 'sidecar');
  assert.deepEqual([sidecar.runForMs, sidecar.onSigterm, sidecar.readyAfterMs], [undefined, 'exit', 0]);
});

test('annotation fields override the base field by field', () => {
  const c: Container = { name: 'web', image: 'nginx' };
  const b = resolved(c, 'regular', { 'sim.drydock.dev/web': 'memory: 900Mi\nready: never' });
  assert.equal(b.source, 'image');
  assert.equal(b.runForMs, undefined);
  assert.equal(b.readyAfterMs, undefined);
  assert.equal(b.memory?.toBytes, 900 * 1024 * 1024);
  assert.equal(b.readyDecidesProbes, true);
  assert.equal(resolved(c, 'regular', { 'sim.drydock.dev/web': 'ready: 3s' }).readyDecidesProbes, true);
  assert.equal(resolved(c, 'regular', { 'sim.drydock.dev/web': 'memory: 900Mi' }).readyDecidesProbes, undefined);
  const s = resolved({ name: 'job', image: 'busybox', command: ['sleep', '30'] }, 'regular', { 'sim.drydock.dev/job': 'exitCode: 2' });
  assert.deepEqual([s.source, s.runForMs, s.exitCode], ['annotation', 30_000, 2]);
});

test('memory ramps grow linearly and cross a limit at the computed time', () => {
  const ramp = { fromBytes: 200, toBytes: 900, rampMs: 70_000 };
  assert.equal(memoryAt(ramp, 0), 200);
  assert.equal(memoryAt(ramp, 35_000), 550);
  assert.equal(memoryAt(ramp, 100_000), 900);
  assert.equal(memoryExceedsAt(ramp, 550), 35_001);
  assert.equal(memoryExceedsAt(ramp, 900), undefined);
  assert.equal(memoryExceedsAt(ramp, 100), 0);
});
