import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../api/index.ts';
import { containerFiles, imageRoot } from './container-files.ts';
import { volumeSources } from './volume-sources.test-helpers.ts';
import { runExec } from './exec-shell.ts';
import type { ExecContext } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';
import { lsTime, modeString } from './ls-long.ts';

// The security-context task page's pod: runAsUser 1000, runAsGroup 3000, fsGroup 2000, an emptyDir at /data/demo.
function securityContextDemo(image: string, fsGroup: number | null): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'security-context-demo', namespace: 'default', uid: 'uid-1' },
    spec: {
      securityContext: { runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000], ...(fsGroup === null ? {} : { fsGroup }) },
      containers: [{ name: 'sec-ctx-demo', image, volumeMounts: [{ name: 'sec-ctx-vol', mountPath: '/data/demo' }, { name: 'config', mountPath: '/etc/config' }] }],
      volumes: [{ name: 'sec-ctx-vol', emptyDir: {} }, { name: 'config', configMap: { name: 'app-config' } }],
    },
  };
}

const started = Date.UTC(2026, 5, 6, 20, 8, 30);

function context(image: string, fsGroup: number | null = 2000): ExecContext {
  const sources = volumeSources({
    configMap: () => ({ data: { 'app.yaml': 'model: llama\n' } }),
    dataDirectory: () => '..2026_06_06_20_08_30.1',
    allocatable: { cpu: '1', memory: '1Gi' },
  });
  const pod = securityContextDemo(image, fsGroup);
  const c = pod.spec.containers[0]!;
  return { env: {}, gpuList: undefined, workingDir: '/', files: containerFiles(pod, c, ['10.0.0.7'], sources, started, imageRoot(true)), image, now: () => started + 90_000 };
}

const stdout = (ctx: ExecContext, script: string): string => execText(runExec(['sh', '-c', script], ctx), 'stdout');

test('busybox ls -l in an fsGroup emptyDir: the page\'s setgid directory, and a file the process wrote owned by its uid and the fsGroup', () => {
  const ctx = context('busybox:1.28');
  assert.equal(stdout(ctx, 'ls -la /data/demo'), ['total 8', 'drwxrwsrwx    2 root     2000          4096 Jun  6 20:08 .', 'drwxr-xr-x    2 root     root          4096 Jun  6 20:08 ..', ''].join('\n'));
  assert.equal(
    stdout(ctx, 'cd /data/demo; sleep 60; echo hello > testfile; ls -l'),
    ['total 4', '-rw-r--r--    1 1000     2000             6 Jun  6 20:11 testfile', ''].join('\n'),
    'written a minute after the exec began (20:10): its own time; busybox sums the blocks once, (8 + 1) >> 1',
  );
});

test('GNU ls -l (a debian image): columns as wide as the widest, links shown as links, a named link not followed', () => {
  const ctx = context('debian:12');
  assert.equal(
    stdout(ctx, 'ls -l /etc/config'),
    ['total 0', 'lrwxrwxrwx 1 root root 15 Jun  6 20:08 app.yaml -> ..data/app.yaml', ''].join('\n'),
  );
  assert.equal(stdout(ctx, 'cd /etc/config; ls -l ..data'), 'lrwxrwxrwx 1 root root 23 Jun  6 20:08 ..data -> ..2026_06_06_20_08_30.1\n');
  assert.equal(stdout(ctx, 'echo some-longer-text > /data/demo/a; touch /data/demo/b; ls -l /data/demo'), ['total 4', '-rw-r--r-- 1 1000 2000 17 Jun  6 20:10 a', '-rw-r--r-- 1 1000 2000  0 Jun  6 20:10 b', ''].join('\n'));
});

test('without fsGroup a new file takes the process\'s own group', () => {
  const ctx = context('busybox:1.28', null);
  assert.equal(stdout(ctx, 'cd /data/demo; touch f; ls -l f'), '-rw-r--r--    1 1000     3000             0 Jun  6 20:10 f\n');
  assert.equal(stdout(ctx, 'ls -la /data/demo | head -2'), 'total 8\ndrwxrwxrwx    2 root     root          4096 Jun  6 20:08 .\n');
});

test('mode strings mark setuid, setgid and sticky as s/S and t/T by whether the execute bit is there too', () => {
  assert.deepEqual(
    [modeString('dir', 0o2777), modeString('dir', 0o1777), modeString('file', 0o644), modeString('file', 0o4644), modeString('file', 0o2755), modeString('dir', 0o1776)],
    ['drwxrwsrwx', 'drwxrwxrwt', '-rw-r--r--', '-rwSr--r--', '-rwxr-sr-x', 'drwxrwxrwT'],
  );
});

test('ls -l times: hours and minutes within half a year, else the year', () => {
  const now = Date.UTC(2026, 11, 7, 20, 0);
  assert.deepEqual([lsTime(Date.UTC(2026, 11, 1, 9, 5), now), lsTime(Date.UTC(2025, 11, 17, 9, 5), now), lsTime(now + 3_600_000, now)], ['Dec  1 09:05', 'Dec 17  2025', 'Dec  7  2026']);
});

test('ls -laR goes down into the atomic writer\'s directory after listing the volume, not through its links', () => {
  const ctx = context('busybox:1.28');
  assert.equal(
    stdout(ctx, 'ls -laR /etc/config'),
    [
      '/etc/config:',
      'total 12',
      'drwxrwxrwt    3 root     root          4096 Jun  6 20:08 .',
      'drwxr-xr-x    2 root     root          4096 Jun  6 20:08 ..',
      'drwxr-xr-x    2 root     root          4096 Jun  6 20:08 ..2026_06_06_20_08_30.1',
      'lrwxrwxrwx    1 root     root            23 Jun  6 20:08 ..data -> ..2026_06_06_20_08_30.1',
      'lrwxrwxrwx    1 root     root            15 Jun  6 20:08 app.yaml -> ..data/app.yaml',
      '',
      '/etc/config/..2026_06_06_20_08_30.1:',
      'total 12',
      'drwxr-xr-x    2 root     root          4096 Jun  6 20:08 .',
      'drwxrwxrwt    3 root     root          4096 Jun  6 20:08 ..',
      '-rw-r--r--    1 root     root            13 Jun  6 20:08 app.yaml',
      '',
    ].join('\n'),
  );
  assert.equal(stdout(ctx, 'ls -R /etc/config /data/demo'), '/data/demo:\n\n/etc/config:\napp.yaml\n', 'hidden directories are not gone into without -a');
});
