// `ls -l`'s lines: mode, links, owner, group, size, modification time and name, in busybox's fixed
// columns (coreutils/ls.c display_single: "%-10s %4lu %-8.8s %-8.8s %9llu ") or GNU coreutils' columns as
// wide as the listing's widest, both after a "total" of 1K blocks. A simulated image's /etc/passwd and
// /etc/group name only root (container-user.ts): any other owner shows as its number.
// Upstream: busybox coreutils/ls.c (display_single, calculate_blocks), GNU coreutils src/ls.c
// (print_long_format, long_time_expected_width), libbb/mode_string.c.
import type { ContainerFiles, FileNode } from './container-files.ts';

export interface LongEntry {
  name: string;
  node: FileNode;
}

interface Stat {
  mode: string;
  links: number;
  owner: string;
  group: string;
  size: number;
  time: string;
  blocks: number;
}

/** A directory's or a file's size on the node's filesystem: one 4K block a directory, whole blocks a file. */
const blockSize = 4096;
const halfYearMs = ((365 * 24 * 3600) / 2) * 1000;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `total N` and one line an entry (entries in the order given), busybox's or GNU's. */
export function longListing(entries: readonly LongEntry[], files: ContainerFiles, nowMs: number, busybox: boolean, total: boolean): string {
  const stats = entries.map((e) => stat(e.node, files, nowMs));
  const lines = total ? [`total ${totalBlocks(stats, busybox)}`] : [];
  const width = (pick: (s: Stat) => string | number): number => Math.max(0, ...stats.map((s) => String(pick(s)).length));
  const [links, owner, group, size] = [width((s) => s.links), width((s) => s.owner), width((s) => s.group), width((s) => s.size)];
  for (const [i, s] of stats.entries()) {
    const { name, node } = entries[i] as LongEntry;
    const target = node.kind === 'link' ? ` -> ${node.target}` : '';
    lines.push(
      busybox
        ? `${s.mode.padEnd(10)} ${String(s.links).padStart(4)} ${s.owner.slice(0, 8).padEnd(8)} ${s.group.slice(0, 8).padEnd(8)} ${String(s.size).padStart(9)} ${s.time} ${name}${target}`
        : `${s.mode} ${String(s.links).padStart(links)} ${s.owner.padEnd(owner)} ${s.group.padEnd(group)} ${String(s.size).padStart(size)} ${s.time} ${name}${target}`,
    );
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** busybox rounds the 512-byte blocks' sum up once; GNU adds each entry's 1K blocks. */
function totalBlocks(stats: readonly Stat[], busybox: boolean): number {
  const sum = stats.reduce((n, s) => n + s.blocks, 0);
  return busybox ? (sum + 1) >> 1 : stats.reduce((n, s) => n + Math.ceil(s.blocks / 2), 0);
}

function stat(node: FileNode, files: ContainerFiles, nowMs: number): Stat {
  const name = (id: number): string => (id === 0 ? 'root' : String(id));
  if (node.kind === 'link') return { mode: 'lrwxrwxrwx', links: 1, owner: 'root', group: 'root', size: node.target.length, time: lsTime(files.writtenAt, nowMs), blocks: 0 };
  const size = node.kind === 'dir' ? blockSize : node.data.length;
  const links = node.kind === 'dir' ? 2 + [...node.entries.values()].filter((n) => n.kind === 'dir').length : 1;
  const mtime = node.kind === 'file' ? (node.mtimeMs ?? files.writtenAt) : files.writtenAt;
  return { mode: modeString(node.kind, node.mode), links, owner: name(node.uid ?? 0), group: name(node.gid ?? 0), size, time: lsTime(mtime, nowMs), blocks: (Math.ceil(size / blockSize) * blockSize) / 512 };
}

/** libbb's bb_mode_string: the type, then rwx three times, s/S and t/T where setuid, setgid and sticky are. */
export function modeString(kind: 'file' | 'dir', mode: number): string {
  const bit = (mask: number, ch: string): string => (mode & mask ? ch : '-');
  const special = (exec: number, flag: number, on: string): string => (mode & flag ? (mode & exec ? on : on.toUpperCase()) : bit(exec, 'x'));
  return `${kind === 'dir' ? 'd' : '-'}${bit(0o400, 'r')}${bit(0o200, 'w')}${special(0o100, 0o4000, 's')}${bit(0o40, 'r')}${bit(0o20, 'w')}${special(0o10, 0o2000, 's')}${bit(0o4, 'r')}${bit(0o2, 'w')}${special(0o1, 0o1000, 't')}`;
}

/** `Jun  6 20:08`, or `Jun  6  2025` for a time over half a year past (or more than 15 minutes ahead), in the container's UTC. */
export function lsTime(ms: number, nowMs: number): string {
  const d = new Date(ms);
  const day = `${months[d.getUTCMonth()] ?? ''} ${String(d.getUTCDate()).padStart(2)}`;
  const age = nowMs - ms;
  if (age < halfYearMs && age > -15 * 60 * 1000) return `${day} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `${day}  ${d.getUTCFullYear()}`;
}
