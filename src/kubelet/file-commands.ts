// cat, ls, `tar cf -` and `tar xf -` in a simulated container, over the files the kubelet put there
// (container-files.ts) and what was copied into its emptyDirs and its writable layer, with GNU coreutils'
// and GNU tar's words. A path outside them (the image's files) is not known, and the command says so
// rather than claim the file is missing.
import type { PathStat } from '../api/index.ts';
import type { ContainerFiles, FileNode } from './container-files.ts';
import { lookup } from './container-files.ts';
import { longListing } from './ls-long.ts';
import type { LongEntry } from './ls-long.ts';
import { readTarArchive, tarArchive } from './tar-archive.ts';
import type { TarEntry } from './tar-archive.ts';

/** What a command wrote, in the order it wrote it, and its exit status. */
export interface FileCommandOutput {
  writes: { stream: 'stdout' | 'stderr'; text: string | Buffer }[];
  status: number;
  /** A file it read is outside what is known (the image's): its answer is not the container's. */
  unknown?: true;
}

export const unknownFiles = "not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it";

export function output(): FileCommandOutput {
  return { writes: [], status: 0 };
}

function stdout(out: FileCommandOutput, text: string | Buffer): void {
  if (text.length > 0) out.writes.push({ stream: 'stdout', text });
}

export function stderr(out: FileCommandOutput, text: string): void {
  out.writes.push({ stream: 'stderr', text });
}

/**
 * cat FILE...: each file's bytes; a directory, a missing or an unknown file is an error and status 1, in
 * busybox's words (coreutils/cat.c: open_or_warn's "can't open '%s'") for a busybox image.
 */
export function cat(args: readonly string[], files: ContainerFiles | undefined, workingDir: string, busybox = false): FileCommandOutput {
  const out = output();
  const option = args.find((a) => a.startsWith('-') && a !== '-');
  if (option !== undefined) return failed(out, `cat: option ${option} is not simulated\n`, 1);
  if (args.length === 0 || args.includes('-')) return failed(out, 'cat: reading standard input is not simulated\n', 1);
  for (const path of args) {
    const found = files ? lookup(files, path, workingDir) : { kind: 'unknown' as const };
    if (found.kind === 'found' && found.node.kind === 'file') stdout(out, found.node.data);
    else {
      const why = found.kind === 'found' ? 'Is a directory' : problem(found.kind);
      // busybox opens a directory and fails to read it (bb_copyfd's "read error").
      const busyboxWords = found.kind === 'found' ? `cat: read error: ${why}\n` : `cat: can't open '${path}': ${why}\n`;
      stderr(out, busybox && found.kind !== 'unknown' ? busyboxWords : `cat: ${path}: ${why}\n`);
      out.status = 1;
      if (found.kind === 'unknown') out.unknown = true;
    }
  }
  return out;
}

export function problem(kind: 'missing' | 'not-directory' | 'unknown' | 'loop' | 'found'): string {
  switch (kind) {
    case 'missing':
      return 'No such file or directory';
    case 'not-directory':
      return 'Not a directory';
    case 'loop':
      return 'Too many levels of symbolic links';
    default:
      return unknownFiles;
  }
}

export function failed(out: FileCommandOutput, message: string, status: number): FileCommandOutput {
  stderr(out, message);
  out.status = status;
  return out;
}

/**
 * Leading short options (`-rf`, `-a -1`) up to the first operand, each one of `allowed`; `refuse`
 * answers for the first that is not. An option letter the command reads as another is the caller's.
 */
export function shortOptions(args: readonly string[], allowed: string, refuse: (option: string) => FileCommandOutput): { flags: Set<string>; operands: string[] } | FileCommandOutput {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') && a.length > 1 && operands.length === 0) {
      for (const f of a.slice(1)) {
        if (!allowed.includes(f)) return refuse(f);
        flags.add(f);
      }
    } else operands.push(a);
  }
  return { flags, operands };
}

/** What `ls -l` needs besides the files: the image's ls (busybox's columns) and the time, for recent dates. */
export interface LongOptions {
  busybox: boolean;
  nowMs: number;
}

/**
 * ls [-a] [-A] [-1] [-l] [-R] [PATH...]: one name a line (as to a pipe), or with -l a long listing (ls-long.ts);
 * files before directories, names in byte order; -R goes down into each directory after listing it.
 */
export function ls(args: readonly string[], files: ContainerFiles | undefined, workingDir: string, long: LongOptions = { busybox: false, nowMs: 0 }): FileCommandOutput {
  const out = output();
  const parsed = shortOptions(args, 'aA1lR', (f) => failed(out, `ls: option -${f} is not simulated (ls runs with -a, -A, -1, -l and -R)\n`, 2));
  if (!('flags' in parsed)) return parsed;
  const { flags, operands } = parsed;
  if (operands.length === 0) operands.push('.');
  const shown: LongEntry[] = [];
  const dirs: { path: string; node: DirNode; at: string }[] = [];
  for (const path of operands) {
    // -l shows a link named on the command line as itself, as GNU and busybox ls do.
    const found = !files ? { kind: 'unknown' as const } : flags.has('l') ? lstat(files, path, workingDir) : lookup(files, path, workingDir);
    if (found.kind !== 'found') {
      stderr(out, `ls: cannot access ${shellQuote(path)}: ${problem(found.kind)}\n`);
      out.status = 2;
    } else if (found.node.kind === 'dir') dirs.push({ path, node: found.node, at: found.path });
    else shown.push({ name: path, node: found.node });
  }
  const print = (entries: readonly LongEntry[], total: boolean): string =>
    flags.has('l') && files ? longListing(entries, files, long.nowMs, long.busybox, total) : entries.map((e) => `${e.name}\n`).join('');
  const listing = [print(shown.sort((a, b) => compare(a.name, b.name)), false)];
  const headed = operands.length > 1 || flags.has('R');
  // -R: each directory's own listing, then its subdirectories' (not . and .., nor a link to one), depth first.
  const list = (path: string, node: DirNode, at: string): void => {
    if (listing.length > 1 || shown.length > 0) listing.push('\n');
    if (headed) listing.push(`${path}:\n`);
    const entries = new Set([...node.entries.keys(), ...mountPointsIn(files, at)]);
    const names = [...entries].filter((n) => flags.has('a') || flags.has('A') || !n.startsWith('.'));
    if (flags.has('a')) names.push('.', '..');
    const listed = names.sort(compare).map((n) => dirEntry(files, n, node, at));
    listing.push(print(listed, true));
    if (!flags.has('R')) return;
    for (const e of listed) if (e.node.kind === 'dir' && e.name !== '.' && e.name !== '..') list(`${path.replace(/\/+$/, '')}/${e.name}`, e.node, `${at === '/' ? '' : at}/${e.name}`);
  };
  for (const { path, node, at } of dirs.sort((a, b) => compare(a.path, b.path))) list(path, node, at);
  stdout(out, listing.join(''));
  return out;
}

/**
 * An entry of directory `dir` (at `at`) as lstat sees it: a link is itself, a mount point what is mounted
 * there; `..` above a volume is the image's directory, taken to be root's 0755 as the image's are.
 */
function dirEntry(files: ContainerFiles | undefined, name: string, dir: DirNode, at: string): LongEntry {
  const own = name === '.' ? dir : name === '..' ? undefined : dir.entries.get(name);
  const found = own || !files ? undefined : lookup(files, `${at}/${name}`, '/', false);
  return { name, node: own ?? (found?.kind === 'found' ? found.node : { kind: 'dir', entries: new Map(), mode: 0o755 }) };
}

/** lstat(2): a link at the end of `path` is itself, inside a volume too (where lookup's walk follows the atomic writer's links). */
function lstat(files: ContainerFiles, path: string, workingDir: string): ReturnType<typeof lookup> {
  const slash = path.replace(/\/+$/, '').lastIndexOf('/');
  const name = path.slice(slash + 1).replace(/\/+$/, '');
  const parent = lookup(files, slash < 0 ? '.' : path.slice(0, slash) || '/', workingDir);
  const own = parent.kind === 'found' && parent.node.kind === 'dir' && name !== '.' && name !== '..' ? parent.node.entries.get(name) : undefined;
  return own?.kind === 'link' && parent.kind === 'found' ? { kind: 'found', node: own, path: `${parent.path === '/' ? '' : parent.path}/${name}` } : lookup(files, path, workingDir, false);
}

/** The names in directory `at` that something is mounted on (or under): entries of it, as the runtime made them. */
function mountPointsIn(files: ContainerFiles | undefined, at: string): string[] {
  const prefix = at === '/' ? '/' : `${at}/`;
  const names: string[] = [];
  for (const m of files?.mounts ?? []) if (m.path.startsWith(prefix) && m.path.length > prefix.length) names.push(m.path.slice(prefix.length).split('/')[0] ?? '');
  return names;
}

/** Byte order, as ls sorts in the C locale a container runs in. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** GNU ls's quoting of a name in its messages ('name', or "it's"). */
function shellQuote(name: string): string {
  return name.includes("'") ? `"${name}"` : `'${name}'`;
}

/** Long options kubectl cp passes to `tar x` (with --no-preserve): nothing to do for a simulated owner and mode. */
const ignoredLongOptions = new Set(['--no-same-permissions', '--no-same-owner']);

/**
 * `tar cf - PATH...` (also `-cf`, `cvf`): the archive on stdout, links stored as links, a leading '/'
 * removed from member names with GNU tar's notice. `tar xf - [-C DIR]` (`-xmf`, kubectl cp into a pod):
 * standard input's archive unpacked into an emptyDir, the only place a simulated container takes writes.
 */
/** tar's first operand group (`cf`, `-xmf`) and the rest, kubectl cp's long options left out. */
function tarOptions(args: readonly string[]): { bundle: string; letters: string; rest: string[] } {
  const [bundle = '', ...rest] = args.filter((a) => !ignoredLongOptions.has(a));
  return { bundle, letters: bundle.replace(/^-/, ''), rest };
}

/** Whether `tar ARGS` extracts an archive (kubectl cp into a pod): it then reads its standard input whole first. */
export function tarExtracts(args: readonly string[]): boolean {
  const { letters } = tarOptions(args);
  return /^[xmvfpo]+$/.test(letters) && letters.includes('x') && letters.includes('f');
}

export function tar(args: readonly string[], files: ContainerFiles | undefined, workingDir: string, stdin?: Buffer): FileCommandOutput {
  const out = output();
  const { bundle, letters, rest } = tarOptions(args);
  if (tarExtracts(args)) return extract(out, rest, files, workingDir, stdin);
  if (letters.includes('t')) return failed(out, `tar: listing is not simulated (tar runs as tar cf - PATH... and tar xf - [-C DIR])\n`, 2);
  if (!/^[cfv]+$/.test(letters) || !letters.includes('c') || !letters.includes('f')) return failed(out, `tar: options ${bundle} are not simulated (tar runs as tar cf - PATH... and tar xf - [-C DIR])\n`, 2);
  const [archive, ...paths] = rest;
  if (archive !== '-') return failed(out, 'tar: writing an archive to a file is not simulated (tar runs as tar cf - PATH...)\n', 2);
  if (paths.length === 0) return failed(out, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n", 2);
  const entries: TarEntry[] = [];
  const mtimeSeconds = Math.floor((files?.writtenAt ?? 0) / 1000);
  let warnedSlash = false;
  for (const path of paths) {
    const found = files ? lookup(files, path, workingDir, false) : { kind: 'unknown' as const };
    if (found.kind !== 'found') {
      stderr(out, `tar: ${path}: ${found.kind === 'missing' ? 'Cannot stat: No such file or directory' : problem(found.kind)}\n`);
      out.status = 2;
      continue;
    }
    const name = path.replace(/^\/+/, '');
    if (name !== path && !warnedSlash) {
      stderr(out, "tar: Removing leading `/' from member names\n");
      warnedSlash = true;
    }
    addMembers(entries, name.replace(/\/+$/, ''), found.node, mtimeSeconds);
  }
  // The archive is closed, and its end written, after every operand; the summary comes last.
  stdout(out, tarArchive(entries));
  if (out.status !== 0) stderr(out, 'tar: Exiting with failure status due to previous errors\n');
  return out;
}

const unrecoverable = 'tar: Error is not recoverable: exiting now\n';

/**
 * tar x: each member made under DIR (its missing directories too), into an emptyDir or the container's
 * writable layer; a read-only root filesystem or volume gets GNU tar's refusal.
 */
function extract(out: FileCommandOutput, rest: readonly string[], files: ContainerFiles | undefined, workingDir: string, stdin: Buffer | undefined): FileCommandOutput {
  const [archive, ...more] = rest;
  if (archive !== '-') return failed(out, 'tar: reading an archive from a file is not simulated (tar runs as tar xf - [-C DIR])\n', 2);
  const at = more[0] === '-C' ? more[1] : undefined;
  if ((more[0] === '-C' && at === undefined) || more.length > (at === undefined ? 0 : 2)) return failed(out, `tar: ${more.join(' ')}: not simulated (tar runs as tar xf - [-C DIR])\n`, 2);
  if (stdin === undefined) return failed(out, 'tar: reading an archive from standard input is not simulated in a shell script\n', 2);
  const dir = at ?? workingDir;
  let base = files ? lookup(files, dir, workingDir) : { kind: 'unknown' as const };
  // A directory of the image's (kubectl cp pod:/tmp/f): taken to exist, and written through the layer.
  if (base.kind === 'unknown' && files?.layer) base = imageDirectory(files.layer, dir, workingDir);
  if (base.kind !== 'found' || base.node.kind !== 'dir') {
    stderr(out, `tar: ${dir}: Cannot open: ${base.kind === 'found' ? 'Not a directory' : problem(base.kind)}\n`);
    return failed(out, unrecoverable, 2);
  }
  const read = readTarArchive(stdin);
  if ('error' in read) {
    stderr(out, `tar: ${read.error}\n`);
    return failed(out, unrecoverable, 2);
  }
  for (const entry of read.entries) {
    const problemAt = place(base.node, entry);
    if (problemAt) {
      stderr(out, `tar: ${entry.name.replace(/\/+$/, '')}: ${problemAt}\n`);
      out.status = 2;
    }
  }
  if (out.status !== 0) stderr(out, 'tar: Exiting with failure status due to previous errors\n');
  return out;
}

type DirNode = Extract<FileNode, { kind: 'dir' }>;

/**
 * The writable layer's view of an image directory at `path`: its directories are made in the layer as
 * the image's (their other entries unknown) down to it, as the image is taken to have them.
 */
export function imageDirectory(layer: DirNode, path: string, workingDir: string): ReturnType<typeof lookup> {
  const parts: string[] = [];
  for (const part of (path.startsWith('/') ? path : `${workingDir}/${path}`).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  let dir = layer;
  for (const part of parts) {
    const existing = dir.entries.get(part);
    if (existing?.kind === 'dir') {
      dir = existing;
      continue;
    }
    if (existing) return { kind: 'not-directory' };
    if (!dir.image) return { kind: 'missing' };
    const made: DirNode = { kind: 'dir', entries: new Map(), mode: 0o755, image: true, ...(layer.writable ? { writable: true as const } : {}) };
    setEntry(dir, part, made);
    dir = made;
  }
  return { kind: 'found', node: dir, path: `/${parts.join('/')}` };
}

/** Writes `name` into a directory: a name removed from the image's directory is there again. */
export function setEntry(dir: DirNode, name: string, node: FileNode): void {
  (dir.entries as Map<string, FileNode>).set(name, node);
  dir.removed?.delete(name);
}

/** Puts one member under `root`, making its missing directories; the error GNU tar reports, if any. */
function place(root: DirNode, entry: TarEntry): string | undefined {
  const parts = entry.name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return 'Member name contains \'..\'';
  let dir = root;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const existing = dir.entries.get(part);
    if (last && entry.type !== 'dir') {
      if (!dir.writable) return 'Cannot open: Read-only file system';
      if (existing?.kind === 'dir') return 'Cannot open: Is a directory';
      const node: FileNode = entry.type === 'link' ? { kind: 'link', target: entry.linkname ?? '' } : { kind: 'file', data: entry.data ?? Buffer.alloc(0), mode: entry.mode & 0o7777 };
      setEntry(dir, part, node);
      return undefined;
    }
    if (existing?.kind === 'dir') {
      dir = existing;
      continue;
    }
    if (existing) return 'Cannot mkdir: File exists';
    if (!dir.writable) return 'Cannot mkdir: Read-only file system';
    const made: DirNode = { kind: 'dir', entries: new Map(), mode: last ? entry.mode & 0o7777 : 0o755, writable: true };
    setEntry(dir, part, made);
    dir = made;
  }
  return undefined;
}

function addMembers(entries: TarEntry[], name: string, node: FileNode, mtimeSeconds: number): void {
  if (node.kind === 'file') entries.push({ name, type: 'file', mode: node.mode, mtimeSeconds, data: node.data });
  else if (node.kind === 'link') entries.push({ name, type: 'link', mode: 0o777, mtimeSeconds, linkname: node.target });
  else {
    entries.push({ name: `${name}/`, type: 'dir', mode: node.mode, mtimeSeconds });
    for (const child of [...node.entries.keys()].sort(compare)) addMembers(entries, `${name}/${child}`, node.entries.get(child) as FileNode, mtimeSeconds);
  }
}

/**
 * test's view of the files (stat, links followed): kubectl cp asks `test -d` of its destination, scripts wait
 * with `until [ -f /shared/ready ]`. A path outside the kubelet's files (the image's) is not known, so not there.
 */
export function pathStat(files: ContainerFiles | undefined, workingDir: string): PathStat {
  return (path) => {
    const found = files ? lookup(files, path, workingDir) : undefined;
    if (found?.kind !== 'found' || found.node.kind === 'link') return undefined;
    return { kind: found.node.kind, size: found.node.kind === 'file' ? found.node.data.length : 0 };
  };
}
