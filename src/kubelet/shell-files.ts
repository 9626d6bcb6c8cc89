// The container's files as its shell opens them: `> FILE` and `>> FILE` write into its writable layer or an
// emptyDir (the same live nodes cat, exec probes and kubectl exec read, and other containers mounting that
// emptyDir), and tail reads them as they grow. A read-only root filesystem or mount refuses with EROFS's
// words; a file outside what the kubelet knows (the image's) is not pretended to be missing or empty.
import type { ReadableFile, ShellFiles, WritableFile } from '../api/index.ts';
import type { ContainerFiles, FileNode } from './container-files.ts';
import { lookup, mountAt, newFileOwner } from './container-files.ts';
import { problem, setEntry, unknownFiles } from './file-commands.ts';
import { parentOf } from './file-writes.ts';

type FileData = Extract<FileNode, { kind: 'file' }>;

/** The store each appended-to file's bytes are the start of, with room to grow: appends cost what they add. */
const backings = new WeakMap<FileData, Buffer>();
/**
 * The latest appends to each file: when (epoch ms) and how long the file was before. Example: marks
 * [[1000, 0], [2000, 8]] on 16 bytes: a reader at 1500 sees 8 bytes, at 999 none, at 2000 all 16.
 */
const appends = new WeakMap<FileData, [atMs: number, before: number][]>();
/** Appends kept per file: a reader is never further behind its writers than a few of them. */
const maxMarks = 64;

/** What a reader at `atMs` sees of the file: the appends made after that time are not there yet. */
function asOf(node: FileData, atMs: number): Buffer {
  let visible = node.data.length;
  const marks = appends.get(node) ?? [];
  for (let i = marks.length - 1; i >= 0; i--) {
    const [at, before] = marks[i] as [number, number];
    if (at <= atMs) break;
    visible = Math.min(visible, before);
  }
  return node.data.subarray(0, visible);
}

function truncate(node: FileData): void {
  node.data = Buffer.alloc(0);
  appends.delete(node);
}

function append(node: FileData, bytes: Buffer, atMs: number): void {
  const marks = appends.get(node) ?? [];
  // A truncation by anyone else (tar, a restore) leaves marks past the data: they no longer apply.
  if (marks.some(([, before]) => before > node.data.length)) marks.length = 0;
  marks.push([atMs, node.data.length]);
  if (marks.length > maxMarks) marks.shift();
  appends.set(node, marks);
  const length = node.data.length + bytes.length;
  let backing = backings.get(node);
  // Anyone else replacing the data (a truncation, tar) leaves the old store behind.
  if (!backing || backing.length < length || backing.buffer !== node.data.buffer || backing.byteOffset !== node.data.byteOffset) {
    backing = Buffer.alloc(Math.max(256, 2 * length));
    node.data.copy(backing);
    backings.set(node, backing);
  }
  bytes.copy(backing, node.data.length);
  node.data = backing.subarray(0, length);
}

function writer(node: FileData): WritableFile {
  return {
    write: (data, atMs) => {
      append(node, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, atMs);
      node.mtimeMs = atMs;
    },
  };
}

/**
 * The shell's view of the files `files()` gives at each open (their nodes live on), relative to
 * `workingDir`; `live`: the shell runs on the clock (ShellFiles.live).
 */
export function shellFiles(files: () => ContainerFiles | undefined, workingDir: string, live: boolean): ShellFiles {
  return {
    live,
    create: (path, append) => create(files(), path, workingDir, append),
    open: (path) => open(files(), path, workingDir),
    directory: (path) => directory(files(), path, workingDir),
  };
}

/** cd's chdir: a directory the kubelet knows, or one of the image's, which a simulated container is taken to have. */
function directory(files: ContainerFiles | undefined, path: string, workingDir: string): { path: string } | { error: string } {
  const found = files ? lookup(files, path, workingDir) : { kind: 'unknown' as const };
  if (found.kind === 'found') return found.node.kind === 'dir' ? { path: found.path } : { error: 'Not a directory' };
  if (found.kind !== 'unknown') return { error: problem(found.kind) };
  return { path: cleanPath(path.startsWith('/') ? path : `${workingDir}/${path}`) };
}

/** An absolute path with no `.`, `..` or repeated slashes. */
function cleanPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function create(files: ContainerFiles | undefined, path: string, workingDir: string, appending: boolean): WritableFile | { error: string } {
  if (!files) return { error: unknownFiles };
  const found = lookup(files, path, workingDir);
  if (found.kind === 'found') return existing(files, found.node, found.path, appending);
  // What an image's file holds is not known: appending to it would make a file of just the new bytes.
  if (found.kind === 'unknown' && appending) return { error: unknownFiles };
  if (found.kind !== 'missing' && found.kind !== 'unknown') return { error: problem(found.kind) };
  const parent = parentOf(files, path, workingDir);
  if ('error' in parent) return parent;
  if (!parent.writable) return { error: 'Read-only file system' };
  const node: FileData = { kind: 'file', data: Buffer.alloc(0), mode: 0o644, ...newFileOwner(files, parent.dir) };
  setEntry(parent.dir, parent.name, node);
  return writer(node);
}

/** Opening a file that is there (at `at`, links resolved): truncated unless appended to. */
function existing(files: ContainerFiles, node: FileNode, at: string, appending: boolean): WritableFile | { error: string } {
  if (node.kind !== 'file') return { error: 'Is a directory' };
  const mount = mountAt(files, at);
  if (mount?.path === at) {
    // A file mounted on its own (a subPath) is as writable as its mount; one the kubelet makes anew for
    // each look (/etc/hosts, /etc/hostname) would lose the write, so it is not pretended to take it.
    if (mount.generated) return { error: `${unknownFiles}; writing ${at} is not simulated` };
    if (mount.readOnly) return { error: 'Read-only file system' };
  } else {
    const parent = parentOf(files, at, '/');
    if ('error' in parent) return parent;
    if (!parent.writable) return { error: 'Read-only file system' };
  }
  if (!appending) truncate(node);
  return writer(node);
}

function open(files: ContainerFiles | undefined, path: string, workingDir: string): ReadableFile | { error: string } {
  const found = files ? lookup(files, path, workingDir) : { kind: 'unknown' as const };
  if (found.kind !== 'found') return { error: problem(found.kind) };
  const node = found.node;
  if (node.kind === 'file') return { id: node, read: (atMs) => asOf(node, atMs) };
  return { id: node, read: () => ({ error: 'Is a directory' }) };
}
