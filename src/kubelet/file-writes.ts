// touch and rm in a simulated container: what its own script (the kubernetes.io liveness example's
// `touch /tmp/healthy; sleep 30; rm -f /tmp/healthy`) and kubectl exec change in its writable layer and
// emptyDirs, which exec probes and `cat` then read. Messages are busybox's for a busybox image, else GNU
// coreutils'. Upstream: busybox coreutils/touch.c, coreutils/rm.c, libbb/remove_file.c; GNU coreutils
// src/touch.c, src/remove.c.
import type { ContainerFiles, FileNode } from './container-files.ts';
import { lookup, mountAt, newFileOwner } from './container-files.ts';
import { failed, imageDirectory, output, problem, setEntry, shortOptions, stderr, unknownFiles } from './file-commands.ts';
import type { FileCommandOutput } from './file-commands.ts';

type DirNode = Extract<FileNode, { kind: 'dir' }>;
/** `writable`: neither the directory (a read-only root filesystem's) nor the mount it is on (readOnly) refuses writes. */
type Parent = { dir: DirNode; name: string; writable: boolean } | { error: string };

/** Whether the image's tools are busybox applets (busybox's, or Alpine's), which word their errors their own way. */
export function isBusyboxImage(image: string | undefined): boolean {
  return /(?:^|\/)(?:busybox|alpine)(?:[:@]|$)/.test(image ?? '');
}

/** The directory that holds `path` (an image's directory made in the layer as it is written through) and the name in it. */
export function parentOf(files: ContainerFiles, path: string, workingDir: string): Parent {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  const name = trimmed.slice(cut + 1);
  const dirPath = cut < 0 ? '.' : trimmed.slice(0, cut) || '/';
  let found = lookup(files, dirPath, workingDir);
  if (found.kind === 'unknown' && files.layer) found = imageDirectory(files.layer, dirPath, workingDir);
  if (found.kind !== 'found') return { error: problem(found.kind) };
  if (found.node.kind !== 'dir') return { error: 'Not a directory' };
  return { dir: found.node, name, writable: found.node.writable === true && mountAt(files, found.path)?.readOnly !== true };
}

/** touch FILE...: an empty file where there is none; a file there gets `nowMs` as its time (a directory's is not kept). */
export function touch(args: readonly string[], files: ContainerFiles | undefined, workingDir: string, busybox: boolean, nowMs?: number): FileCommandOutput {
  const out = output();
  const option = args.find((a) => a.startsWith('-'));
  if (option !== undefined) return failed(out, `touch: option ${option} is not simulated\n`, 1);
  if (args.length === 0) return failed(out, busybox ? 'touch: a file operand is needed\n' : "touch: missing file operand\nTry 'touch --help' for more information.\n", 1);
  for (const path of args) {
    const why = touchOne(files, path, workingDir, nowMs);
    if (why === undefined) continue;
    stderr(out, busybox ? `touch: ${path}: ${why}\n` : `touch: cannot touch '${path}': ${why}\n`);
    out.status = 1;
  }
  return out;
}

function touchOne(files: ContainerFiles | undefined, path: string, workingDir: string, nowMs: number | undefined): string | undefined {
  if (!files) return unknownFiles;
  const found = lookup(files, path, workingDir);
  const stamp = nowMs === undefined ? {} : { mtimeMs: nowMs };
  if (found.kind === 'found' && found.node.kind === 'file') Object.assign(found.node, stamp);
  if (found.kind === 'found') return undefined;
  const parent = parentOf(files, path, workingDir);
  if ('error' in parent) return parent.error;
  if (!parent.writable) return 'Read-only file system';
  setEntry(parent.dir, parent.name, { kind: 'file', data: Buffer.alloc(0), mode: 0o644, ...newFileOwner(files, parent.dir), ...stamp });
  return undefined;
}

/** rm [-f] [-r] FILE...: each name taken out of its directory; -f says nothing of a missing one. */
export function rm(args: readonly string[], files: ContainerFiles | undefined, workingDir: string, busybox: boolean): FileCommandOutput {
  const out = output();
  const parsed = shortOptions(args, 'frR', (f) => failed(out, `rm: option -${f} is not simulated (rm runs with -f and -r)\n`, 1));
  if (!('flags' in parsed)) return parsed;
  const { flags, operands } = parsed;
  if (flags.delete('R')) flags.add('r');
  if (operands.length === 0 && !flags.has('f')) return failed(out, busybox ? 'rm: a file operand is needed\n' : "rm: missing operand\nTry 'rm --help' for more information.\n", 1);
  for (const path of operands) {
    const why = removeOne(files, path, workingDir, flags);
    if (why === undefined) continue;
    if (why === 'Is a directory') stderr(out, busybox ? `rm: '${path}' is a directory\n` : `rm: cannot remove '${path}': Is a directory\n`);
    else stderr(out, busybox ? `rm: can't remove '${path}': ${why}\n` : `rm: cannot remove '${path}': ${why}\n`);
    out.status = 1;
  }
  return out;
}

function removeOne(files: ContainerFiles | undefined, path: string, workingDir: string, flags: ReadonlySet<string>): string | undefined {
  if (!files) return unknownFiles;
  const found = lookup(files, path, workingDir, false);
  if (found.kind === 'missing') return flags.has('f') ? undefined : 'No such file or directory';
  if (found.kind === 'not-directory' || found.kind === 'loop') return problem(found.kind);
  if (found.kind === 'found' && found.node.kind === 'dir' && !flags.has('r')) return 'Is a directory';
  if (found.kind === 'found' && files.mounts.some((m) => m.path === found.path)) return 'Device or resource busy';
  const parent = parentOf(files, path, workingDir);
  if ('error' in parent) return parent.error;
  // A name of the image's not known to be there: with -f it is gone either way; without, it is unknown.
  if (found.kind === 'unknown' && !flags.has('f')) return unknownFiles;
  if (!parent.writable) return 'Read-only file system';
  (parent.dir.entries as Map<string, FileNode>).delete(parent.name);
  if (parent.dir.image) (parent.dir.removed ??= new Set()).add(parent.name);
  return undefined;
}
