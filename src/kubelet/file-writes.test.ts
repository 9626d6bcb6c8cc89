import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../api/index.ts';
import { containerFiles, imageRoot } from './container-files.ts';
import type { VolumeContentSources } from './container-files.ts';
import { volumeSources } from './volume-sources.test-helpers.ts';
import { runExec } from './exec-shell.ts';
import type { ExecContext, ExecRun } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'liveness-exec', namespace: 'default', uid: 'uid-1' },
  spec: {
    containers: [{ name: 'liveness', image: 'registry.k8s.io/busybox:1.27.2', volumeMounts: [{ name: 'config', mountPath: '/etc/config' }, { name: 'scratch', mountPath: '/scratch' }] }],
    volumes: [{ name: 'config', configMap: { name: 'app-config' } }, { name: 'scratch', emptyDir: {} }],
  },
};

const appConfig: VolumeContentSources['configMap'] = (_ns, name) => (name === 'app-config' ? { data: { mode: 'fast' } } : undefined);

/** A fresh container of `image`, its root filesystem writable unless `readOnly`. */
function container(image: string, readOnly = false): ExecContext {
  const c = { ...pod.spec.containers[0]!, image };
  return { env: {}, gpuList: undefined, workingDir: '/', files: containerFiles(pod, c, ['10.128.0.7'], volumeSources({ configMap: appConfig }), 0, imageRoot(!readOnly)), image };
}

const stream = (run: ExecRun, name: 'stdout' | 'stderr'): string => execText(run, name);
const sh = (ctx: ExecContext, script: string): [string, string, number] => {
  const run = runExec(['sh', '-c', script], ctx);
  return [stream(run, 'stdout'), stream(run, 'stderr'), run.exitCode];
};

test('the liveness example: touch makes /tmp/healthy, cat reads it, rm -f takes it away and busybox cat says so', () => {
  const ctx = container('registry.k8s.io/busybox:1.27.2');
  assert.deepEqual(sh(ctx, 'touch /tmp/healthy; cat /tmp/healthy; echo $?'), ['0\n', '', 0]);
  assert.deepEqual(sh(ctx, 'rm -f /tmp/healthy'), ['', '', 0]);
  assert.deepEqual(sh(ctx, 'cat /tmp/healthy'), ['', "cat: can't open '/tmp/healthy': No such file or directory\n", 1]);
  assert.deepEqual(sh(ctx, 'touch /tmp/healthy && cat /tmp/healthy'), ['', '', 0], 'touched again after the removal');
});

test('rm of a name of the image\'s: with -f it is gone (a whiteout); without, it is unknown', () => {
  const ctx = container('registry.k8s.io/busybox:1.27.2');
  assert.deepEqual(sh(ctx, 'rm -f /tmp/never-there; cat /tmp/never-there'), ['', "cat: can't open '/tmp/never-there': No such file or directory\n", 1]);
  const [, err, status] = sh(ctx, 'rm /etc/passwd');
  assert.match(err, /^rm: can't remove '\/etc\/passwd': not simulated/);
  assert.equal(status, 1);
  assert.deepEqual(sh(ctx, 'rm -rf /var/tmp; cat /var/tmp/x'), ['', "cat: can't open '/var/tmp/x': No such file or directory\n", 1]);
});

test('busybox words for touch, rm and cat errors', () => {
  const ctx = container('busybox:1.36');
  assert.deepEqual(sh(ctx, 'rm /scratch/nope'), ['', "rm: can't remove '/scratch/nope': No such file or directory\n", 1]);
  assert.deepEqual(sh(ctx, 'rm /scratch'), ['', "rm: '/scratch' is a directory\n", 1]);
  assert.deepEqual(sh(ctx, 'touch /etc/config/new'), ['', 'touch: /etc/config/new: Read-only file system\n', 1]);
  assert.deepEqual(sh(ctx, 'touch /scratch/a/b'), ['', 'touch: /scratch/a/b: No such file or directory\n', 1]);
  assert.deepEqual(sh(ctx, 'cat /scratch'), ['', 'cat: read error: Is a directory\n', 1]);
  assert.deepEqual(sh(ctx, 'rm /etc/hosts'), ['', "rm: can't remove '/etc/hosts': Device or resource busy\n", 1]);
});

test('GNU coreutils words for another image', () => {
  const ctx = container('ubuntu:24.04');
  assert.deepEqual(sh(ctx, 'rm /scratch/nope'), ['', "rm: cannot remove '/scratch/nope': No such file or directory\n", 1]);
  assert.deepEqual(sh(ctx, 'rm /scratch'), ['', "rm: cannot remove '/scratch': Is a directory\n", 1]);
  assert.deepEqual(sh(ctx, 'touch /etc/config/new'), ['', "touch: cannot touch '/etc/config/new': Read-only file system\n", 1]);
  assert.deepEqual(sh(ctx, 'touch /tmp/x; rm /tmp/x; rm /tmp/x; cat /tmp/x'), ['', "rm: cannot remove '/tmp/x': No such file or directory\ncat: /tmp/x: No such file or directory\n", 1]);
});

test('an emptyDir takes files and gives them up; a read-only root filesystem takes none', () => {
  const ctx = container('busybox:1.36');
  assert.deepEqual(sh(ctx, 'touch /scratch/ready; ls /scratch; rm /scratch/ready; ls /scratch'), ['ready\n', '', 0]);
  assert.deepEqual(sh(ctx, 'rm -r /scratch/gone'), ['', "rm: can't remove '/scratch/gone': No such file or directory\n", 1]);
  const ro = container('busybox:1.36', true);
  assert.deepEqual(sh(ro, 'touch /tmp/healthy'), ['', 'touch: /tmp/healthy: Read-only file system\n', 1]);
  assert.deepEqual(sh(ro, 'rm -f /tmp/healthy'), ['', "rm: can't remove '/tmp/healthy': Read-only file system\n", 1]);
});

test('options outside the subset are said to be', () => {
  const ctx = container('busybox:1.36');
  assert.deepEqual(sh(ctx, 'touch -d 2020-01-01 /tmp/x'), ['', 'touch: option -d is not simulated\n', 1]);
  assert.deepEqual(sh(ctx, 'rm -i /tmp/x'), ['', 'rm: option -i is not simulated (rm runs with -f and -r)\n', 1]);
});

test("the shell's > and >> write the same live files cat, tail and ls read; busybox ash's words when they cannot", () => {
  const ctx = container('alpine:latest');
  assert.deepEqual(sh(ctx, 'echo "logging" > /scratch/logs.txt; echo more >> /scratch/logs.txt; cat /scratch/logs.txt; tail -n 1 /scratch/logs.txt'), ['logging\nmore\nmore\n', '', 0]);
  assert.deepEqual(sh(ctx, 'echo one > /scratch/logs.txt; cat /scratch/logs.txt; ls /scratch'), ['one\nlogs.txt\n', '', 0], '> truncates');
  assert.deepEqual(sh(ctx, 'echo x > /scratch/new/f; echo y > /scratch; echo $?'), ['1\n', "sh: can't create /scratch/new/f: nonexistent directory\nsh: can't create /scratch: Is a directory\n", 0]);
  assert.deepEqual(sh(ctx, 'echo x > /etc/config/mode'), ['', "sh: can't create /etc/config/mode: Read-only file system\n", 1], 'a configMap is mounted read-only');
  assert.match(sh(ctx, 'echo x >> /etc/passwd')[1], /^sh: can't create \/etc\/passwd: not simulated/, "appending to an image's file whose bytes are unknown");
  assert.match(sh(ctx, 'echo 10.0.0.9 db >> /etc/hosts')[1], /^sh: can't create \/etc\/hosts: not simulated.*writing \/etc\/hosts is not simulated\n$/, 'a file the kubelet makes anew at each look');
  assert.deepEqual(sh(ctx, 'echo x > /etc/motd; cat /etc/motd'), ['x\n', '', 0], "> replaces an image's file whatever it held");
  assert.deepEqual(sh(ctx, 'tail -f /scratch/logs.txt'), ['one\n', "tail: following a file is not simulated in kubectl exec (a container's own tail -f is)\n", 1], 'exec runs ahead of the clock: a poll would never see a new line');
  assert.deepEqual(runExec(['tail', '-f', '/dev/null'], ctx).steps, [{ sleepMs: null }], 'the keep-alive idiom blocks quietly');
  const ro = container('alpine:latest', true);
  assert.deepEqual(sh(ro, 'echo x > /x; echo "$?"'), ['1\n', "sh: can't create /x: Read-only file system\n", 0]);
  assert.deepEqual(sh(ro, 'echo x > /scratch/x && cat /scratch/x'), ['x\n', '', 0], 'an emptyDir stays writable under a read-only root');
});

test('a readOnly volume mount refuses writes there while another mount of the same emptyDir takes them', () => {
  const c = { ...pod.spec.containers[0]!, image: 'alpine:latest', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }, { name: 'scratch', mountPath: '/view', readOnly: true }] };
  const ctx: ExecContext = { env: {}, gpuList: undefined, workingDir: '/', files: containerFiles(pod, c, ['10.128.0.7'], volumeSources({ configMap: appConfig }), 0, imageRoot(true)), image: c.image };
  assert.deepEqual(sh(ctx, 'echo x > /view/f'), ['', "sh: can't create /view/f: Read-only file system\n", 1]);
  assert.deepEqual(sh(ctx, 'touch /view/f'), ['', 'touch: /view/f: Read-only file system\n', 1]);
  assert.deepEqual(sh(ctx, 'echo x > /scratch/f; cat /view/f; echo y >> /view/f'), ['x\n', "sh: can't create /view/f: Read-only file system\n", 1]);
  assert.deepEqual(sh(ctx, 'rm /view/f'), ['', "rm: can't remove '/view/f': Read-only file system\n", 1]);
});

test('test, [ and [[ ask the files: -e, -f, -d, -s and !, as scripts waiting for a file use them', () => {
  const ctx = container('registry.k8s.io/busybox:1.27.2');
  assert.deepEqual(sh(ctx, 'touch /scratch/empty; echo data > /scratch/ready; for f in /scratch/empty /scratch/ready /scratch /scratch/none; do [ -e $f ] && echo e; test -f $f && echo f; [[ -d $f ]] && echo d; [ -s $f ] && echo s; [ ! -e $f ] && echo none; done'), ['e\nf\ne\nf\ns\ne\nd\nnone\n', '', 0]);
  assert.deepEqual(sh(ctx, 'until [ -f /scratch/go ]; do touch /scratch/go; done; echo started'), ['started\n', '', 0]);
  assert.deepEqual(sh(ctx, '[[ -e /scratch ]'), ['', 'sh: [[: missing ]]\n', 2], "busybox ash's [[ needs its ]]");
  assert.deepEqual(sh(ctx, '[ -x /scratch/ready ]'), ['', 'sh: -x: files are not simulated (test answers -e, -f, -d and -s)\n', 2]);
  assert.deepEqual(sh(ctx, 'if [[ -e /etc/config/mode ]]; then cat /etc/config/mode; echo; fi'), ['fast\n', '', 0], 'a configMap volume');
});
