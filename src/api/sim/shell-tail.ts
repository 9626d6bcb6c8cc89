// tail in the `sh -c` subset: the end of one file, and with -f or -F what is written to it after, read
// once a second on the clock as busybox's tail polls (the sidecar docs' `tail -F /opt/logs.txt` over an
// emptyDir another container appends to). -F opens the file again when it appears or is replaced, with
// busybox's notices on standard error. Messages and the polling are busybox's (coreutils/tail.c, checked
// against busybox 1.35's tail run on a file that appears, grows, is truncated, removed and made again).
import type { Gen } from './shell-context.ts';
import type { ReadableFile, ShellFiles } from './shell-context.ts';
import type { Sh } from './shell-process.ts';

export interface TailOptions {
  file: string;
  /** -f: poll for what is written after; -F: also open the file again when it appears or is replaced. */
  follow: boolean;
  retry: boolean;
  /** -n N (lines, the default 10) or -c N (bytes); +N: from the Nth on instead of the last N. */
  count: number;
  bytes: boolean;
  fromTop: boolean;
  /** -s SECONDS between polls. */
  sleepMs: number;
}

const suffixes: Readonly<Record<string, number>> = { '': 1, b: 512, k: 1024, m: 1024 * 1024 };

/** busybox's eat_num: an optional sign (+ counts from the top), digits, a b/k/m multiplier. */
function count(text: string, into: { count: number; fromTop: boolean }): string | undefined {
  const m = /^([-+]?)(\d+)([bkm]?)$/.exec(text);
  if (!m) return `invalid number '${text}'`;
  into.count = Number(m[2]) * (suffixes[m[3] ?? ''] ?? 1);
  if (m[1] === '+') into.fromTop = true;
  return undefined;
}

/** tail's options (getopt32's "fc:n:qs:+vF", -F implying -f, and the legacy leading -N/+N); one file operand (`-` where `stdin`). */
export function tailOptions(args: readonly string[], stdin = false): TailOptions | { error: string } {
  const o = { follow: false, retry: false, count: 10, bytes: false, fromTop: false, sleepMs: 1000 };
  const operands: string[] = [];
  let i = 0;
  if (/^[-+]\d/.test(args[0] ?? '')) {
    const bad = count(args[0] as string, o);
    if (bad) return { error: bad };
    i = 1;
  }
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j] as string;
      if (f === 'f' || f === 'F') {
        o.follow = true;
        o.retry ||= f === 'F';
      } else if (f === 'n' || f === 'c' || f === 's') {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return { error: `option requires an argument -- '${f}'` };
        if (f === 's') {
          if (!/^\d+$/.test(value)) return { error: `invalid number '${value}'` };
          o.sleepMs = Number(value) * 1000;
        } else {
          const bad = count(value, o);
          if (bad) return { error: bad };
          o.bytes = f === 'c';
        }
        break;
      } else if (f !== 'q') return { error: `option -${f} is not simulated` };
    }
  }
  const [file] = operands;
  if (operands.length !== 1 || file === undefined || (file === '-' && !stdin)) return { error: 'reading standard input or several files is not simulated' };
  return { ...o, file };
}

const newline = 0x0a;

/** tail's options when it reads only its standard input (no file operand, or `-`) and does not follow it; else undefined. */
export function pipedTail(args: readonly string[]): TailOptions | undefined {
  const o = tailOptions(args.includes('-') ? args : [...args, '-'], true);
  return !('error' in o) && o.file === '-' && !o.follow ? o : undefined;
}

/** What tail prints of a file at first: its last N lines (a last line without a newline counts) or bytes, or from the Nth on. */
export function tailOf(data: Buffer, o: Pick<TailOptions, 'count' | 'bytes' | 'fromTop'>): Buffer {
  if (o.fromTop) {
    if (o.bytes) return data.subarray(Math.max(0, o.count - 1));
    let lines = 1;
    for (let i = 0; i < data.length && lines < o.count; i++) if (data[i] === newline && ++lines === o.count) return data.subarray(i + 1);
    return lines < o.count ? data.subarray(data.length) : data;
  }
  if (o.count === 0) return data.subarray(data.length);
  if (o.bytes) return data.subarray(Math.max(0, data.length - o.count));
  let lines = 0;
  for (let i = data.length - (data[data.length - 1] === newline ? 1 : 0); i > 0; ) {
    if (data[--i] === newline && ++lines === o.count) return data.subarray(i + 1);
  }
  return data;
}

/** A file tail has open, and how far into it it has read. */
interface Followed {
  file: ReadableFile;
  offset: number;
}

/** Prints what is new in the file since the last read; a file now shorter than that was truncated, and is read again from its start. */
function readOn(sh: Sh, f: Followed): void {
  const data = f.file.read(sh.clockMs);
  if (!Buffer.isBuffer(data)) return;
  if (data.length > 0 && data.length < f.offset) f.offset = 0;
  if (data.length > f.offset) sh.write(data.subarray(f.offset));
  f.offset = data.length;
}

export function* tail(sh: Sh, args: readonly string[]): Gen {
  const o = tailOptions(args);
  if ('error' in o) return sh.done({ out: '', err: `tail: ${o.error}\n`, status: 1 });
  // /dev/null is empty for ever: `tail -f /dev/null`, the keep-alive idiom, blocks and prints nothing.
  if (o.file === '/dev/null') {
    if (o.follow) yield { sleep: null };
    sh.status = 0;
    return;
  }
  const files = sh.files();
  let followed = open(sh, files, o.file);
  if (followed) {
    const data = followed.file.read(sh.clockMs);
    if (!Buffer.isBuffer(data)) return sh.done({ out: '', err: `tail: read error: ${data.error}\n`, status: 1 });
    sh.write(tailOf(data, o));
    followed.offset = data.length;
  } else if (!o.retry) {
    // Without -F a file that cannot be opened is dropped; with none left tail dies.
    return sh.done({ out: '', err: 'tail: no files\n', status: 1 });
  }
  sh.status = 0;
  if (!o.follow) return;
  // Run ahead of the clock, a poll would only ever see the file as it is now: say so rather than go quiet.
  if (!files.live) return sh.done({ out: '', err: 'tail: following a file is not simulated in kubectl exec (a container\'s own tail -f is)\n', status: 1 });
  for (;;) {
    yield { sleep: o.sleepMs };
    const replacement = o.retry ? reopened(sh, files, o.file, followed) : undefined;
    if (replacement && !followed) followed = replacement;
    if (!followed) continue;
    readOn(sh, followed);
    if (replacement && replacement !== followed) {
      // The old file is read to its end first, then the new one from its start.
      followed = replacement;
      readOn(sh, followed);
    }
  }
}

function open(sh: Sh, files: ShellFiles, path: string): Followed | undefined {
  const file = files.open(path);
  if (!('error' in file)) return { file, offset: 0 };
  sh.write(`tail: can't open '${path}': ${file.error}\n`, 'stderr');
  return undefined;
}

/** -F: the file the path names now, when it is another than the one followed (busybox's notices). */
function reopened(sh: Sh, files: ShellFiles, path: string, followed: Followed | undefined): Followed | undefined {
  const now = files.open(path);
  if ('error' in now) {
    if (followed) sh.write(`tail: ${path} has been renamed or deleted: ${now.error}\n`, 'stderr');
    return undefined;
  }
  if (followed?.file.id === now.id) return undefined;
  sh.write(`tail: ${path} has ${followed ? 'been replaced' : 'appeared'}; following end of new file\n`, 'stderr');
  return { file: now, offset: 0 };
}
