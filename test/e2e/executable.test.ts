// The `drydock` executable as npm's bin link and `npm start` run it: its shell line starts node from
// the startup snapshot the build made (dist/drydock.blob) with the node that made it, and otherwise
// runs the bundle through its JavaScript path, which `node dist/drydock.mjs` also takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dist = resolve(import.meta.dirname, '../..');
const executable = join(dist, 'drydock.mjs');
// The V8 flags the build runs the cluster under (scripts/bundle.mjs), which the snapshot requires.
const v8Flags = ['--max-semi-space-size=64', '--initial-old-space-size=64', '--enable-experimental-regexp-engine-on-excessive-backtracks'];
const { NODE_OPTIONS: _nodeOptions, ...withoutNodeOptions } = process.env;

/** Runs `up` on an ephemeral port until its ready line; the node command line it runs under, then stops it. */
async function commandLineOfUp(file: string, dir: string, env: NodeJS.ProcessEnv = withoutNodeOptions): Promise<{ argv: string[]; ready: string }> {
  const child: ChildProcess = spawn(file, ['up', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig')], { stdio: ['ignore', 'pipe', 'pipe'], env });
  try {
    let output = '';
    const ready = await new Promise<string>((resolveReady, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = /drydock ready: .*/.exec(output)?.[0];
        if (line) resolveReady(line);
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`drydock exited with ${code}: ${output}`)));
    });
    // The shell line execs node, so the process keeps its pid.
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    return { argv, ready };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

test('drydock starts node from the startup snapshot the build made, with its V8 flags', async () => {
  assert.ok(existsSync(join(dist, 'drydock.blob')), 'npm run build writes dist/drydock.blob');
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    const { argv, ready } = await commandLineOfUp(executable, dir);
    assert.match(ready, /drydock ready: https:\/\/127\.0\.0\.1:\d+ \(Kubernetes v1\.35\.\d+, 4 nodes\)/);
    assert.deepEqual(argv.slice(1, 3 + v8Flags.length), [...v8Flags, '--snapshot-blob', join(dist, 'drydock.blob')]);
    assert.equal(argv[3 + v8Flags.length], 'up');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('drydock runs its JavaScript path when the snapshot was made by another node', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    for (const file of ['drydock.mjs', 'drydock.cjs', 'drydock.cjs.cache', 'drydock.blob']) copyFileSync(join(dist, file), join(dir, file));
    writeFileSync(join(dir, 'drydock.blob.node'), '/opt/another/bin/node\n');
    const { argv, ready } = await commandLineOfUp(join(dir, 'drydock.mjs'), dir);
    assert.match(ready, /drydock ready: /);
    assert.ok(!argv.includes('--snapshot-blob'), argv.join(' '));
    assert.deepEqual(argv.slice(1, 3 + v8Flags.length), [...v8Flags, join(dir, 'drydock.mjs'), 'up']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("through a symlink, as npm's bin link runs it, drydock starts from the snapshot beside the file it links to", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    symlinkSync(executable, join(dir, 'drydock'));
    const { argv, ready } = await commandLineOfUp(join(dir, 'drydock'), dir);
    assert.match(ready, /drydock ready: /);
    assert.deepEqual(argv.slice(1, 3 + v8Flags.length), [...v8Flags, '--snapshot-blob', join(dist, 'drydock.blob')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('drydock runs its JavaScript path when another node comes first on PATH', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    // Another install of node, as a version manager puts one first on PATH (here it runs this one).
    writeFileSync(join(dir, 'node'), `#!/bin/sh\nexec ${process.execPath} "$@"\n`, { mode: 0o755 });
    const { argv, ready } = await commandLineOfUp(executable, dir, { ...withoutNodeOptions, PATH: `${dir}:${process.env.PATH ?? ''}` });
    assert.match(ready, /drydock ready: /);
    assert.ok(!argv.includes('--snapshot-blob'), argv.join(' '));
    assert.deepEqual(argv.slice(1, 3 + v8Flags.length), [...v8Flags, executable, 'up']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('drydock runs its JavaScript path under NODE_OPTIONS, whose V8 flags the snapshot would refuse', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    const { argv, ready } = await commandLineOfUp(executable, dir, { ...withoutNodeOptions, NODE_OPTIONS: '--max-old-space-size=4096' });
    assert.match(ready, /drydock ready: /);
    assert.deepEqual(argv.slice(1, 3 + v8Flags.length), [...v8Flags, executable, 'up']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('node dist/drydock.mjs reads the shell line as JavaScript and runs the command', () => {
  const r = spawnSync(process.execPath, [executable, 'help'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^usage: drydock <command> \[flags\]/);
  const bad = spawnSync(process.execPath, [executable, 'nope'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'drydock: unknown command "nope" (try: drydock help)\n');
  const upHelp = spawnSync(process.execPath, [executable, 'up', '--help'], { encoding: 'utf8' });
  assert.equal(upHelp.status, 0, upHelp.stderr);
  assert.match(upHelp.stdout, /^usage: drydock up \[--config FILE\]/);
  const badFlag = spawnSync(process.execPath, [executable, 'up', '--nope'], { encoding: 'utf8' });
  assert.equal(badFlag.status, 2);
  assert.equal(badFlag.stderr, "drydock: Unknown option '--nope'\n");
});

test('drydock asks glibc for transparent huge pages, and keeps a GLIBC_TUNABLES that already names them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-exe-'));
  try {
    // A node first on PATH that writes the environment the shell line handed it, as /proc keeps it:
    // glibc 2.36 splits GLIBC_TUNABLES in place at its first ':' as it reads it, so both are matched.
    const out = join(dir, 'environ');
    writeFileSync(join(dir, 'node'), `#!/bin/sh\ncat /proc/$$/environ > "${out}"\n`, { mode: 0o755 });
    const environOf = (tunables: string | undefined): string => {
      const { GLIBC_TUNABLES: _tunables, ...env } = withoutNodeOptions;
      const r = spawnSync(executable, ['help'], { env: { ...env, PATH: `${dir}:${process.env.PATH ?? ''}`, ...(tunables === undefined ? {} : { GLIBC_TUNABLES: tunables }) } });
      assert.equal(r.status, 0, String(r.stderr));
      return readFileSync(out, 'latin1');
    };
    assert.match(environOf(undefined), /(^|\0)GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1\0/);
    assert.match(environOf('glibc.malloc.arena_max=2'), /(^|\0)GLIBC_TUNABLES=glibc\.malloc\.arena_max=2[:\0]glibc\.malloc\.hugetlb=1\0/);
    const kept = environOf('glibc.malloc.hugetlb=0');
    assert.match(kept, /(^|\0)GLIBC_TUNABLES=glibc\.malloc\.hugetlb=0\0/);
    assert.doesNotMatch(kept, /hugetlb=1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
