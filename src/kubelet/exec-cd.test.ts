import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../api/index.ts';
import { containerFiles, imageRoot } from './container-files.ts';
import type { VolumeContentSources } from './container-files.ts';
import { volumeSources } from './volume-sources.test-helpers.ts';
import { runExec, ShellSession, unsimulatedCommand } from './exec-shell.ts';
import type { ExecContext, ExecRun } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'security-context-demo', namespace: 'default', uid: 'uid-1' },
  spec: {
    containers: [{ name: 'sec-ctx-demo', image: 'busybox:1.28', volumeMounts: [{ name: 'config', mountPath: '/etc/config' }, { name: 'sec-ctx-vol', mountPath: '/data/demo' }] }],
    volumes: [{ name: 'config', configMap: { name: 'app-config' } }, { name: 'sec-ctx-vol', emptyDir: {} }],
  },
};

const appConfig: VolumeContentSources['configMap'] = (_ns, name) => (name === 'app-config' ? { data: { mode: 'fast' } } : undefined);

function container(): ExecContext {
  const c = pod.spec.containers[0]!;
  return { env: { HOME: '/root' }, gpuList: undefined, workingDir: '/', files: containerFiles(pod, c, ['10.128.0.7'], volumeSources({ configMap: appConfig }), 0, imageRoot(true)), image: c.image };
}

const streams = (run: ExecRun): [string, string, number] => [execText(run, 'stdout'), execText(run, 'stderr'), run.exitCode];
const sh = (ctx: ExecContext, script: string): [string, string, number] => streams(runExec(['sh', '-c', script], ctx));

test('cd: relative paths, redirections and the kubelet\'s commands (pwd, ls, cat) start from the directory cd went to', () => {
  const ctx = container();
  assert.deepEqual(sh(ctx, 'cd /data; pwd; cd demo && echo hello > testfile && ls && cat testfile; cd ..; pwd'), ['/data\ntestfile\nhello\n/data\n', '', 0]);
  assert.deepEqual(sh(ctx, 'cat /data/demo/testfile'), ['hello\n', '', 0], 'the file was written where cd went');
  assert.deepEqual(sh(ctx, 'cd /data/demo/; [ -f testfile ] && echo there'), ['there\n', '', 0], 'test asks from there too');
});

test('cd sets PWD and OLDPWD; `cd -` goes back and prints where; `cd` alone goes $HOME; an image directory is taken to be there', () => {
  const ctx = container();
  assert.deepEqual(sh(ctx, 'cd /data/demo; echo "$PWD $OLDPWD"; cd -; cd; pwd; cd /usr/share/../lib; pwd'), ['/data/demo /\n/\n/root\n/usr/lib\n', '', 0]);
});

test('cd to a missing directory or a file fails with ash\'s message and status 2, and the script goes on where it was', () => {
  const ctx = container();
  assert.deepEqual(sh(ctx, 'cd /data/demo/nope; echo $?; pwd'), ['2\n/\n', "sh: cd: can't cd to /data/demo/nope: No such file or directory\n", 0]);
  assert.deepEqual(sh(ctx, 'cd /etc/config/mode || echo failed'), ['failed\n', "sh: cd: can't cd to /etc/config/mode: Not a directory\n", 0]);
});

test('a subshell\'s cd stays in it; an exec session keeps its directory between lines', () => {
  const ctx = container();
  assert.deepEqual(sh(ctx, '(cd /data/demo; pwd); pwd; echo "$(cd /data && pwd)"'), ['/data/demo\n/\n/data\n', '', 0]);
  const session = new ShellSession(ctx);
  assert.deepEqual(streams(session.run('cd /data/demo\n')), ['', '', 0]);
  assert.deepEqual(streams(session.run('echo hi > f; ls; pwd\n')), ['f\n/data/demo\n', '', 0]);
});

test('cd is the shell\'s: an image has no cd program for kubectl exec to run without a shell', () => {
  assert.equal(unsimulatedCommand(['cd', '/data']), 'cd');
});
