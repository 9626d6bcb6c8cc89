import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runExec, ShellSession, unsimulatedCommand } from './exec-shell.ts';
import type { ExecContext, ExecRun } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';

const context: ExecContext = {
  env: { PATH: '/usr/bin:/bin', HOSTNAME: 'mig-pod', NVIDIA_VISIBLE_DEVICES: 'MIG-1234', HOME: '/root' },
  gpuList: ['GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-abc)', '  MIG 1g.10gb     Device  0: (UUID: MIG-1234)'],
  workingDir: '/',
};

const stdout = (run: ExecRun): string => execText(run, 'stdout');
const stderr = (run: ExecRun): string => execText(run, 'stderr');

test('env, printenv, hostname and pwd show the container environment', () => {
  assert.equal(stdout(runExec(['env'], context)), 'PATH=/usr/bin:/bin\nHOSTNAME=mig-pod\nNVIDIA_VISIBLE_DEVICES=MIG-1234\nHOME=/root\n');
  assert.equal(stdout(runExec(['printenv', 'NVIDIA_VISIBLE_DEVICES'], context)), 'MIG-1234\n');
  const missing = runExec(['printenv', 'HOME', 'NOPE'], context);
  assert.equal(stdout(missing), '/root\n');
  assert.equal(missing.exitCode, 1);
  assert.equal(stdout(runExec(['hostname'], context)), 'mig-pod\n');
  assert.equal(stdout(runExec(['/bin/pwd'], context)), '/\n');
});

test('nvidia-smi -L lists the devices the container was given; none is nvidia-smi\'s error', () => {
  assert.equal(stdout(runExec(['nvidia-smi', '-L'], context)), `${context.gpuList?.join('\n')}\n`);
  const none = runExec(['nvidia-smi', '-L'], { ...context, gpuList: [] });
  assert.equal(stdout(none), 'No devices were found\n');
  assert.equal(none.exitCode, 6);
});

test('sh -c runs a script: quotes, $VAR and $?, && and ||, exit codes', () => {
  const run = runExec(['sh', '-c', 'echo "GPUs: $NVIDIA_VISIBLE_DEVICES" \'$HOME\'; false || echo failed $?; true && exit 3; echo never'], context);
  assert.equal(stdout(run), 'GPUs: MIG-1234 $HOME\nfailed 1\n');
  assert.equal(run.exitCode, 3);
  assert.equal(runExec(['sh', '-c', 'exit 300'], context).exitCode, 300 & 255);
  assert.deepEqual(runExec(['sh', '-c', 'echo a; sleep 2; echo b'], context).steps, [{ stream: 'stdout', text: 'a\n' }, { sleepMs: 2000 }, { stream: 'stdout', text: 'b\n' }]);
});

test('what is not simulated says so on stderr with status 127, as a missing command would', () => {
  const run = runExec(['sh', '-c', 'python train.py; echo after'], context);
  assert.match(stderr(run), /^sh: python: not simulated \(a simulated container runs echo, env/);
  assert.equal(stdout(run), 'after\n');
  assert.equal(unsimulatedCommand(['python', 'train.py']), 'python');
  assert.equal(unsimulatedCommand(['/usr/bin/env']), undefined);
  assert.equal(unsimulatedCommand(['bash']), undefined);
  assert.match(stderr(runExec(['sh', '-c', 'head < /etc/hosts'], context)), /^sh: syntax error: reading redirections and other descriptors are not simulated$/m);
});

test('kubectl exec pipes: filters read the command before them, a nested sh -c reads the pipe too, grep exits 1 on no match; bash has arrays, sh refuses them as ash does', () => {
  assert.equal(stdout(runExec(['sh', '-c', 'env | grep -c HOME; echo abc | sh -c "rev | tr a-z A-Z"'], context)), '1\nCBA\n');
  assert.equal(runExec(['sh', '-c', 'env | grep NOPE'], context).exitCode, 1);
  assert.equal(stdout(runExec(['bash', '-c', 'a=(x y z); echo ${a[2]} ${#a[@]}'], context)), 'z 3\n');
  const ash = runExec(['sh', '-c', 'a=(x y z)'], context);
  assert.deepEqual([stderr(ash), ash.exitCode], ['sh: syntax error: unexpected "("\n', 2]);
});

test('a shell session keeps $? between lines and ends at exit', () => {
  const session = new ShellSession(context);
  assert.equal(session.run('false').exitCode, 1);
  assert.equal(stdout(session.run('echo $?')), '1\n');
  const exit = session.run('exit');
  assert.ok(exit.exited);
  assert.equal(exit.exitCode, 0);
});

test('kubectl exec runs the container shell\'s loops, arithmetic and substitutions; sleeps between outputs become pauses', () => {
  assert.equal(stdout(runExec(['sh', '-c', 'for i in 1 2 3; do echo $i; done'], context)), '1\n2\n3\n');
  assert.equal(stdout(runExec(['sh', '-c', 'i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo "i=$i on $(hostname)"'], context)), 'i=3 on mig-pod\n');
  assert.deepEqual(runExec(['sh', '-c', 'for i in 1 2; do echo $i; sleep 1; done'], context).steps, [{ stream: 'stdout', text: '1\n' }, { sleepMs: 1000 }, { stream: 'stdout', text: '2\n' }, { sleepMs: 1000 }]);
  const at = Date.UTC(2026, 11, 7, 5, 40, 1);
  assert.equal(stdout(runExec(['date'], { ...context, now: () => at })), 'Mon Dec  7 05:40:01 UTC 2026\n');
  assert.equal(unsimulatedCommand(['date']), undefined);
  assert.equal(stdout(runExec(['sh', '-c', 'if [ -f /etc/hosts ]; then echo file; else echo none; fi; [ -n "$HOME" ] && echo home'], context)), 'none\nhome\n', 'file tests ask the container\'s files; string tests are the shell\'s');
  assert.deepEqual(runExec(['sh', '-c', 'while true; do sleep 1; done'], context).steps.at(-1), { sleepMs: null }, 'a loop that never ends is a pause for ever once run ahead');
});

test('a shell session keeps variables between lines', () => {
  const session = new ShellSession(context);
  session.run('n=4');
  assert.equal(stdout(session.run('echo $((n * 2))')), '8\n');
});
