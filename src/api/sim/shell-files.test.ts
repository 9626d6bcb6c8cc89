import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFormBehaviour } from './command-forms.ts';
import type { ReadableFile, ShellFiles, WritableFile } from './shell-context.ts';
import { ShellRun } from './shell-run.ts';
import { parseScript } from './shell-syntax.ts';
import { tailOf, tailOptions } from './shell-tail.ts';

/** Files as the kubelet gives them, at the edge: /opt and /tmp writable, /ro a read-only mount. */
class Files implements ShellFiles {
  readonly live = true;
  readonly data = new Map<string, { bytes: Buffer }>();
  readonly dirs = new Set(['/', '/opt', '/tmp', '/ro']);
  create(path: string, append: boolean): WritableFile | { error: string } {
    const dir = path.slice(0, path.lastIndexOf('/')) || '/';
    if (this.dirs.has(path)) return { error: 'Is a directory' };
    if (!this.dirs.has(dir)) return { error: 'No such file or directory' };
    if (dir === '/ro') return { error: 'Read-only file system' };
    let f = this.data.get(path);
    if (!f) this.data.set(path, (f = { bytes: Buffer.alloc(0) }));
    else if (!append) f.bytes = Buffer.alloc(0);
    const file = f;
    return { write: (d) => void (file.bytes = Buffer.concat([file.bytes, Buffer.from(d)])) };
  }
  open(path: string): ReadableFile | { error: string } {
    const f = this.data.get(path);
    if (this.dirs.has(path)) return { id: this, read: () => ({ error: 'Is a directory' }) };
    return f ? { id: f, read: () => f.bytes } : { error: 'No such file or directory' };
  }
  directory(path: string): { path: string } | { error: string } {
    const at = path.startsWith('/') ? path : `/${path}`;
    const clean = at.replace(/\/\.$/, '').replace(/\/+$/, '') || '/';
    if (this.dirs.has(clean)) return { path: clean };
    return { error: this.data.has(clean) ? 'Not a directory' : 'No such file or directory' };
  }
  text(path: string): string | undefined {
    return this.data.get(path)?.bytes.toString();
  }
}

/** A script of a container run on the clock with `files`; its log as `ms:text` lines. */
function container(script: string, files: ShellFiles, open = false) {
  const lines: string[] = [];
  const run = new ShellRun(parseScript(script, open), { env: {}, gpuList: undefined, pid1: true, startedAt: 0, args: ['sh'], errexit: false, files }, { line: (atMs, text) => lines.push(`${atMs}:${text}`) });
  return { run, lines };
}

function play(script: string, untilMs = 0, files = new Files()) {
  const c = container(script, files);
  c.run.runUntil(untilMs);
  return { lines: c.lines, exit: c.run.exit, files };
}

test('> creates or truncates a file and >> appends to it; the target is expanded; 2>&1 after a file sends both streams there', () => {
  const r = play('echo "logging" > /opt/logs.txt; echo again >> /opt/logs.txt; F=/tmp/out; printf "%s\\n" one >"$F"; echo two >> $F; echo hidden > /tmp/x; > /tmp/x');
  assert.deepEqual(r.lines, []);
  assert.equal(r.files.text('/opt/logs.txt'), 'logging\nagain\n');
  assert.equal(r.files.text('/tmp/out'), 'one\ntwo\n');
  assert.equal(r.files.text('/tmp/x'), '', 'a redirection alone truncates');
  const both = play('echo out > /tmp/both 2>&1; echo err 2>/tmp/err 1>&2; echo "$?"');
  assert.equal(both.files.text('/tmp/err'), 'err\n');
  assert.deepEqual(both.lines, ['0:0']);
  const permanent = play('exec >>/tmp/log 2>&1; echo a; echo b >&2; exit 3');
  assert.deepEqual([permanent.lines, permanent.exit?.code], [[], 3]);
  assert.equal(permanent.files.text('/tmp/log'), 'a\nb\n', 'exec with no command keeps its redirections');
});

test("a redirection that cannot be opened fails its command with ash's words and status 1; for a special built-in the shell exits", () => {
  const ro = play('echo x > /ro/x; echo "status $?"; echo y >> /ro/x || echo failed');
  assert.deepEqual(ro.lines, ["0:sh: can't create /ro/x: Read-only file system", '0:status 1', "0:sh: can't create /ro/x: Read-only file system", '0:failed']);
  assert.deepEqual(play('echo x > /nodir/f; echo > /opt; echo $?').lines, ["0:sh: can't create /nodir/f: nonexistent directory", "0:sh: can't create /opt: Is a directory", '0:1']);
  assert.deepEqual(play('echo x 2>/dev/null > /ro/x; echo $?').lines, ['0:1'], 'the message goes where descriptor 2 goes by then');
  const special = play(': > /ro/x; echo after');
  assert.deepEqual([special.lines, special.exit], [["0:sh: can't create /ro/x: Read-only file system"], { code: 1, atMs: 0 }]);
  const errexit = play('set -e; echo a > /ro/a; echo after');
  assert.deepEqual(errexit.exit, { code: 1, atMs: 0 });
});

test('scripts that write or tail files are run on the clock, never evaluated ahead; tail -f /dev/null blocks for ever and is', () => {
  const app = commandFormBehaviour(['sh', '-c', 'while true; do echo "logging" >> /opt/logs.txt; sleep 1; done']);
  assert.ok(app?.script, 'the deployment example');
  assert.ok(commandFormBehaviour(['sh', '-c', 'tail -F /opt/logs.txt'])?.script, 'its sidecar');
  assert.ok(commandFormBehaviour(['sh', '-c', 'echo "logging" > /opt/logs.txt'])?.script, 'the Job example');
  const keepAlive = commandFormBehaviour(['tail', '-f', '/dev/null']);
  assert.deepEqual([keepAlive?.script, keepAlive?.runForMs, keepAlive?.logs], [undefined, undefined, []]);
  assert.deepEqual(commandFormBehaviour(['tail', '/dev/null'])?.runForMs, 0);
  for (const outside of ['tail -v /f', 'tail /a /b', 'tail', 'tail -', 'cat < /f', 'echo x 3>/f', 'echo x >&$fd']) {
    assert.equal(commandFormBehaviour(['sh', '-c', outside]), undefined, `${outside}: outside the subset, as before`);
  }
});

test('the sidecar docs: tail -F waits for the file, says it appeared, then prints each line the app appends once a second', () => {
  const files = new Files();
  const sidecar = container('tail -F /opt/logs.txt', files);
  const app = container('while true; do echo "logging" >> /opt/logs.txt; sleep 1; done', files);
  // The sidecar starts first; the app 200 ms later (its own time starts at 0 then).
  for (let t = 0; t <= 4000; t += 100) {
    sidecar.run.runUntil(t);
    if (t >= 200) app.run.runUntil(t - 200);
  }
  assert.deepEqual(sidecar.lines, ["0:tail: can't open '/opt/logs.txt': No such file or directory", '1000:tail: /opt/logs.txt has appeared; following end of new file', '1000:logging', '2000:logging', '3000:logging', '4000:logging']);
  assert.deepEqual(app.lines, []);
  assert.equal(sidecar.run.nextAt, 5000, 'one poll a second, nothing ahead of it');
  sidecar.run.sigterm();
  assert.equal(sidecar.run.exit, undefined, 'PID 1 with no handler: SIGTERM does nothing');
});

test('the Job example: the app writes once and exits; tail -F picks the line up at its next poll', () => {
  const files = new Files();
  const sidecar = container('tail -F /opt/logs.txt', files);
  sidecar.run.runUntil(0);
  const app = container('echo "logging" > /opt/logs.txt', files);
  app.run.runUntil(0);
  assert.deepEqual(app.run.exit, { code: 0, atMs: 0 });
  sidecar.run.runUntil(1000);
  assert.deepEqual(sidecar.lines.slice(1), ['1000:tail: /opt/logs.txt has appeared; following end of new file', '1000:logging']);
});

test('tail prints the last lines at once, follows growth, a truncation, a removal and a replacement as busybox does', () => {
  const files = new Files();
  const seed = container('for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo $i >> /tmp/f; done', files);
  seed.run.runUntil(0);
  assert.deepEqual(play('tail /tmp/f', 0, files).lines.map((l) => l.slice(2)), ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
  assert.deepEqual(play('tail -n 2 /tmp/f; tail -n +11 /tmp/f; tail -2 /tmp/f; tail -c 3 /tmp/f', 0, files).lines.map((l) => l.slice(2)), ['11', '12', '11', '12', '11', '12', '12']);
  const follower = container('tail -f -n 1 /tmp/f', files);
  follower.run.runUntil(0);
  const writer = (s: string) => container(s, files).run.runUntil(0);
  writer('echo 13 >> /tmp/f');
  follower.run.runUntil(1000);
  writer('echo short > /tmp/f');
  follower.run.runUntil(2000);
  assert.deepEqual(follower.lines, ['0:12', '1000:13', '2000:short'], 'a file truncated below what was read is read again from its start');
  const retry = container('tail -F /tmp/f', files);
  retry.run.runUntil(0);
  files.data.delete('/tmp/f');
  retry.run.runUntil(1000);
  writer('echo new > /tmp/f');
  retry.run.runUntil(2000);
  assert.deepEqual(retry.lines, ['0:short', '1000:tail: /tmp/f has been renamed or deleted: No such file or directory', '2000:tail: /tmp/f has been replaced; following end of new file', '2000:new']);
});

test('tail fails as busybox does: a missing file without -F, a directory, an option outside the subset', () => {
  const missing = play('tail -f /tmp/none; echo $?');
  assert.deepEqual(missing.lines, ["0:tail: can't open '/tmp/none': No such file or directory", '0:tail: no files', '0:1']);
  assert.deepEqual(play('tail /opt; echo $?').lines, ['0:tail: read error: Is a directory', '0:1']);
  const exec = container('tail -n x /tmp/f; tail -v /tmp/f; echo $?', new Files(), true);
  exec.run.runUntil(0);
  assert.deepEqual(exec.lines, ["0:tail: invalid number 'x'", '0:tail: option -v is not simulated', '0:1'], 'kubectl exec runs what a container script may not');
  assert.deepEqual(tailOptions(['-v', '/f']), { error: 'option -v is not simulated' });
  assert.deepEqual(tailOptions(['-fn5', '-s', '2', '/f']), { file: '/f', follow: true, retry: false, count: 5, bytes: false, fromTop: false, sleepMs: 2000 });
  assert.equal(tailOf(Buffer.from('a\nb\nc'), { count: 2, bytes: false, fromTop: false }).toString(), 'b\nc', 'a last line without a newline counts');
  assert.equal(tailOf(Buffer.from('a\nb\n'), { count: 5, bytes: false, fromTop: true }).toString(), '');
});

test('a container script\'s cd: its redirections then start from there; a failed cd leaves it where it was, status 2', () => {
  const r = play('cd /opt && echo logged > app.log; cd missing; echo "$? $PWD"; cd /; echo again >> opt/app.log');
  assert.deepEqual(r.lines, ["0:sh: cd: can't cd to missing: No such file or directory", '0:2 /opt']);
  assert.equal(r.files.text('/opt/app.log'), 'logged\nagain\n');
  assert.ok(commandFormBehaviour(['sh', '-c', 'cd /opt; echo hi'])?.script, 'where cd goes is the kubelet\'s to say: the script runs on the clock, not ahead');
});
